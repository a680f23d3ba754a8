/**
 * Packages the app offline, as a release would be laid out: electron-vite's out/ (built when missing),
 * then `electron-builder --dir --linux` with a stub Electron distribution (a placeholder executable in
 * a temp folder), so no Electron download is needed. The result is not runnable with Electron, but
 * resources/app.asar and resources/app.asar.unpacked are exactly what a release would contain.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** What {@link packageLinuxDir} made. */
export interface LinuxPackage {
  /** The unpacked app folder (electron-builder's linux-unpacked): the stub executable and resources/. */
  readonly appOutDir: string;
  /** Its resources folder, holding app.asar and app.asar.unpacked. */
  readonly resources: string;
  /** How long electron-builder took, in ms (the build of out/ excluded). */
  readonly packagingMs: number;
  /** What electron-builder printed (stdout + stderr). */
  readonly log: string;
}

/**
 * The signing and notarization credentials electron-builder reads from the environment (see
 * docs/dev/PACKAGING-AND-SIGNING.md, "Signing"). The test packages without them, as a contributor's unsigned
 * local build does.
 */
export const SIGNING_ENV = [
  'CSC_LINK',
  'CSC_KEY_PASSWORD',
  'CSC_NAME',
  'WIN_CSC_LINK',
  'WIN_CSC_KEY_PASSWORD',
  'APPLE_ID',
  'APPLE_APP_SPECIFIC_PASSWORD',
  'APPLE_TEAM_ID',
  'APPLE_API_KEY',
  'APPLE_API_KEY_ID',
  'APPLE_API_ISSUER',
  'APPLE_KEYCHAIN',
  'APPLE_KEYCHAIN_PROFILE',
] as const;

/** @electron/fuses' sentinel, which marks the fuse wire inside an Electron binary. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/**
 * Electron's default fuse states in wire order (RunAsNode, CookieEncryption, NodeOptions, NodeCliInspect,
 * EmbeddedAsarIntegrityValidation, OnlyLoadAppFromAsar, BrowserProcessSpecificV8Snapshot,
 * GrantFileProtocolExtraPrivileges): '1' on, '0' off.
 */
export const STUB_DEFAULT_FUSES = '10110001';
const STUB_FUSE_WIRE = Buffer.concat([Buffer.from(FUSE_SENTINEL), Buffer.from([1, STUB_DEFAULT_FUSES.length]), Buffer.from(STUB_DEFAULT_FUSES)]);

/** Runs electron-builder --dir --linux --x64 into `workDir` (a fresh temp folder the caller owns and removes). */
export async function packageLinuxDir(workDir: string): Promise<LinuxPackage> {
  const dist = join(workDir, 'electron-dist');
  mkdirSync(dist, { recursive: true });
  // The stub stands in for the Electron executable electron-builder copies and renames. It carries a
  // fuse wire as Electron's binary does (the sentinel, version 1, the length, one byte per fuse, with
  // Electron's defaults), so electron-builder's `electronFuses` really flips it and the test reads it back.
  writeFileSync(join(dist, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\necho "stub Electron for packaging tests"\nexit 1\n# '), STUB_FUSE_WIRE, Buffer.from('\n')]), { mode: 0o755 });
  // `npm test` builds out/ once before vitest; rebuilding here would race the browser tests that serve
  // out/renderer at the same time, so build only when a test runs on its own without a build.
  if (!existsSync(join(root, 'out/main/index.js'))) {
    await run(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: root });
  }
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '1' };
  for (const name of SIGNING_ENV) delete env[name];
  // electron-builder prints nothing but errors when it sees VITEST; the tests read its log.
  delete env.VITEST;
  const started = performance.now();
  const { stdout, stderr } = await run(
    process.execPath,
    [
      join(root, 'node_modules/electron-builder/cli.js'),
      '--dir',
      '--linux',
      '--x64',
      '--publish',
      'never',
      `-c.electronDist=${dist}`,
      '-c.npmRebuild=false',
      `-c.directories.output=${join(workDir, 'release')}`,
    ],
    { cwd: root, env, maxBuffer: 16 * 1024 * 1024 },
  );
  const appOutDir = join(workDir, 'release', 'linux-unpacked');
  return { appOutDir, resources: join(appOutDir, 'resources'), packagingMs: performance.now() - started, log: `${stdout}${stderr}` };
}
