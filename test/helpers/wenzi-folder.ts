import fs from 'node:fs';
import path from 'node:path';

/**
 * A WenZi data folder as WenZi writes it: lines in Python's `json.dumps(…,
 * ensure_ascii=False)` layout (`", "` and `": "` separators), `input_context` as an object (WenZi's
 * default since March 2026) or a string on older lines, and fields Tingxie does not know, with number
 * and escape spellings (`1.50`, `\u4f60`) a re-serialisation would change, so a byte comparison proves
 * the line was copied, not rewritten.
 */

/** Python `json.dumps` layout of a flat object whose values are already-encoded JSON text. */
function pyLine(fields: readonly (readonly [string, string])[]): string {
  return `{${fields.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')}}`;
}

const s = (v: string): string => JSON.stringify(v);

export interface WenziFolderSpec {
  /** Records in the active file (file order is shuffled a little: WenZi appends in session order). */
  readonly active: number;
  /** Older records in the month archives. */
  readonly archived: number;
  /** First timestamp (ms); records are one minute apart. */
  readonly startMs?: number;
}

export interface WenziFolder {
  /** Every line written, by timestamp ascending, with the file it is in. */
  readonly lines: readonly { readonly ts: string; readonly text: string; readonly archived: boolean }[];
}

/** Mode of the i-th record: mostly proofread, a third translate_en. */
export const wenziModeOf = (i: number): string => (i % 3 === 2 ? 'translate_en' : 'proofread');
/** Whether the i-th record was confirmed in the preview (every fifth was a direct-mode session). */
export const wenziConfirmed = (i: number): boolean => i % 5 !== 4;

/** One WenZi line for record number `i`. */
export function wenziRecordLine(i: number, ts: string): string {
  const text = `第${i}条记录，今天和萍萍讨论了项目`;
  const ctx = i % 2 === 0 ? `{"app_name": "Slack", "bundle_id": "com.tinyspeck.slackmacgap", "window_title": ${s(`频道 ${i}`)}}` : i % 7 === 0 ? 'null' : s('Terminal');
  return pyLine([
    ['timestamp', s(ts)],
    ['asr_text', s(text.replace('萍萍', '平平'))],
    ['enhanced_text', s(text)],
    ['final_text', s(text)],
    ['enhance_mode', s(wenziModeOf(i))],
    ['preview_enabled', wenziConfirmed(i) ? 'true' : 'false'],
    ['stt_model', s('funasr-paraformer')],
    ['llm_model', s('qwen2.5:7b')],
    ['user_corrected', 'false'],
    ['audio_duration', '3.0'],
    ['input_context', ctx],
    ['wenzi_future', `{"score": 1.50, "tags": ["\\u4f60", "b"], "n": null}`],
  ]);
}

/** Writes the folder; records are numbered by time, the oldest `archived` ones go to their month files. */
export function writeWenziFolder(dir: string, spec: WenziFolderSpec): WenziFolder {
  const start = spec.startMs ?? Date.UTC(2025, 6, 1);
  const total = spec.active + spec.archived;
  // WenZi writes local time with an offset and microseconds; Date.parse reads it.
  const stamp = (i: number): string => `${new Date(start + i * 60_000).toISOString().slice(0, 19)}.${String(i % 1_000_000).padStart(6, '0')}+00:00`;
  const lines = Array.from({ length: total }, (_, i) => ({ ts: stamp(i), text: wenziRecordLine(i, stamp(i)), archived: i < spec.archived }));
  const archivesDir = path.join(dir, 'conversation_history_archives');
  fs.mkdirSync(archivesDir, { recursive: true });
  const byMonth = new Map<string, string[]>();
  for (const l of lines.filter((x) => x.archived)) {
    const m = l.ts.slice(0, 7);
    byMonth.set(m, [...(byMonth.get(m) ?? []), l.text]);
  }
  for (const [m, texts] of byMonth) fs.writeFileSync(path.join(archivesDir, `${m}.jsonl`), `${texts.join('\n')}\n`);
  const active = lines.filter((x) => !x.archived).map((l) => l.text);
  // Swap neighbours every 97 lines: file order is not time order (a clock change, a late write).
  for (let i = 0; i + 1 < active.length; i += 97) [active[i], active[i + 1]] = [active[i + 1] ?? '', active[i] ?? ''];
  fs.writeFileSync(path.join(dir, 'conversation_history.jsonl'), `${active.join('\n')}\n`);
  return { lines };
}

/**
 * Writes into `dir` a WenZi folder of `n` records one minute apart from `start`: the last tenth in the
 * active file, the rest in month archives, `lineOf(i, timestamp)` giving each record's line. One pass,
 * one write per file: linear in `n`, for the import-at-scale tests.
 */
export function writeMinuteWenziFolder(dir: string, n: number, lineOf: (i: number, timestamp: string) => string, start = Date.UTC(2024, 0, 1)): string {
  const archives = path.join(dir, 'conversation_history_archives');
  fs.mkdirSync(archives, { recursive: true });
  const firstActive = n - Math.floor(n / 10);
  const files = new Map<string, string[]>();
  for (let i = 0; i < n; i++) {
    const ts = new Date(start + i * 60_000).toISOString();
    const file = i >= firstActive ? path.join(dir, 'conversation_history.jsonl') : path.join(archives, `${ts.slice(0, 7)}.jsonl`);
    const lines = files.get(file);
    if (lines) lines.push(lineOf(i, ts));
    else files.set(file, [lineOf(i, ts)]);
  }
  for (const [file, lines] of files) fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return dir;
}
