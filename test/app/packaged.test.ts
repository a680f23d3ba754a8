/**
 * The packaged app, whole: electron-builder packages this checkout (offline, stub Electron
 * dist), the archive is laid out as Electron sees it at run time (harness/packaged-layout.ts: an
 * `app.asar` folder without the files electron-builder unpacked, next to the real
 * `app.asar.unpacked`), and the app runs from there, packaged, through the same start → hold-to-talk
 * dictation → paste → quit as dictation.test.ts. VAD is on, so the native VAD model is opened by
 * sherpa-onnx from wherever the app points it: a path into the archive fails here as in the real app.
 * The package is made once for the file; each test starts what it needs through the reusable fixtures
 * (scenario-suite.ts): the packaged app started, and that app after one dictation.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil, type RunningApp } from './harness/launch-app.ts';
import { preparePackagedLayout, type PackagedLayout } from './harness/packaged-layout.ts';
import { historyRecords, useScenarioSuite, windowVisible, type AppStart } from './harness/scenario-suite.ts';

const VAD_MODEL = 'node_modules/@ricky0123/vad-web/dist/silero_vad_v5.onnx';
// What sherpa-onnx prints when it cannot open the VAD model (it does not throw: the detector stays null
// and finds no speech, so the dictation ends as "no speech").
const NATIVE_VAD_FAILURE = /Silero vad model file .* does not exist|vad is nullptr/;

const ASAR_SUPPORT = path.resolve(import.meta.dirname, 'stand-in/asar-support.ts');
// Modules main requires through a template (`gpt-tokenizer/encoding/${name}`): what the template can be.
const TEMPLATE_EXPANSIONS: Record<string, readonly string[]> = {
  'gpt-tokenizer/encoding/': ['o200k_base', 'cl100k_base'],
};

/**
 * The packages the built main process (index.js, its chunks, the engine host and workers) loads at run
 * time: bare specifiers of its static and dynamic imports, of every require-like call (nodeRequire,
 * createRequire(...)(…)) and of package.json look-ups. Node built-ins and electron are left out.
 */
function runtimeSpecifiers(mainDir: string): { esm: string[]; cjs: string[]; templates: string[] } {
  const files = fs.readdirSync(mainDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
  const esm = new Set<string>();
  const cjs = new Set<string>();
  const templates = new Set<string>();
  const builtin = (id: string): boolean => id.startsWith('node:') || builtinModules.includes(id) || id === 'electron';
  const bare = (id: string): boolean => !id.startsWith('.') && !id.startsWith('/') && !builtin(id);
  for (const f of files) {
    const code = fs.readFileSync(path.join(mainDir, f), 'utf8');
    for (const m of code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm)) {
      const id = m[1] ?? m[2] ?? m[3] ?? '';
      if (bare(id)) esm.add(id);
    }
    for (const m of code.matchAll(/(?:[rR]equire(?:\$\d+)?|createRequire\([^()]*(?:\([^()]*\))?[^()]*\))\(\s*["']([^"']+)["']\s*\)|\bresolve\(\s*["']([^"']+\/package\.json)["']\s*\)/g)) {
      const id = m[1] ?? m[2] ?? '';
      if (bare(id)) cjs.add(id);
    }
    for (const m of code.matchAll(/[rR]equire(?:\$\d+)?\(\s*`([^`$]+)\$\{/g)) templates.add(m[1] ?? '');
  }
  for (const t of templates) for (const x of TEMPLATE_EXPANSIONS[t] ?? []) cjs.add(`${t}${x}`);
  return { esm: [...esm].sort(), cjs: [...cjs].sort(), templates: [...templates] };
}

/** The app's output without repeats (a broken detector repeats its complaint for every window). */
function distinctOutput(app: RunningApp): string {
  return [...new Set(app.output().split('\n'))].slice(0, 60).join('\n');
}

