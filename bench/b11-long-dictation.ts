/**
 * B11: key-up → final text for a 30 s dictation vs a 3 s one, local engine, same run (target ≤ 1.5×).
 * Before transcribe-while-speaking the whole recording was decoded after key-up, so the wait grew with
 * what was said; now each stretch of speech is decoded as the speaker pauses and key-up waits for the
 * last one.
 *
 * What runs: the dictation controller with the app's real services (openServiceGraph: the audio journal
 * fsynced at key-up, whisper.cpp in the isolated engine host on a random-weight model of whisper
 * **base**'s real dimensions, the real Silero VAD in main), fed as the capture window feeds it: 100 ms
 * batches **in real time** (a 30 s dictation takes 30 s to speak, and the engine decodes while it
 * does). Both dictations end with the same 3 s phrase, the one key-up has to wait for; the 30 s one
 * has 27 s of other sentences before it. Stand-ins, named: the capture window (frames come from
 * espeak-ng sentences with 0.7 s pauses)
 * and the output (a sink that stamps the moment the text is handed to paste). Enhancement is off: B8
 * and B10 measure that part. The same run measures decode_while_speaking off (the old one-pass path) as
 * the baseline the ratio is compared against.
 * Run alone: node bench/b11-long-dictation.ts [--quick]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DictationController } from '../src/main/dictation/controller.ts';
import { openServiceGraph } from '../src/main/dictation/service-graph.ts';
import type { DeliveryOutcome, OutputPort } from '../src/main/ports/output-port.ts';
import { configSchema, type Config } from '../src/shared/config/config-schema.ts';
import { isEngineBuilt, ENGINE_NOT_BUILT_MESSAGE } from '../src/main/asr/whisper-addon.ts';
import { clipEndingWith, dictationClip } from '../test/helpers/dictation-clip.ts';
import { ensureRandomWhisperModel } from '../test/helpers/whisper-model.ts';
import { pct, printEntry, type BenchEntry } from './lib/report.ts';

/** whisper base: d_model 512, 8 heads, 6 layers (74M parameters), the app's default model size. */
const BASE_SHAPE = { state: 512, heads: 8, layers: 6 } as const;
const RATE = 16000;
/** The phrase both dictations end with (about 3 s in espeak-ng's voice). */
const LAST_PHRASE = 'we shipped the fix for the login bug this morning';
const BATCH = RATE / 10;

