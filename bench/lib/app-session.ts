/**
 * The built app measured whole, in the whole-app harness of test/app (B8's key-up → paste hand-off,
 * B9b, B10): `out/main/index.js` unchanged under the electron stand-in on Xvfb, Chromium's fake
 * microphone looping an espeak-ng WAV through the capture window, hold-to-talk with xdotool on the real
 * key hook, whisper.cpp (random-weight model of real "tiny" dimensions, the app's own thread count) in
 * the engine process, the enhancement through the openai SDK, paste into a real X11 text field.
 *
 * One measured run serves all three benchmarks (it is memoised per process):
 * 1. a first start on a fresh data folder (config migrated, history index created): reported, not counted;
 * 2. `starts` counted cold starts of the app on that folder (process spawn → tray up and hotkeys armed),
 *    each ended with Quit from the tray;
 * 3. in the last `pairs` of those launches, the first and second dictation after start (B9b); the last
 *    launch goes on to `dictations` in all after its first (B10's and B8's samples).
 *
 * Every dictation: key-down, 3 s hold, key-up (the clock starts just before `xdotool keyup` is issued),
 * then the text in the target field: the time comes from the field's own `input` event (its page clock,
 * corrected by the measured offset to ours), and a poll of the field's value confirms it. The engine's
 * own time for the very clip of that dictation is measured inside the engine process by a timing probe
 * (bench/lib/app-probe.mjs, preloaded with NODE_OPTIONS; it changes nothing), as is the LLM server's
 * own time (an in-process endpoint answering at once). The probe also timestamps the helper commands
 * the app runs (xclip, xdotool) and the packages it first imports, which is where the stage breakdown
 * comes from. A standalone engine on the same journaled clips, same model and threads, cross-checks
 * the engine figure.
 *
 * Output: preview off (`output.preview: false`, straight to paste, as the user gets it without the
 * panel), AI enhancement on (mode proofread) against the instant endpoint. Sounds are off as in every
 * scenario (the stop sound plays after the capture stopped and is not waited on).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { defaultThreads, LocalWhisperEngine } from '../../src/main/asr/local-engine.ts';
import { decodeWav } from '../../src/main/audio/wav.ts';
import { launchApp, waitUntil, type RunningApp } from '../../test/app/harness/launch-app.ts';
import { SCENARIO_MODEL, startScenario, type Scenario } from '../../test/app/harness/scenario.ts';
import { pct } from './report.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const PROBE = path.join(import.meta.dirname, 'app-probe.mjs');

/** What the random-weight model hears ("hello world") after the instant LLM's proofreading. */
export const DICTATED_TEXT = 'Hello world.';
/** How long the key is held: a 3 s dictation. */
export const HOLD_MS = 3000;

/** Wall clock in ms with sub-ms resolution: the clock the probe and the pages use too. */
export const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Timing of one app start, from the moment the benchmark spawned the process (ms). */
export interface StartTiming {
  /** Spawn → the app's first log line ("starting"): Node, the stand-in, the bundle evaluated. */
  readonly toStartingMs: number;
  /** Spawn → the stand-in's Chromium is up (`app.whenReady()` resolves; Electron's browser process start). */
  readonly toChromiumMs: number;
  /** Spawn → "hotkeys registered" (the key hook running). */
  readonly toHotkeysMs: number;
  /** Spawn → "ready" (windows made, tray up). */
  readonly toReadyMs: number;
  /** Spawn → tray up and hotkeys armed: the later of the two. */
  readonly toArmedMs: number;
  /** Spawn → "microphone ready" (the capture window's warm microphone). */
  readonly toMicMs: number;
  /** Spawn → "speech engine warmed up" (NaN when it was not logged by the time the start was over). */
  readonly toEngineWarmMs: number;
}