describe('the packaged app (electron-builder layout, app.asar + app.asar.unpacked): start, dictate with VAD, quit', () => {
  let work: string;
  let packaging: Promise<PackagedLayout>;
  let layout: PackagedLayout;
  // Packaging (electron-builder, ~10 s) runs while the suite starts the scenario: started here, awaited below.
  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-packaged-'));
    packaging = preparePackagedLayout(work);
    packaging.catch(() => undefined); // reported by the await below
  });
  const suite = useScenarioSuite();
  beforeAll(async () => {
    layout = await packaging;
    console.log(`packaged in ${Math.round(layout.packagingMs)} ms (electron-builder), laid out in ${Math.round(layout.extractMs)} ms`);
  }, 240_000);
  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** The packaged app with VAD on, ready to dictate. */
  const packagedStart = (): AppStart => ({ appDir: layout.appDir, packaged: true, config: { audio: { vad_enabled: true } }, readyMs: 60_000 });

  /** The packaged app started and ready to dictate (the start test looks at it; the dictation below takes it). */
  const started = suite.reusable(async (start) => ({ app: await start(packagedStart()) }));

  /** A packaged app that took one dictation (hold Right Alt ~3 s, panel, Enter), and the text it pasted. */
  const dictated = suite.reusable(async (): Promise<{ app: RunningApp; pasted: string }> => {
    const s = suite.scenario();
    const { app } = await started();
    const field = await s.targetField();
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => windowVisible(app, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 3000));
    await s.xdotool('keyup', 'Alt_R');
    const panel = await app.page('panel');
    await waitUntil(() => windowVisible(app, 'panel'), 10_000, `the panel\n${distinctOutput(app)}`);
    await waitUntil(async () => (await panel.locator('textarea').first().inputValue()) === 'Hello world.', 20_000, 'the text in the panel');
    await panel.keyboard.press('Enter');
    return { app, pasted: await waitUntil(async () => (await field.inputValue('#t')) || null, 10_000, 'the pasted text') };
  });

  it('lays the archive out as native code sees it: unpacked files only beside it, the rest inside', () => {
    expect(path.basename(layout.appDir)).toBe('app.asar');
    expect(layout.unpackedFiles).toContain(VAD_MODEL);
    expect(fs.existsSync(path.join(layout.unpackedDir, VAD_MODEL))).toBe(true);
    expect(fs.existsSync(path.join(layout.appDir, VAD_MODEL))).toBe(false);
    expect(layout.unpackedFiles.some((f) => f.startsWith('node_modules/better-sqlite3/') && f.endsWith('.node'))).toBe(true);
    expect(fs.existsSync(path.join(layout.appDir, 'out/main/index.js'))).toBe(true);
    expect(fs.existsSync(path.join(layout.appDir, 'node_modules/zod/package.json'))).toBe(true);
  });

  it('every package the built main process loads at run time loads from the packaged layout (nothing it needs was left out)', async () => {
    const mainDir = path.join(layout.appDir, 'out/main');
    const { esm, cjs, templates } = runtimeSpecifiers(mainDir);
    // A template require the list above does not know would go unchecked: name its expansions there.
    expect(templates.filter((t) => TEMPLATE_EXPANSIONS[t] === undefined)).toEqual([]);
    // The scan finds the known ones (if it found nothing, it would prove nothing).
    expect(esm).toEqual(expect.arrayContaining(['better-sqlite3', 'openai', 'zod']));
    expect(cjs).toEqual(expect.arrayContaining(['koffi', 'sherpa-onnx-node', 'uiohook-napi', 'smart-whisper/package.json', 'gpt-tokenizer/encoding/o200k_base']));
    // Loaded next to index.js, with Electron's asar view (unpacked files read from app.asar.unpacked) as the app has it.
    const probe = path.join(mainDir, 'tingxie-runtime-probe.mjs');
    fs.writeFileSync(
      probe,
      `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { esm, cjs } = JSON.parse(process.env.TINGXIE_PROBE);
const failures = [];
const first = (e) => String(e && e.message).split('\\n')[0];
for (const id of esm) { try { await import(id); } catch (e) { failures.push('import ' + id + ': ' + first(e)); } }
for (const id of cjs) { try { require(id); } catch (e) { failures.push('require ' + id + ': ' + first(e)); } }
// The native halves too: better-sqlite3 loads its addon on first use, koffi and sherpa-onnx on require.
try { const Database = require('better-sqlite3'); new Database(':memory:').prepare('select 1').get(); } catch (e) { failures.push('better-sqlite3 addon: ' + first(e)); }
console.log(JSON.stringify(failures));
`,
    );
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [`--import=${pathToFileURL(ASAR_SUPPORT).href}`, probe], {
        cwd: path.dirname(path.dirname(layout.appDir)),
        env: { ...suite.scenario().x.env, TINGXIE_PROBE: JSON.stringify({ esm, cjs }) },
      });
      expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]')).toEqual([]);
    } finally {
      fs.rmSync(probe);
    }
  }, 60_000);

  it('starts packaged: tray ready, hotkeys armed, microphone warm, no error box', async () => {
    const { app } = await started();
    const state = await app.state();
    expect(state.tray?.tooltip).toMatch(/Tingxie/);
    expect(state.errorBoxes).toEqual([]);
    // Packaged: pages come from app.asar through app://tingxie/, and no window can open DevTools.
    for (const w of state.windows) {
      expect(w.url).toMatch(/^app:\/\/tingxie\/[a-z]+\/index\.html$/);
      expect(w.options.webPreferences).toMatchObject({ devTools: false });
    }
  }, 90_000);

  it('hold Right Alt, speak, release (VAD on): the panel shows the text; Enter pastes it into the focused field', async () => {
    const { app, pasted } = await dictated();
    expect(pasted).toBe('Hello world.');
    // The detector really ran on the model: sherpa-onnx opened it from app.asar.unpacked.
    expect(app.output()).not.toMatch(NATIVE_VAD_FAILURE);
    // And it cut the recording while it was spoken: decoding while speaking works packaged too.
    expect(app.log().filter((l) => /not decoding while speaking|decoding while speaking stopped/.test(String(l.msg)))).toEqual([]);
    await app.waitForLog('decoded while speaking');
  }, 120_000);

  it('one JSONL record, transcribed by the unpacked whisper binding', async () => {
    const { app } = await dictated();
    const records = await historyRecords(app.dataDir, 1, 10_000);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ final_text: 'Hello world.', source: 'voice', outcome: 'confirmed' });
    expect(records[0]?.stt_model).toContain('tiny');
  }, 120_000);

  it('Quit from the tray after a dictation: exit 0, no child process left', async () => {
    const { app } = await dictated();
    const children = (await app.state()).children;
    await app.disconnect();
    await app.clickTray('Quit Tingxie');
    expect(await app.exited()).toBe(0);
    for (const c of children) if (c.pid !== undefined) expect(() => process.kill(c.pid!, 0)).toThrow();
  }, 120_000);
});
