/**
 * The packaged app laid out as Electron sees it at run time, for the stand-in to run.
 *
 * electron-builder writes `resources/app.asar` (an archive file) and `resources/app.asar.unpacked` (the
 * files `asarUnpack` and its native-module detection leave outside: .node binaries, shared libraries,
 * model files). In the archive's header each unpacked file is only a stub flagged `unpacked`. Electron
 * makes the archive look like a folder to JavaScript: fs calls, require/import and process.dlopen on
 * `app.asar/x` work, and for a stub they read `app.asar.unpacked/x` instead. Native code has no such
 * view: whisper.cpp or sherpa-onnx opening `.../app.asar/x` fails, because app.asar is a file.
 *
 * The stand-in runs under plain Node, which cannot read archives, so the archive is extracted into a
 * folder literally named `app.asar` next to the real `app.asar.unpacked`, and every file the header
 * flags unpacked is deleted from that folder: what native code opens under `app.asar/` then holds only
 * what the real archive holds, and a native asset path that points into the archive fails here as it
 * fails in the real app. The JavaScript side of Electron's view is test/app/stand-in/asar-support.ts,
 * which launch-app.ts loads into every process of an app started from an `app.asar` folder.
 *
 * One deviation: unpacked packages keep their package.json in the folder. Node reads package.json
 * (a package's entry point, its module type) from C++, where no JavaScript patch reaches, while
 * Electron's loader reads it through the archive; native code never opens package.json, so keeping it
 * cannot hide a native-path bug.
 *
 * A test tool: never shipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { extractAll, getRawHeader } from '@electron/asar';
import { packageLinuxDir } from '../../helpers/electron-builder-package.ts';

/** The layout {@link preparePackagedLayout} made. */
export interface PackagedLayout {
  /** The `resources/app.asar` folder: Electron's app path, what launchApp's `appDir` takes. */
  readonly appDir: string;
  /** `resources/app.asar.unpacked`, as electron-builder wrote it. */
  readonly unpackedDir: string;
  /** Archive paths (relative, `/`-separated) of the files the header flags unpacked. */
  readonly unpackedFiles: readonly string[];
  /** electron-builder's run, in ms. */
  readonly packagingMs: number;
  /** Extracting the archive and removing the unpacked stubs, in ms. */
  readonly extractMs: number;
}

/** An entry of the asar header (@electron/asar's types do not export the raw shape). */
interface HeaderNode {
  readonly files?: Record<string, HeaderNode>;
  readonly unpacked?: boolean;
  readonly link?: string;
}

function unpackedEntries(node: HeaderNode, prefix: string, out: string[]): string[] {
  for (const [name, child] of Object.entries(node.files ?? {})) {
    const rel = prefix === '' ? name : `${prefix}/${name}`;
    if (child.files !== undefined) unpackedEntries(child, rel, out);
    else if (child.unpacked === true && child.link === undefined) out.push(rel);
  }
  return out;
}

/** Packages the app into `workDir` (a temp folder the caller removes) and lays it out as described above. */
export async function preparePackagedLayout(workDir: string): Promise<PackagedLayout> {
  const { resources, packagingMs } = await packageLinuxDir(workDir);
  const started = performance.now();
  const archive = path.join(resources, 'app.asar');
  const unpackedDir = path.join(resources, 'app.asar.unpacked');
  const extracted = path.join(resources, 'app.asar.extracting');
  const unpackedFiles = unpackedEntries(getRawHeader(archive).header as HeaderNode, '', []);
  // extractAll copies unpacked files out of app.asar.unpacked; a stub with no file there is a broken release.
  const missing = unpackedFiles.filter((rel) => !fs.existsSync(path.join(unpackedDir, rel)));
  if (missing.length > 0) throw new Error(`app.asar flags files unpacked that app.asar.unpacked lacks: ${missing.join(', ')}`);
  extractAll(archive, extracted);
  for (const rel of unpackedFiles) {
    if (path.posix.basename(rel) === 'package.json') continue; // see the header comment
    fs.rmSync(path.join(extracted, rel));
    // Folders left empty go too: the unpacked side shows them.
    for (let dir = path.dirname(path.join(extracted, rel)); dir !== extracted && fs.readdirSync(dir).length === 0; dir = path.dirname(dir)) fs.rmdirSync(dir);
  }
  fs.rmSync(archive);
  fs.renameSync(extracted, archive);
  return { appDir: archive, unpackedDir, unpackedFiles, packagingMs, extractMs: performance.now() - started };
}
