/**
 * B10: the built app in the whole-app harness, key-up → text in a real X11 field, over hold-to-talk
 * dictations of a 3 s hold (bench/lib/app-session.ts runs them), beside the engine's own time for the
 * same clip in the same run (measured inside the engine process). Overhead = key-up → text − the
 * engine's time − the LLM server's own time (it answers at once). Preview off, enhancement on.
 * The first dictation after start is B9b's subject: it is reported here, and B10's samples are the
 * dictations after it. Target: overhead p95 ≤ 50 ms. Run alone: node bench/b10-app-latency.ts [--quick]
 */
import { HOLD_MS, measureApp, spread, stageMedians } from './lib/app-session.ts';
import { mergeResults, pct, printEntry, type BenchEntry } from './lib/report.ts';

/** Runs B10 (the shared app run is measured on first use). */
export async function runB10(opts: { quick?: boolean } = {}): Promise<BenchEntry> {
  const run = await measureApp(opts);
  const ds = run.dictations;
  const overhead = ds.map((d) => d.overheadMs);
  const p95 = pct(overhead, 95);
  const first = run.launches.at(-1)?.[0];
  return {
    ratio: p95 / 50,
    target: "key-up → text in the X11 field, overhead p95 <= 50 ms beyond the engine's own time for the same clip (ratio = p95 / 50 ms)",
    pass: p95 <= 50,
    figures: {
      dictations: ds.length,
      hold_ms: HOLD_MS,
      clip_seconds_p50: pct(ds.map((d) => d.clipSeconds), 50),
      threads: run.threads,
      ...spread('overhead', overhead),
      ...spread('total', ds.map((d) => d.totalMs)),
      ...spread('engine', ds.map((d) => d.engineMs)),
      whisper_p50_ms: pct(ds.map((d) => d.whisperMs), 50),
      llm_server_p50_ms: pct(ds.map((d) => d.llmServerMs), 50),
      engine_standalone_p50_ms: pct(run.replayMs, 50),
      poll_seen_minus_event_p50_ms: pct(ds.map((d) => d.seenMs - d.totalMs), 50),
      first_dictation_total_ms: first?.totalMs ?? NaN,
      first_dictation_overhead_ms: first?.overheadMs ?? NaN,
      ...stageMedians(ds),
      capture_grace_waits: run.graceWaits,
      app_build_s: run.buildSeconds,
      load_average_1m: run.loadAverage,
    },
  };
}

if (import.meta.main) {
  const e = await runB10({ quick: process.argv.includes('--quick') });
  printEntry('B10', e);
  mergeResults({ B10: e });
}
