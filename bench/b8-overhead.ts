/**
 * B8, second half: the app's own overhead in one dictation, key-up → text handed to paste, through the
 * real capture path. The first version fed generated frames to a bare controller, so it never saw the
 * capture window's stop (a 1.5 s grace wait hid there). It now reads the whole-app harness run that B10
 * measures (bench/lib/app-session.ts): the built app, Chromium's fake microphone through the capture
 * window, xdotool on the real key hook, whisper.cpp in the engine process, the enhancement over the
 * openai SDK against an endpoint that answers at once. "Handed to paste" = the paste's first clipboard
 * call (the probe timestamps the helper it runs). Overhead = that − the engine's own time for the same
 * clip (measured inside the engine process) − the LLM server's own time. The paste itself (clipboard,
 * focus, keystroke) is B10's: B10 = B8's part + the paste.
 * Run alone: node bench/b8-overhead.ts [--quick]
 */
import { measureApp, spread } from './lib/app-session.ts';
import { pct, printEntry, type BenchEntry } from './lib/report.ts';

/** Runs B8's key-up → paste hand-off overhead (the shared app run is measured on first use). */
export async function runB8Overhead(opts: { quick?: boolean } = {}): Promise<BenchEntry> {
  const run = await measureApp(opts);
  const ds = run.dictations;
  const overhead = ds.map((d) => d.handoffOverheadMs);
  const p95 = pct(overhead, 95);
  return {
    ratio: p95 / 30,
    target: "key-up → text handed to paste, through the real capture path, overhead p95 <= 30 ms beyond the engine's and the LLM server's own time (ratio = p95 / 30 ms)",
    pass: p95 <= 30,
    figures: {
      dictations: ds.length,
      ...spread('overhead', overhead),
      ...spread('handoff', ds.map((d) => d.handoffMs)),
      engine_p50_ms: pct(ds.map((d) => d.engineMs), 50),
      llm_server_p50_ms: pct(ds.map((d) => d.llmServerMs), 50),
      keyup_to_engine_request_p50_ms: pct(ds.map((d) => d.stages.keyup_to_engine_request ?? NaN), 50),
      engine_result_to_llm_request_p50_ms: pct(ds.map((d) => d.stages.engine_result_to_llm_request ?? NaN), 50),
      llm_response_to_paste_p50_ms: pct(ds.map((d) => d.stages.llm_response_to_paste_start ?? NaN), 50),
    },
  };
}

/** B8 as one entry: prompt building (bench/b8-prompt-build.ts) and key-up → paste overhead, both must pass. */
export function mergeB8(prompt: BenchEntry, overhead: BenchEntry): BenchEntry {
  const figures: Record<string, number | string | boolean> = {};
  for (const [k, v] of Object.entries(prompt.figures)) figures[`prompt_${k}`] = v;
  for (const [k, v] of Object.entries(overhead.figures)) figures[`keyup_${k}`] = v;
  figures.prompt_ratio = prompt.ratio;
  figures.keyup_ratio = overhead.ratio;
  return { ratio: Math.max(prompt.ratio, overhead.ratio), target: `${prompt.target}; ${overhead.target}`, pass: prompt.pass && overhead.pass, figures };
}

if (import.meta.main) {
  printEntry('B8', await runB8Overhead({ quick: process.argv.includes('--quick') }));
}