class StampingSink implements OutputPort {
  deliveredAt = 0;
  text = '';
  async deliver(text: string): Promise<DeliveryOutcome> {
    this.deliveredAt = performance.now();
    this.text = text;
    return { ok: true };
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** One dictation spoken in real time; returns key-up → text handed to paste (ms) and the phrases decoded before key-up. */
async function dictate(c: DictationController, sink: StampingSink, clip: Float32Array, live: { count: number }): Promise<{ ms: number; text: string; liveTexts: number }> {
  sink.deliveredAt = 0;
  const before = live.count;
  c.press('hold');
  const id = c.snapshot().sessionId ?? '';
  const t0 = performance.now();
  for (let at = 0, seq = 0; at < clip.length; at += BATCH, seq++) {
    // The capture window sends a batch every 100 ms; keep the schedule against drift.
    await sleep(t0 + (seq + 1) * 100 - performance.now());
    c.frames(id, seq, RATE, clip.subarray(at, Math.min(clip.length, at + BATCH)));
  }
  const keyUp = performance.now();
  const beforeKeyUp = live.count - before;
  c.release();
  while (sink.deliveredAt === 0) {
    if (performance.now() - keyUp > 120_000) throw new Error(`no text 120 s after key-up (state ${c.state.state})`);
    await sleep(1);
  }
  const ms = sink.deliveredAt - keyUp;
  while (c.state.state !== 'idle') await sleep(5);
  await c.settled();
  return { ms, text: sink.text, liveTexts: beforeKeyUp };
}

/** Runs B11. */
export async function runB11(opts: { quick?: boolean } = {}): Promise<BenchEntry> {
  if (!isEngineBuilt()) throw new Error(ENGINE_NOT_BUILT_MESSAGE);
  const runs = opts.quick ? 2 : 5;
  // One pass over 30 s is slow (that is the point): one baseline dictation of each length is enough,
  // and the quick run skips it.
  const baselineRuns = opts.quick ? 0 : 1;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-b11-'));
  fs.mkdirSync(path.join(dataDir, 'models'), { recursive: true });
  fs.copyFileSync(ensureRandomWhisperModel(BASE_SHAPE), path.join(dataDir, 'models', 'ggml-random-base.bin'));
  const configFor = (decodeWhileSpeaking: boolean): Config =>
    configSchema.parse({
      asr: { engine: 'local', language: 'en', local: { model: 'random-base', decode_while_speaking: decodeWhileSpeaking } },
      ai_enhance: { enabled: false },
      output: { preview: false },
      history: { enabled: true },
      feedback: { sound_enabled: false },
    });
  let config = configFor(true);
  const graph = await openServiceGraph({ dataDir, config: () => config, secrets: null, lang: () => 'en', warn: () => {} });
  const sink = new StampingSink();
  const live = { count: 0 };
  const pendingAtKeyUp: number[] = [];
  const chunksPerDictation: number[] = [];
  const c = new DictationController({
    dataDir,
    config: () => config,
    // The capture window stand-in: frames come from dictate(); its stop has nothing left to flush.
    capture: { start: () => undefined, stop: async () => undefined },
    ...graph.ports,
    output: sink,
    ui: { emit: (e) => (e.kind === 'partial' ? live.count++ : undefined), panel: () => undefined, sound: () => undefined },
    log: (_level, message, fields) => {
      if (message === 'decoded while speaking' && typeof fields?.pendingAtKeyUp === 'number' && typeof fields.chunks === 'number') {
        pendingAtKeyUp.push(fields.pendingAtKeyUp);
        chunksPerDictation.push(fields.chunks);
      }
    },
  });
  // Both end with the same phrase: key-up always waits for the last phrase, so the comparison isolates
  // what the 27 s before it cost (a backlog of undecoded phrases, journaling a longer clip).
  const short = dictationClip([LAST_PHRASE]);
  const long = clipEndingWith(LAST_PHRASE, 30);
  try {
    await graph.asr.warmUp(config);
    await dictate(c, sink, short, live); // not measured: first dictation after load
    const on = { short: [] as number[], long: [] as number[], liveChunks: [] as number[] };
    const pendingLong: number[] = [];
    const phrasesLong: number[] = [];
    for (let i = 0; i < runs; i++) {
      on.short.push((await dictate(c, sink, short, live)).ms);
      const r = await dictate(c, sink, long, live);
      on.long.push(r.ms);
      on.liveChunks.push(r.liveTexts);
      pendingLong.push(pendingAtKeyUp.at(-1) ?? NaN);
      phrasesLong.push(chunksPerDictation.at(-1) ?? NaN);
    }
    config = configFor(false);
    const off = { short: [] as number[], long: [] as number[] };
    for (let i = 0; i < baselineRuns; i++) {
      off.short.push((await dictate(c, sink, short, live)).ms);
      off.long.push((await dictate(c, sink, long, live)).ms);
    }
    const ratio = pct(on.long, 50) / pct(on.short, 50);
    const baselineRatio = baselineRuns > 0 ? pct(off.long, 50) / pct(off.short, 50) : 'not measured (quick)';
    return {
      ratio: ratio / 1.5,
      target: 'key-up → final text, 30 s dictation vs 3 s, local whisper (base dimensions), decode while speaking: ≤ 1.5× (ratio = that / 1.5)',
      pass: ratio <= 1.5,
      figures: {
        short_seconds: +(short.length / RATE).toFixed(1),
        long_seconds: +(long.length / RATE).toFixed(1),
        runs,
        short_p50_ms: pct(on.short, 50),
        short_max_ms: Math.max(...on.short),
        long_p50_ms: pct(on.long, 50),
        long_max_ms: Math.max(...on.long),
        long_vs_short: ratio,
        long_phrases_p50: pct(phrasesLong, 50),
        long_phrases_decoded_before_keyup_p50: pct(on.liveChunks, 50),
        long_chunks_left_at_keyup_max: Math.max(...pendingLong),
        ...(baselineRuns > 0
          ? { baseline_one_pass_short_p50_ms: pct(off.short, 50), baseline_one_pass_long_p50_ms: pct(off.long, 50), long_speedup_vs_one_pass: pct(off.long, 50) / pct(on.long, 50) }
          : {}),
        baseline_long_vs_short: baselineRatio,
        cpus: os.cpus().length,
      },
    };
  } finally {
    await c.settled();
    await graph.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  printEntry('B11', await runB11({ quick: process.argv.includes('--quick') }));
}