/** One dictation, all times in ms from the moment `xdotool keyup` was issued. */
export interface DictationTiming {
  /** Key-up → the text arrived in the target field (its input event). */
  readonly totalMs: number;
  /** Key-up → the benchmark's poll saw the text (an upper bound of totalMs). */
  readonly seenMs: number;
  /** The engine's own time for this clip: request in → result out, inside the engine process. */
  readonly engineMs: number;
  /** whisper.cpp's own call inside that (the host's transcribeMs). */
  readonly whisperMs: number;
  /** The LLM server's own time (request received → response ended). */
  readonly llmServerMs: number;
  /** totalMs − engineMs − llmServerMs: what the app adds. */
  readonly overheadMs: number;
  /** Key-up → the text handed to the paste (its first clipboard call). */
  readonly handoffMs: number;
  /** handoffMs − engineMs − llmServerMs. */
  readonly handoffOverheadMs: number;
  /** Seconds of audio the engine got. */
  readonly clipSeconds: number;
  /** Stage times (ms): see `stagesOf`. */
  readonly stages: Readonly<Record<string, number>>;
  /** Packages the app's main process imported for the first time during this dictation, with ms from key-up. */
  readonly imports: readonly string[];
}

/** The whole measured run. */
export interface AppLatencyRun {
  readonly quick: boolean;
  readonly threads: number;
  readonly buildSeconds: number;
  readonly setupSeconds: number;
  readonly firstEverStart: StartTiming;
  readonly starts: readonly StartTiming[];
  /** The dictations of each launch that dictated, in order: [0] is the first after that start. */
  readonly launches: readonly (readonly DictationTiming[])[];
  /** The last launch's dictations after its first (B10's samples). */
  readonly dictations: readonly DictationTiming[];
  /** A standalone engine (same model, threads, clips from the journal) per call. */
  readonly replayMs: readonly number[];
  /** "capture stop waited the full grace period" lines over the run (0 expected). */
  readonly graceWaits: number;
  readonly loadAverage: number;
}

interface ProbeEvent {
  readonly pid: number;
  readonly k: 'asr-in' | 'asr-out' | 'spawn' | 'stdin' | 'import' | 'chromium-ready';
  readonly t: number;
  readonly end?: number;
  readonly what?: string;
  readonly spec?: string;
  readonly samples?: number;
  readonly transcribeMs?: number;
}

/**
 * The paste keystroke: `xdotool key …` spawned for it, or the `key …` command written to the xdotool
 * helper the app started at key-down (src/main/platform/warm-xdotool.ts).
 */
function isKeystroke(e: ProbeEvent): boolean {
  return (e.k === 'spawn' && e.what?.startsWith('xdotool key ') === true) || (e.k === 'stdin' && e.what?.startsWith('xdotool - key ') === true);
}

/** A chat-completions endpoint answering at once (stream or not), recording its own time per call. */
async function instantLlm(): Promise<{ baseURL: string; calls: { at: number; end: number }[]; close(): Promise<void> }> {
  const calls: { at: number; end: number }[] = [];
  const server = http.createServer((req, res) => {
    const at = now();
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const j = JSON.parse(body || '{}') as { model?: string; stream?: boolean };
      const base = { id: 'chatcmpl-bench', created: Math.floor(Date.now() / 1000), model: j.model ?? 'test-model' };
      const usage = { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 };
      if (j.stream === true) {
        const chunk = (delta: object, finish: string | null, extra: object = {}): string =>
          `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(`${chunk({ role: 'assistant', content: DICTATED_TEXT }, null)}${chunk({}, 'stop')}${chunk({}, null, { choices: [], usage })}data: [DONE]\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: DICTATED_TEXT }, finish_reason: 'stop' }], usage }));
      }
      calls.push({ at, end: now() });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Builds out/ when it is missing or older than a source file (the harness runs the built app), then waits until it is settled; returns seconds spent. */
