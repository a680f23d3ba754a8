/**
 * Electron's asar support, for the app run from an extracted packaged layout (see
 * test/app/harness/packaged-layout.ts): `resources/app.asar/` is a folder holding only what the archive
 * stores itself, `resources/app.asar.unpacked/` the files electron-builder left outside it.
 *
 * Electron patches Node's JavaScript side so the archive looks whole (lib/node/asar-fs-wrapper.ts):
 * `fs` calls, module resolution and `process.dlopen` on `app.asar/x` find an unpacked `x` in
 * `app.asar.unpacked/x`, and modules keep their `app.asar/...` filenames. Native code gets no such
 * help: whisper.cpp or onnxruntime opening `app.asar/x` fails, as the archive is a file. This module
 * gives the same split: the JavaScript view below reads through to the unpacked twin, the real
 * folders underneath (what native code opens) do not have those files.
 *
 * Loaded with `--import` into every process of the app (launch-app.ts passes it in NODE_OPTIONS, so the
 * engine host and worker threads get it too, as Electron's utility processes and workers do). A test
 * tool: never shipped.
 */
import fs from 'node:fs';
import Module, { registerHooks, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// `/…/app.asar` or `/…/app.asar.unpacked`, then the path inside it.
const ARCHIVE_PATH = /^(.*[\\/]app\.asar)(\.unpacked)?(?=[\\/]|$)(.*)$/;

/** The same file on the other side: `app.asar/x` ⇄ `app.asar.unpacked/x`; null outside an archive. */
export function asarTwin(p: string): string | null {
  const m = ARCHIVE_PATH.exec(p);
  if (m === null) return null;
  const [, archive = '', unpacked, rest = ''] = m;
  return `${archive}${unpacked === undefined ? '.unpacked' : ''}${rest}`;
}

/** True for a path inside (or at) an `app.asar` folder, not its `.unpacked` twin. */
function inArchive(p: string): boolean {
  const m = ARCHIVE_PATH.exec(p);
  return m !== null && m[2] === undefined;
}

const real = {
  existsSync: fs.existsSync.bind(fs),
  readdirSync: fs.readdirSync.bind(fs),
  realpathSync: fs.realpathSync.bind(fs),
  dlopen: process.dlopen.bind(process),
};

/**
 * Where JavaScript reads `p`: an `app.asar/x` that the folder lacks but `app.asar.unpacked/x` has is
 * read there (Electron's header lists it, flagged unpacked); anything else is itself.
 */
export function asarReadPath(p: string): string {
  if (!inArchive(p) || real.existsSync(p)) return p;
  const twin = asarTwin(p);
  return twin !== null && real.existsSync(twin) ? twin : p;
}

type AnyFn = (...args: unknown[]) => unknown;

/** Replaces `obj[name]` with a wrapper that reads its first (path) argument through the view. */
function redirectFirstArg(obj: object, name: string): void {
  const target = obj as Record<string, AnyFn & { native?: AnyFn }>;
  const original = target[name];
  if (typeof original !== 'function') return;
  const wrapped = function (this: unknown, first: unknown, ...rest: unknown[]): unknown {
    const p = typeof first === 'string' ? first : first instanceof URL && first.protocol === 'file:' ? fileURLToPath(first) : null;
    return original.call(this, p === null ? first : asarReadPath(p), ...rest);
  } as AnyFn & { native?: AnyFn };
  if (typeof original.native === 'function') {
    const nativeFn = original.native;
    wrapped.native = (first: unknown, ...rest: unknown[]) => nativeFn(typeof first === 'string' ? asarReadPath(first) : first, ...rest);
  }
  target[name] = wrapped;
}

/** A folder inside the archive lists what the archive has there: the packed entries and the unpacked ones. */
function mergedListing(p: string, options: unknown): unknown[] {
  const lists: unknown[][] = [];
  for (const dir of [p, asarTwin(p)]) {
    if (dir !== null && real.existsSync(dir)) lists.push(real.readdirSync(dir, options as fs.ObjectEncodingOptions) as unknown[]);
  }
  if (lists.length === 0) return real.readdirSync(p, options as fs.ObjectEncodingOptions) as unknown[]; // throws ENOENT as usual
  const seen = new Set<string>();
  return lists.flat().filter((e) => {
    const name = typeof e === 'string' ? e : e instanceof Buffer ? e.toString() : (e as fs.Dirent).name;
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

function installFs(): void {
  for (const name of ['existsSync', 'statSync', 'lstatSync', 'accessSync', 'readFileSync', 'openSync', 'createReadStream', 'exists', 'stat', 'lstat', 'access', 'readFile', 'open', 'copyFile', 'copyFileSync']) {
    redirectFirstArg(fs, name);
  }
  for (const name of ['stat', 'lstat', 'access', 'readFile', 'open', 'copyFile']) redirectFirstArg(fs.promises, name);

  // realpath keeps the archive path, as Electron's does: the file lives "in" app.asar.
  const realpathSync = (p: fs.PathLike, options?: unknown): string | Buffer => {
    const s = typeof p === 'string' ? p : p instanceof URL ? fileURLToPath(p) : p.toString();
    const read = asarReadPath(s);
    const resolved = real.realpathSync(read, options as fs.EncodingOption) as string;
    return read === s ? resolved : (asarTwin(resolved) ?? resolved);
  };
  const realpathNative = fs.realpathSync.native;
  fs.realpathSync = Object.assign(realpathSync, {
    native: (p: fs.PathLike, options?: unknown) => {
      const s = typeof p === 'string' ? p : p instanceof URL ? fileURLToPath(p) : p.toString();
      const read = asarReadPath(s);
      const resolved = realpathNative(read, options as fs.EncodingOption) as string;
      return read === s ? resolved : (asarTwin(resolved) ?? resolved);
    },
  }) as typeof fs.realpathSync;

  const listSync = (p: fs.PathLike, options?: unknown): unknown[] => {
    const s = typeof p === 'string' ? p : p instanceof URL ? fileURLToPath(p) : p.toString();
    return inArchive(s) ? mergedListing(s, options) : (real.readdirSync(p, options as fs.ObjectEncodingOptions) as unknown[]);
  };
  fs.readdirSync = listSync as typeof fs.readdirSync;
  fs.readdir = ((p: fs.PathLike, ...rest: unknown[]) => {
    const cb = rest.pop() as (err: Error | null, files?: unknown[]) => void;
    try {
      const files = listSync(p, rest[0]);
      process.nextTick(cb, null, files);
    } catch (err) {
      process.nextTick(cb, err as Error);
    }
  }) as typeof fs.readdir;
  fs.promises.readdir = (async (p: fs.PathLike, options?: unknown) => listSync(p, options)) as typeof fs.promises.readdir;

  // Named imports of node:fs (`import { existsSync } from 'node:fs'`) see the wrappers too.
  syncBuiltinESMExports();
}

function installDlopen(): void {
  // Electron copies a packed .node out of the archive, or loads the unpacked one: dlopen gets a real file.
  process.dlopen = (module: object, filename: string, flags?: number) =>
    flags === undefined ? real.dlopen(module, asarReadPath(filename)) : real.dlopen(module, asarReadPath(filename), flags);
}

function filePathOf(urlOrPath: string | undefined): string | null {
  if (urlOrPath === undefined) return null;
  if (urlOrPath.startsWith('file:')) return fileURLToPath(urlOrPath);
  return path.isAbsolute(urlOrPath) ? urlOrPath : null;
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
}

/** Node's CommonJS resolver, as far as it is patched here (not in @types/node: internal but stable). */
interface CjsResolver {
  _resolveFilename(request: string, parent: { filename?: string | null } | undefined, isMain: boolean, options?: unknown): string;
  _nodeModulePaths(dir: string): string[];
}

/**
 * CommonJS resolution over the view (require, require.resolve, and the CommonJS modules an ES module
 * imports, which Node resolves again here without the hooks below): what does not resolve inside the
 * `app.asar` folder is resolved from the `.unpacked` twin and named by its archive path.
 */
function installCjsResolve(): void {
  const cjs = Module as unknown as CjsResolver;
  const original = cjs._resolveFilename.bind(cjs);
  cjs._resolveFilename = (request, parent, isMain, options) => {
    try {
      return original(request, parent, isMain, options);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const ownTwin = path.isAbsolute(request) && inArchive(request) ? asarTwin(request) : null;
      const parentFile = parent?.filename ?? null;
      const parentTwin = parentFile !== null && inArchive(parentFile) ? asarTwin(parentFile) : null;
      if (ownTwin === null && parentTwin === null) throw err;
      const twinParent = parentTwin === null ? parent : { ...parent, id: parentTwin, filename: parentTwin, paths: cjs._nodeModulePaths(path.dirname(parentTwin)) };
      let found: string;
      try {
        found = original(ownTwin ?? request, twinParent, isMain, options);
      } catch {
        throw err;
      }
      return path.isAbsolute(found) && !inArchive(found) ? (asarTwin(found) ?? found) : found;
    }
  };
}

/**
 * ES module resolution and loading over the view: a specifier that does not resolve inside the
 * `app.asar` folder is resolved again from the `.unpacked` twin (the parent's, or the path's own), and
 * the result is named by its archive path, as Electron names it; loading such a file reads the twin.
 */
function installModuleHooks(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        const own = filePathOf(specifier);
        const parent = filePathOf(context.parentURL);
        const ownTwin = own !== null && inArchive(own) ? asarTwin(own) : null;
        const parentTwin = parent !== null && inArchive(parent) ? asarTwin(parent) : null;
        if (ownTwin === null && parentTwin === null) throw err;
        let found;
        try {
          found = nextResolve(ownTwin !== null ? pathToFileURL(ownTwin).href : specifier, {
            ...context,
            ...(parentTwin !== null ? { parentURL: pathToFileURL(parentTwin).href } : {}),
          });
        } catch {
          throw err;
        }
        const foundPath = filePathOf(found.url);
        const archived = foundPath !== null && !inArchive(foundPath) ? asarTwin(foundPath) : null;
        return archived === null ? found : { ...found, url: pathToFileURL(archived).href };
      }
    },
    load(url, context, nextLoad) {
      const p = filePathOf(url);
      if (p === null || !inArchive(p)) return nextLoad(url, context);
      const read = asarReadPath(p);
      return read === p ? nextLoad(url, context) : nextLoad(pathToFileURL(read).href, context);
    },
  });
}

installFs();
installDlopen();
installCjsResolve();
installModuleHooks();
