/**
 * The packaging config and what it really packages: targets, native parts per CPU, the size budget and the
 * fuses. The package is built offline by test/helpers/electron-builder-package.ts (electron-builder --dir
 * --linux with a stub Electron distribution): not runnable with Electron, but app.asar and app.asar.unpacked
 * are exactly what a release would contain. test/app/packaged.test.ts runs the app from that layout.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { extractFile, getRawHeader, listPackage } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageLinuxDir, SIGNING_ENV, STUB_DEFAULT_FUSES } from '../../helpers/electron-builder-package.ts';
// @ts-expect-error -- a plain .mjs hook without type declarations
import { nativePartsProblems as nativePartsProblemsUntyped } from '../../../scripts/before-pack.mjs';

const root = resolve(import.meta.dirname, '../../..');
const nativePartsProblems = nativePartsProblemsUntyped as (platform: string, arch: string, dir?: string) => { errors: string[]; warnings: string[] };
/**
 * The packaged Linux app without Electron itself (app.asar + app.asar.unpacked) must stay within this: 60 MB
 * before the built-in LLM, plus its ~30 MB CPU runtime (docs/dev/PACKAGING-AND-SIGNING.md says why it is shipped).
 */
const SIZE_BUDGET_BYTES = 100_000_000;
// js-yaml comes with electron-builder and has no type declarations; only `load` is used.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
// @electron/fuses comes with electron-builder (which flips the fuses with it); read them back the same way.
const fuses = createRequire(import.meta.url)('@electron/fuses') as {
  getCurrentFuseWire(file: string): Promise<Record<string, unknown>>;
  FuseV1Options: Record<string, number>;
};
/** The fuses electron-builder.yml must flip (each with its reason there), by @electron/fuses' option name. */
const REQUIRED_FUSES: Readonly<Record<string, boolean>> = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableCookieEncryption: true,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  GrantFileProtocolExtraPrivileges: false,
};

interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: string[];
  asar?: boolean;
  asarUnpack?: string[];
  npmRebuild?: boolean;
  beforePack?: string;
  forceCodeSigning?: boolean;
  directories?: { output?: string; buildResources?: string };
  mac?: {
    target?: string[];
    category?: string;
    icon?: string;
    hardenedRuntime?: boolean;
    entitlements?: string;
    entitlementsInherit?: string;
    extendInfo?: Record<string, unknown>;
    notarize?: boolean;
  };
  win?: { target?: string[]; icon?: string; signExts?: string[]; signtoolOptions?: { signingHashAlgorithms?: string[] } };
  linux?: { target?: string[]; category?: string; icon?: string; maintainer?: string };
  deb?: { depends?: string[]; recommends?: string[] };
  electronFuses?: Record<string, boolean>;
}

const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