export function ensureBuilt(): number {
  const entry = path.join(repoRoot, 'out/main/index.js');
  const builtAt = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
  const newer = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).some((d) => {
      const p = path.join(dir, d.name);
      return d.isDirectory() ? newer(p) : fs.statSync(p).mtimeMs > builtAt;
    });
  const t = performance.now();
  if (builtAt === 0 || newer(path.join(repoRoot, 'src'))) {
    console.log('app benchmarks: out/ is missing or older than src/: electron-vite build…');
    const r = spawnSync(path.join(repoRoot, 'node_modules/.bin/electron-vite'), ['build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error('electron-vite build failed: the app benchmarks run the built app');
  }
  // Another build in the same checkout (a test run) may be rewriting out/: wait until it has settled.
  const deadline = Date.now() + 60_000;
  while (!fs.existsSync(entry) || Date.now() - fs.statSync(entry).mtimeMs < 1500) {
    if (Date.now() > deadline) throw new Error(`${entry} did not settle (another build running?)`);
    spawnSync('sleep', ['0.25']);
  }
  return (performance.now() - t) / 1000;
}

/** Lines of a JSONL file (0 when missing). */
function lineCount(file: string): number {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

/** The log lines of this process of the app (the folder's log holds earlier starts too). */
export function ownLines(app: RunningApp): Record<string, unknown>[] {
  const lines = app.log();
  const from = lines.findIndex((l) => l.msg === 'starting' && l.pid === app.process.pid);
  return from < 0 ? [] : lines.slice(from);
}

/** Resolves with this process's first log line with `msg`. */
export function ownLog(app: RunningApp, msg: string, timeoutMs: number): Promise<Record<string, unknown>> {
  return waitUntil(
    () => ownLines(app).find((l) => l.msg === msg),
    timeoutMs,
    `log line "${msg}"; the log so far:\n${ownLines(app).map((l) => JSON.stringify(l).slice(0, 400)).join('\n')}\n${app.output().slice(-2000)}`,
  );
}

/** The harness plus the probe: launches, dictates, reads the probe. */
class AppBench {
  readonly s: Scenario;
  readonly llm: Awaited<ReturnType<typeof instantLlm>>;
  private readonly probeFile: string;
  private field: Page | null = null;
  /** Target page clock − our clock (ms). */
  private skew = 0;

  private constructor(s: Scenario, llm: Awaited<ReturnType<typeof instantLlm>>, probeFile: string) {
    this.s = s;
    this.llm = llm;
    this.probeFile = probeFile;
  }

  static async open(): Promise<AppBench> {
    const s = await startScenario();
    const llm = await instantLlm();
    const probeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-bench-probe-')), 'probe.jsonl');
    return new AppBench(s, llm, probeFile);
  }

  /** A data folder: the scenario's config (local whisper, English, hold Right Alt) with preview off and the instant LLM. */
  dataDir(): string {
    return this.s.dataDir({ output: { preview: false }, ai_enhance: { enabled: true, mode: 'proofread', providers: { test: { base_url: this.llm.baseURL } } } });
  }

  probe(since: number): ProbeEvent[] {
    if (!fs.existsSync(this.probeFile)) return [];
    return fs
      .readFileSync(this.probeFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ProbeEvent)
      .filter((e) => e.t >= since);
  }

  /** Starts the app; resolves once the tray is up, the hotkeys are armed and the microphone is warm. */
  async launch(dataDir: string): Promise<{ app: RunningApp; start: StartTiming }> {
    const spawnAt = now();
    const app = launchApp({
      dataDir,
      env: { ...this.s.x.env, TINGXIE_BENCH_PROBE: this.probeFile, NODE_OPTIONS: [this.s.x.env.NODE_OPTIONS, `--import=${PROBE}`].filter(Boolean).join(' ') },
      fakeAudio: this.s.speech,
    });
    try {
      const at = (l: Record<string, unknown>): number => Date.parse(String(l.time)) - spawnAt;
      const ready = await ownLog(app, 'ready', 60_000);
      const hotkeys = await ownLog(app, 'hotkeys registered', 10_000);
      if (hotkeys.hook !== 'running') throw new Error(`the key hook is not running: ${JSON.stringify(hotkeys)}`);
      const state = await app.state();
      if (state.tray === null) throw new Error('no tray after "ready"');
      if (state.errorBoxes.length > 0) throw new Error(`the app showed an error box: ${JSON.stringify(state.errorBoxes)}`);
      const mic = await ownLog(app, 'microphone ready', 30_000);
      const starting = ownLines(app).find((l) => l.msg === 'starting');
      const warm = ownLines(app).find((l) => l.msg === 'speech engine warmed up');
      const chromium = this.probe(spawnAt).find((e) => e.k === 'chromium-ready' && e.pid === app.process.pid);
      return {
        app,
        start: {
          toStartingMs: starting ? at(starting) : NaN,
          toChromiumMs: chromium ? chromium.t - spawnAt : NaN,
          toHotkeysMs: at(hotkeys),
          toReadyMs: at(ready),
          toArmedMs: Math.max(at(hotkeys), at(ready)),
          toMicMs: at(mic),
          toEngineWarmMs: warm ? at(warm) : NaN,
        },
      };
    } catch (err) {
      await app.kill();
      throw err;
    }
  }

  /** Quit from the tray; the process must exit 0. */
  async quit(app: RunningApp): Promise<void> {
    await app.disconnect();
    await app.clickTray('Quit Tingxie');
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([app.exited(), new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), 20_000)))]);
    clearTimeout(timer);
    if (code !== 0) {
      if (code === 'timeout') await app.kill();
      throw new Error(`the app did not quit cleanly (${String(code)})\n${app.output().slice(-2000)}`);
    }
  }

  /** The target X11 field, with an `input` listener recording when text arrives (page clock). */
  private async target(): Promise<Page> {
    if (this.field !== null) return this.field;
    const field = await this.s.targetField();
    await field.evaluate(() => {
      const w = window as unknown as { __inputs: number[] };
      w.__inputs = [];
      document.querySelector('#t')?.addEventListener('input', () => w.__inputs.push(performance.timeOrigin + performance.now()));
    });
    // Offset of the page's clock to ours: the round trip with the smallest delay bounds it best.
    let best = { rtt: Infinity, skew: 0 };
    for (let i = 0; i < 20; i++) {
      const a = now();
      const p = await field.evaluate(() => performance.timeOrigin + performance.now());
      const b = now();
      if (b - a < best.rtt) best = { rtt: b - a, skew: p - (a + b) / 2 };
    }
    this.skew = best.skew;
    this.field = field;
    return field;
  }

  /** One hold-to-talk dictation into the target field. */
  async dictate(app: RunningApp): Promise<DictationTiming> {
    const field = await this.target();
    await field.evaluate(() => {
      const t = document.querySelector('#t') as HTMLTextAreaElement;
      t.value = '';
      t.focus();
      (window as unknown as { __inputs: number[] }).__inputs = [];
    });
    const history = path.join(app.dataDir, 'conversation_history.jsonl');
    const records = lineCount(history);
    const down = now();
    await this.s.xdotool('keydown', 'Alt_R');
    await sleep(HOLD_MS - (now() - down));
    const keyUp = now();
    await this.s.xdotool('keyup', 'Alt_R');
    const keyUpSent = now();
    // A gentle poll (every 25 ms): a tight one would take CPU from the app on a 2-core machine. The time
    // itself is the field's input event; the poll only confirms the value.
    await waitUntil(async () => (await field.inputValue('#t')) === DICTATED_TEXT, 20_000, `"${DICTATED_TEXT}" in the target field\n${app.output().slice(-1500)}`);
    const seenAt = now();
    const inputs = await field.evaluate(() => (window as unknown as { __inputs: number[] }).__inputs);
    const textAt = inputs[0] !== undefined ? inputs[0] - this.skew : seenAt;
    // The session is over once its record is logged; the probe has the paste keystroke's exit by then.
    await waitUntil(() => lineCount(history) > records, 10_000, 'the history record');
    await waitUntil(() => this.probe(keyUp).some(isKeystroke), 5000, 'the paste keystroke in the probe');
    const value = await field.inputValue('#t');
    if (value !== DICTATED_TEXT) throw new Error(`the field holds ${JSON.stringify(value)}, not ${JSON.stringify(DICTATED_TEXT)}`);
    const events = this.probe(keyUp).filter((e) => e.t <= textAt + 20);
    // Engine calls of this dictation, from key-down: with decode_while_speaking a phrase the speaker
    // paused after is decoded while the key is still held, so a call may start (or end) before key-up.
    const engineEvents = this.probe(down).filter((e) => e.t <= textAt + 20);
    const asrIn = engineEvents.filter((e) => e.k === 'asr-in');
    const asrOut = engineEvents.filter((e) => e.k === 'asr-out');
    const llm = this.llm.calls.filter((c) => c.at >= keyUp && c.at <= textAt);
    if (asrIn.length === 0 || asrIn.length !== asrOut.length) throw new Error(`expected whole engine calls in the dictation, the probe saw ${asrIn.length} in / ${asrOut.length} out`);
    if (llm.length !== 1) throw new Error(`expected one LLM call in the dictation, got ${llm.length}`);
    // The last call is the one key-up waited for (calls run one at a time in the engine process).
    const inE = asrIn.at(-1) as ProbeEvent;
    const outE = asrOut.at(-1) as ProbeEvent;
    // All calls may have ended before key-up (the last phrase closed at a pause while the key was held):
    // then key-up waits for no engine work at all.
    const lastAfterKeyUp = outE.t >= keyUp;
    const call = llm[0] as { at: number; end: number };
    const spawns = events.filter((e) => e.k === 'spawn');
    const firstClip = spawns.find((e) => e.what?.startsWith('xclip'));
    const key = events.find(isKeystroke);
    if (firstClip === undefined || key === undefined) throw new Error(`the paste's helper commands are missing from the probe: ${JSON.stringify(spawns)}`);
    // The session's audio journaled (capture stopped, audio prepared): its WAV's modification time.
    const journal = path.join(app.dataDir, 'journal');
    const wav = fs.existsSync(journal)
      ? fs.readdirSync(journal).filter((f) => f.endsWith('.wav')).map((f) => fs.statSync(path.join(journal, f)).mtimeMs).find((m) => m >= keyUp && m <= textAt)
      : undefined;
    const totalMs = textAt - keyUp;
    // The engine's own time after key-up: what the user waited for it (earlier calls ran while speaking).
    const engineMs = asrIn.reduce((sum, e, i) => sum + Math.max(0, Math.min((asrOut[i] as ProbeEvent).t, textAt) - Math.max(e.t, keyUp)), 0);
    const llmServerMs = call.end - call.at;
    const handoffMs = firstClip.t - keyUp;
    const stages: Record<string, number> = {
      xdotool_keyup_cmd: keyUpSent - keyUp,
      keyup_to_audio_journaled: wav === undefined ? NaN : wav - keyUp,
      audio_journaled_to_engine_request: wav === undefined || inE.t < keyUp ? NaN : inE.t - wav,
      // The last call was requested before key-up when a pause closed the last phrase while the key was held.
      keyup_to_engine_request: inE.t >= keyUp ? inE.t - keyUp : NaN,
      engine_calls: asrIn.length,
      engine_calls_before_keyup: asrIn.filter((e) => e.t < keyUp).length,
      engine: engineMs,
      engine_result_to_llm_request: lastAfterKeyUp ? call.at - outE.t : NaN,
      llm_server: llmServerMs,
      llm_response_to_paste_start: firstClip.t - call.end,
      paste_start_to_keystroke: key.t - firstClip.t,
      // Inside that: from the last helper before the keystroke (the re-focus) to the keystroke: the paste's settle wait.
      refocus_to_keystroke: key.t - Math.max(...spawns.filter((e) => e.t < key.t).map((e) => e.end ?? e.t)),
      keystroke_to_text: textAt - key.t,
    };
    // Helper commands of the paste, by kind (their own run time, spawn to exit).
    for (const e of spawns) {
      const kind = e.what?.startsWith('xclip') ? (e.what.includes(' -o') ? 'xclip_read' : 'xclip_write') : (e.what ?? 'other').split(' ').slice(0, 2).join('_');
      stages[`cmd_${kind}`] = (stages[`cmd_${kind}`] ?? 0) + ((e.end ?? e.t) - e.t);
    }
    const imports = events.filter((e) => e.k === 'import').map((e) => `${e.spec ?? '?'} @${Math.round(e.t - keyUp)} ms`);
    return {
      totalMs,
      seenMs: seenAt - keyUp,
      engineMs,
      whisperMs: outE.transcribeMs ?? NaN,
      llmServerMs,
      overheadMs: totalMs - engineMs - llmServerMs,
      handoffMs,
      handoffOverheadMs: handoffMs - engineMs - llmServerMs,
      clipSeconds: (inE.samples ?? 0) / 16000,
      stages,
      imports,
    };
  }

  async close(): Promise<void> {
    await this.s.close();
    await this.llm.close();
    fs.rmSync(path.dirname(this.probeFile), { recursive: true, force: true });
  }
}

