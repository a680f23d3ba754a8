/**
 * The packaging config and what it really packages (issue 2, item 9). The package is built offline by
 * test/helpers/electron-builder-package.ts (electron-builder --dir --linux with a stub Electron
 * distribution): not runnable with Electron, but app.asar and app.asar.unpacked are exactly what a
 * release would contain. test/app/packaged.test.ts runs the app from that layout.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { listPackage, extractFile } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageLinuxDir } from '../../helpers/electron-builder-package.ts';

const root = resolve(import.meta.dirname, '../../..');
// js-yaml comes with electron-builder and has no type declarations; only `load` is used.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: string[];
  asar?: boolean;
  asarUnpack?: string[];
  npmRebuild?: boolean;
  directories?: { output?: string; buildResources?: string };
  mac?: {
    target?: string[];
    category?: string;
    icon?: string;
    hardenedRuntime?: boolean;
    entitlements?: string;
    entitlementsInherit?: string;
    extendInfo?: Record<string, unknown>;
  };
  win?: { target?: string[]; icon?: string };
  linux?: { target?: string[]; category?: string; icon?: string; maintainer?: string };
  deb?: { depends?: string[]; recommends?: string[] };
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
        'node_modules/smart-whisper/build/Release/*.node',
        'node_modules/uiohook-napi/prebuilds/**',
        'node_modules/sherpa-onnx-*/**',
        'node_modules/@ricky0123/vad-web/dist/*.onnx',
      ]),
    );
    // A `depends` list replaces electron-builder's defaults, so they must be listed too.
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['libgomp1', 'libgtk-3-0', 'libnss3', 'libxtst6', 'libsecret-1-0', 'libxt6']));
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

  it('Windows: nsis; Linux: AppImage + deb in Utility; every icon it names exists', () => {
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.linux?.category).toBe('Utility');
    expect(config.linux?.maintainer).toBeTruthy(); // deb needs one; package.json has no author
    for (const icon of [config.mac?.icon, config.win?.icon, config.linux?.icon]) expect(existsSync(join(root, String(icon))), icon).toBe(true);
    expect(existsSync(join(root, 'assets/icons/512x512.png'))).toBe(true);
  });
});

describe('the files electron-builder packages (offline, stub Electron)', () => {
  let tmp: string;
  let resources: string;
  let entries: string[];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'tingxie-'));
    ({ resources } = await packageLinuxDir(tmp));
    entries = listPackage(join(resources, 'app.asar'), { isPack: false }).map((e) => e.replace(/\\/g, '/'));
  }, 180_000);

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
    for (const dep of ['zod', 'better-sqlite3', 'jsonc-parser', 'openai']) expect(entries).toContain(`/node_modules/${dep}/package.json`);
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

  it.skipIf(!existsSync(join(root, 'node_modules/smart-whisper/build/Release/smart-whisper.node')))('unpacks the whisper binding built at install (skipped where it was not built)', () => {
    expect(existsSync(join(resources, 'app.asar.unpacked', 'node_modules', 'smart-whisper', 'build', 'Release', 'smart-whisper.node'))).toBe(true);
  });
});