describe('electron-builder.yml', () => {
  it('names the app and keeps native modules outside the asar, without rebuilding them', () => {
    expect(config.appId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(config.productName).toBe('Tingxie');
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).toBe(false);
  });

  it('unpacks every native part (whisper, key hook, sherpa-onnx libraries, VAD models); the deb depends on libgomp1 and the defaults', () => {
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        'node_modules/smart-whisper/build/Release/*',
        'node_modules/uiohook-napi/prebuilds/**',
        'node_modules/sherpa-onnx-*/**',
        'node_modules/@ricky0123/vad-web/dist/*.onnx',
      ]),
    );
    // A `depends` list replaces electron-builder's defaults, so they must be listed too.
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['libgomp1', 'libgtk-3-0', 'libnss3', 'libxtst6', 'libsecret-1-0', 'libxt6']));
  });

  it('sets the Electron fuses: no RunAsNode, NODE_OPTIONS or --inspect; cookie encryption, asar integrity, app only from asar', () => {
    const camel = (name: string): string => name[0]!.toLowerCase() + name.slice(1);
    const expected = Object.fromEntries(Object.entries(REQUIRED_FUSES).map(([k, v]) => [camel(k), v]));
    expect(config.electronFuses).toEqual(expected);
  });

  it('packages the build and runtime assets, never sources, tests or benchmarks', () => {
    expect(config.files).toEqual(expect.arrayContaining(['out/**', 'package.json', 'assets/tray/**', '!src/**', '!test/**', '!bench/**']));
  });

  it('macOS: dmg + zip, menubar app (no Dock icon), microphone text, hardened runtime with audio-input entitlement', () => {
    const mac = config.mac ?? {};
    expect(mac.target).toEqual(['dmg', 'zip']);
    expect(mac.category).toMatch(/^public\.app-category\./);
    expect(mac.extendInfo?.LSUIElement).toBe(true);
    expect(String(mac.extendInfo?.NSMicrophoneUsageDescription)).toMatch(/microphone/i);
    expect(mac.hardenedRuntime).toBe(true);
    for (const file of [mac.entitlements, mac.entitlementsInherit]) {
      const plist = readFileSync(join(root, String(file)), 'utf8');
      expect(plist).toContain('<key>com.apple.security.device.audio-input</key>');
      expect(plist).toMatch(/audio-input<\/key>\s*<true\/>/);
    }
  });

  it('signing and notarization come from the environment only: no certificate, password or identity in the file; unsigned builds allowed', () => {
    const text = readFileSync(join(root, 'electron-builder.yml'), 'utf8').replace(/#.*$/gm, '');
    expect(text).not.toMatch(/\b(certificateFile|certificatePassword|certificateSha1|certificateSubjectName|identity|cscLink|cscKeyPassword|appleId|appleIdPassword|teamId)\s*:/);
    // Release builds pass -c.forceCodeSigning=true; the file itself must let a contributor package unsigned.
    expect(config.forceCodeSigning).not.toBe(true);
    // electron-builder notarizes (notarytool) after signing when the APPLE_* variables are there, and skips it otherwise.
    expect(config.mac?.notarize).toBe(true);
    expect(config.mac?.hardenedRuntime).toBe(true);
    // Authenticode with SHA-256 only, on the native modules and DLLs too.
    expect(config.win?.signtoolOptions?.signingHashAlgorithms).toEqual(['sha256']);
    expect(config.win?.signExts).toEqual(expect.arrayContaining(['.node', '.dll']));
  });

  it('beforePack refuses native parts built for another machine (checked before anything is copied)', () => {
    expect(config.beforePack).toBe('./scripts/before-pack.mjs');
    // This checkout packages for itself.
    expect(nativePartsProblems(process.platform, process.arch).errors).toEqual([]);
    const other = nativePartsProblems(process.platform, process.arch === 'arm64' ? 'x64' : 'arm64');
    if (existsSync(join(root, 'node_modules/smart-whisper/build/Release/tingxie-build.json'))) {
      expect(other.errors.join('\n')).toMatch(/the whisper addon was built for \S+, this package is \S+: run `npm ci` on a/);
    }
    expect(other.errors.join('\n')).toMatch(/sherpa-onnx-\S+ \(voice activity detection\) is not installed/);
    expect(nativePartsProblems('darwin', 'universal').errors[0]).toMatch(/universal macOS packages are not supported/);
  });

  it('beforePack: an x64 package needs both whisper builds (avx2 and baseline); an unbuilt engine is only a warning', () => {
    const fake = mkdtempSync(join(tmpdir(), 'tingxie-prepack-'));
    try {
      const release = join(fake, 'node_modules/smart-whisper/build/Release');
      mkdirSync(release, { recursive: true });
      for (const pkg of ['sherpa-onnx-linux-x64', '@koromix/koffi-linux-x64']) {
        mkdirSync(join(fake, 'node_modules', pkg), { recursive: true });
        writeFileSync(join(fake, 'node_modules', pkg, 'package.json'), '{}');
      }
      expect(nativePartsProblems('linux', 'x64', fake)).toEqual({ errors: [], warnings: [expect.stringMatching(/local speech engine is not built/)] });
      writeFileSync(join(release, 'tingxie-build.json'), JSON.stringify({ base: { platform: 'linux', arch: 'x64' }, variants: {} }));
      writeFileSync(join(release, 'smart-whisper-avx2.node'), '');
      expect(nativePartsProblems('linux', 'x64', fake).errors).toEqual([expect.stringMatching(/variant\(s\) baseline missing/)]);
      writeFileSync(join(release, 'smart-whisper-baseline.node'), '');
      expect(nativePartsProblems('linux', 'x64', fake)).toEqual({ errors: [], warnings: [] });
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });

  it('Windows: nsis; Linux: AppImage + deb in Utility; every icon it names exists', () => {
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.linux?.category).toBe('Utility');
    expect(config.linux?.maintainer).toBeTruthy(); // deb needs one; package.json has no author
    for (const icon of [config.mac?.icon, config.win?.icon, config.linux?.icon]) expect(existsSync(join(root, String(icon))), icon).toBe(true);
    expect(existsSync(join(root, 'assets/icons/512x512.png'))).toBe(true);
  });
});