/** Counts of the run. */
function plan(quick: boolean): { starts: number; pairs: number; dictations: number; replay: number } {
  return quick ? { starts: 3, pairs: 1, dictations: 10, replay: 2 } : { starts: 5, pairs: 3, dictations: 24, replay: 5 };
}

async function measure(quick: boolean): Promise<AppLatencyRun> {
  const p = plan(quick);
  const buildSeconds = ensureBuilt();
  const t0 = performance.now();
  const bench = await AppBench.open();
  try {
    const dataDir = bench.dataDir();
    const setupSeconds = (performance.now() - t0) / 1000;
    // The first start ever on this folder: not counted (later starts are what users wait for daily).
    const first = await bench.launch(dataDir);
    try {
      await ownLog(first.app, 'speech engine warmed up', 30_000);
    } catch (err) {
      await first.app.kill();
      throw err;
    }
    await bench.quit(first.app);
    const starts: StartTiming[] = [];
    const launches: DictationTiming[][] = [];
    let graceWaits = 0;
    for (let i = 0; i < p.starts; i++) {
      const { app, start } = await bench.launch(dataDir);
      starts.push(start);
      try {
        if (i >= p.starts - p.pairs) {
          // Right after start, as a user would: the key goes down as soon as the microphone is warm.
          const ds = [await bench.dictate(app), await bench.dictate(app)];
          // The last launch goes on: B10's samples are its dictations after the first.
          while (i === p.starts - 1 && ds.length < p.dictations + 1) ds.push(await bench.dictate(app));
          launches.push(ds);
        }
        graceWaits += ownLines(app).filter((l) => l.msg === 'capture stop waited the full grace period').length;
      } finally {
        await bench.quit(app);
      }
    }
    // Cross-check: a standalone engine on the clips the app journaled, same model and threads.
    const journal = path.join(dataDir, 'journal');
    const clips = fs.readdirSync(journal).filter((f) => f.endsWith('.wav')).sort().slice(-p.replay);
    const engine = new LocalWhisperEngine({ modelPath: path.join(dataDir, 'models', `ggml-${SCENARIO_MODEL}.bin`), threads: 0, idleUnloadMs: 0 });
    const replayMs: number[] = [];
    try {
      await engine.warmUp();
      const pcm0 = decodeWav(fs.readFileSync(path.join(journal, clips[0] ?? ''))).samples;
      await engine.transcribe(pcm0, { language: 'en', temperature: 0 }); // the first call after a load allocates
      for (const c of clips) {
        const pcm = decodeWav(fs.readFileSync(path.join(journal, c))).samples;
        const t = performance.now();
        await engine.transcribe(pcm, { language: 'en', temperature: 0 });
        replayMs.push(performance.now() - t);
      }
    } finally {
      await engine.dispose();
    }
    const dictations = launches.at(-1)?.slice(1) ?? [];
    return { quick, threads: defaultThreads(), buildSeconds, setupSeconds, firstEverStart: first.start, starts, launches, dictations, replayMs, graceWaits, loadAverage: os.loadavg()[0] ?? -1 };
  } finally {
    await bench.close();
  }
}

let memo: { quick: boolean; run: Promise<AppLatencyRun> } | null = null;

/** The measured run (once per process: B8, B9b and B10 read the same one). */
export function measureApp(opts: { quick?: boolean } = {}): Promise<AppLatencyRun> {
  const quick = opts.quick === true;
  if (memo === null || memo.quick !== quick) memo = { quick, run: measure(quick) };
  return memo.run;
}

/** p50/p95 (and max) of a field of the dictations, as figures named `<name>_p50_ms`… */
export function spread(name: string, values: readonly number[]): Record<string, number> {
  return { [`${name}_p50_ms`]: pct(values, 50), [`${name}_p95_ms`]: pct(values, 95), [`${name}_max_ms`]: Math.max(...values) };
}

/** Median of each stage over the dictations. */
export function stageMedians(ds: readonly DictationTiming[]): Record<string, number> {
  const names = [...new Set(ds.flatMap((d) => Object.keys(d.stages)))];
  return Object.fromEntries(names.map((n) => [`stage_${n}_p50_ms`, pct(ds.map((d) => d.stages[n] ?? 0), 50)]));
}