/** Every file below `dir`, as `/`-separated paths relative to it. */
function filesBelow(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesBelow(join(dir, e.name), base) : [relative(base, join(dir, e.name)).replace(/\\/g, '/')],
  );
}

/** The package a node_modules path belongs to (`node_modules/@scope/name`), or the top folder otherwise. */
function owner(file: string): string {
  const parts = file.replace(/^\//, '').split('/');
  if (parts[0] !== 'node_modules') return parts[0] ?? file;
  return parts.slice(0, parts[1]?.startsWith('@') ? 3 : 2).join('/');
}

interface HeaderNode {
  readonly files?: Record<string, HeaderNode>;
  readonly size?: number;
  readonly unpacked?: boolean;
  readonly link?: string;
}

/** The files app.asar's header lists (directories left out), with the bytes stored inside the archive (0 for unpacked files and links). */
function archiveFiles(node: HeaderNode, prefix = ''): [string, number][] {
  return Object.entries(node.files ?? {}).flatMap(([name, child]) => {
    const rel = prefix === '' ? name : `${prefix}/${name}`;
    if (child.files !== undefined) return archiveFiles(child, rel);
    return [[rel, child.unpacked === true || child.link !== undefined ? 0 : (child.size ?? 0)] as [string, number]];
  });
}

describe('the files electron-builder packages (offline, stub Electron)', () => {
  let tmp: string;
  let resources: string;
  let entries: string[];
  let unpacked: string[];
  let log: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'tingxie-'));
    // The helper removes every signing variable first (SIGNING_ENV), as on a contributor's machine.
    ({ resources, log } = await packageLinuxDir(tmp));
    entries = listPackage(join(resources, 'app.asar'), { isPack: false }).map((e) => e.replace(/\\/g, '/'));
    unpacked = filesBelow(join(resources, 'app.asar.unpacked'));
  }, 180_000);

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('flipped the fuses in the packaged Electron binary (read back with @electron/fuses)', async () => {
    const appOutDir = dirname(resources);
    const binary = readdirSync(appOutDir)
      .map((f) => join(appOutDir, f))
      .find((f) => statSync(f).isFile() && readFileSync(f).includes('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'));
    expect(binary, 'the packaged executable').toBeDefined();
    const wire = await fuses.getCurrentFuseWire(binary!);
    expect(wire.version).toBe('1');
    for (const [name, on] of Object.entries(REQUIRED_FUSES)) {
      // 49 = '1' (enabled), 48 = '0' (disabled), as @electron/fuses' FuseState.
      expect(wire[fuses.FuseV1Options[name]!], name).toBe(on ? 49 : 48);
    }
    // The one fuse left alone keeps Electron's default.
    expect(wire[fuses.FuseV1Options.LoadBrowserProcessSpecificV8Snapshot!]).toBe(STUB_DEFAULT_FUSES.charCodeAt(6));
  });

  it('contains main, the sandboxed preload and every renderer entry', () => {
    expect(entries).toContain('/out/main/index.js');
    expect(entries).toContain('/out/preload/index.cjs');
    for (const kind of ['panel', 'settings', 'history', 'capture', 'indicator']) expect(entries).toContain(`/out/renderer/${kind}/index.html`);
    // utilityProcess forks the ASR engine host by path.
    expect(entries).toContain('/out/main/engine-host.js');
    const pkg = JSON.parse(extractFile(join(resources, 'app.asar'), 'package.json').toString('utf8')) as { main: string };
    expect(entries).toContain(`/${pkg.main}`);
  });

  it('contains the tray icons for every state, and runtime dependencies', () => {
    for (const state of ['idle', 'recording', 'transcribing', 'enhancing', 'preview', 'error']) {
      expect(entries).toContain(`/assets/tray/tray-${state}.png`);
      expect(entries).toContain(`/assets/tray/tray-${state}Template@2x.png`);
    }
    for (const dep of ['zod', 'better-sqlite3', 'jsonc-parser', 'openai', '@lenml/tokenizers']) expect(entries).toContain(`/node_modules/${dep}/package.json`);
    for (const family of ['qwen2', 'deepseek-v3', 'llama3']) expect(entries).toContain(`/assets/tokenizers/${family}.json.br`);
    expect(entries).toContain('/node_modules/@lenml/tokenizers/dist/main.js');
  });

  it('leaves out sources, tests, benchmarks, scripts, source maps and dev dependencies', () => {
    const forbidden = entries.filter(
      (e) =>
        /^\/(src|test|bench|scripts)(\/|$)/.test(e) ||
        e.endsWith('.map') ||
        /^\/(electron-builder\.yml|tsconfig.*\.json|vitest\.config\.ts|electron\.vite\.config\.ts)$/.test(e) ||
        /^\/node_modules\/(electron|electron-builder|vitest|typescript|vite|playwright-core|eslint|node)\//.test(e) ||
        /^\/node_modules\/better-sqlite3\/(deps|src)\//.test(e),
    );
    expect(forbidden).toEqual([]);
  });

  it(`stays within the size budget: app.asar + app.asar.unpacked ≤ ${SIZE_BUDGET_BYTES / 1e6} MB (Electron itself excluded)`, () => {
    const archive = join(resources, 'app.asar');
    const byOwner = new Map<string, number>();
    const add = (file: string, bytes: number): void => {
      byOwner.set(owner(file), (byOwner.get(owner(file)) ?? 0) + bytes);
    };
    for (const [file, bytes] of archiveFiles(getRawHeader(archive).header as HeaderNode)) add(file, bytes);
    for (const file of unpacked) add(file, statSync(join(resources, 'app.asar.unpacked', file)).size);
    const unpackedBytes = unpacked.reduce((n, f) => n + statSync(join(resources, 'app.asar.unpacked', f)).size, 0);
    const total = statSync(archive).size + unpackedBytes;
    const top = [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 12);
    console.log(
      `package: app.asar ${(statSync(archive).size / 1e6).toFixed(1)} MB + app.asar.unpacked ${(unpackedBytes / 1e6).toFixed(1)} MB = ${(total / 1e6).toFixed(1)} MB\n` +
        top.map(([name, bytes]) => `  ${(bytes / 1e6).toFixed(2).padStart(6)} MB  ${name}`).join('\n'),
    );
    expect(total).toBeLessThanOrEqual(SIZE_BUDGET_BYTES);
  });

  it('ships only production files: no dev or browser-only packages, sources, headers, other platforms\' binaries or unused models', () => {
    const all = [...archiveFiles(getRawHeader(join(resources, 'app.asar')).header as HeaderNode).map(([f]) => f), ...unpacked];
    const offending = all.filter(
      (f) =>
        // Bundled into out/renderer by Vite; onnxruntime-web is @ricky0123/vad-web's browser runtime (the app runs Silero in sherpa-onnx).
        /^node_modules\/(react|react-dom|scheduler|onnxruntime-web|onnxruntime-common|protobufjs|undici|node-addon-api|@types)\//.test(f) ||
        /\.(c|cc|cpp|h|hh|hpp|d\.ts|d\.mts|d\.cts|map)$/.test(f) ||
        (/^node_modules\/smart-whisper\//.test(f) && !/^node_modules\/smart-whisper\/(package\.json|build\/Release\/(smart-whisper-[a-z0-9]+\.node|ggml-metal\.metal))$/.test(f)) ||
        (/^node_modules\/@ricky0123\/vad-web\//.test(f) && !/^node_modules\/@ricky0123\/vad-web\/(package\.json|dist\/silero_vad_v5\.onnx)$/.test(f)) ||
        /^node_modules\/better-sqlite3\/prebuilds\/(?!linux-x64\.node$)/.test(f) ||
        /^node_modules\/uiohook-napi\/prebuilds\/(?!linux-x64\/)/.test(f) ||
        /^node_modules\/@koromix\/[^/]+\/musl_/.test(f) ||
        /^node_modules\/(openai|zod|gpt-tokenizer)\/src\//.test(f) ||
        /^node_modules\/gpt-tokenizer\/(esm|data)\//.test(f) ||
        // The per-family tokenizer packages are dev dependencies (assets/tokenizers is packed from them).
        /^node_modules\/@lenml\/(tokenizer-|tokenizers\/(src|dist\/main\.(global\.js|mjs)))/.test(f),
    );
    expect(offending).toEqual([]);
  });

  it('packages unsigned without any signing variable, and nothing asks for a certificate', () => {
    for (const name of SIGNING_ENV) expect(log).not.toContain(name);
    expect(log).not.toMatch(/certificate|identity|notari[sz]|sign(ing|ed)\b/i);
    expect(log).toMatch(/packaging\s+platform=linux arch=x64/);
  });

  it('unpacks better-sqlite3\'s linux-x64 Node-API prebuild next to the asar (native code cannot load from inside it)', () => {
    const unpacked = join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'prebuilds', 'linux-x64.node');
    expect(existsSync(unpacked)).toBe(true);
    // A real ELF shared object, not an empty placeholder.
    expect(readFileSync(unpacked).subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  });

  it.each([
    ['uiohook-napi', 'prebuilds/linux-x64/uiohook-napi.node'],
    ['sherpa-onnx-linux-x64', 'libonnxruntime.so'],
    ['@ricky0123/vad-web', 'dist/silero_vad_v5.onnx'],
  ])('unpacks %s/%s next to the asar', (pkg, file) => {
    const unpacked = join(resources, 'app.asar.unpacked', 'node_modules', pkg, file);
    expect(existsSync(unpacked)).toBe(true);
    if (file.endsWith('.node') || file.endsWith('.so')) expect(readFileSync(unpacked).subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  });

  it.for(['avx2', 'baseline'])('unpacks the whisper binding\'s %s build (skipped where it was not built)', (variant, ctx) => {
    const file = `node_modules/smart-whisper/build/Release/smart-whisper-${variant}.node`;
    if (!existsSync(join(root, file))) ctx.skip(`${file} was not built (node scripts/build-whisper.mjs)`);
    expect(unpacked).toContain(file);
    expect(readFileSync(join(resources, 'app.asar.unpacked', file)).subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  });

  it('refuses to package for an architecture this checkout did not build (linux-arm64 from x64), before copying anything', async () => {
    const dist = join(tmp, 'electron-dist'); // made by the helper
    const out = join(tmp, 'release-other-arch');
    const other = process.arch === 'arm64' ? '--x64' : '--arm64';
    const env: NodeJS.ProcessEnv = { ...process.env, CI: '1' };
    const cli = join(root, 'node_modules/electron-builder/cli.js');
    const args = [cli, '--dir', '--linux', other, '--publish', 'never', `-c.electronDist=${dist}`, '-c.npmRebuild=false', `-c.directories.output=${out}`];
    const failure = await promisify(execFile)(process.execPath, args, { cwd: root, env, maxBuffer: 16 * 1024 * 1024 }).then(
      () => null,
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
    );
    expect(failure).toMatch(/cannot package Tingxie for linux-(arm64|x64)/);
    expect(failure).toMatch(/sherpa-onnx-linux-(arm64|x64) \(voice activity detection\) is not installed/);
    expect(existsSync(join(out, `linux-${other.slice(2)}-unpacked`, 'resources', 'app.asar'))).toBe(false);
  }, 60_000);
});
