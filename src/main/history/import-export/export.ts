import { writeFileAtomic } from '../../platform/durable-fs.ts';
import type { HistoryStore } from '../store/history-store.ts';
import { readLines } from '../store/jsonl-log.ts';
import type { StoredRecord } from '../../../shared/history/record.ts';

/** Columns of the CSV export, in order. */
export const CSV_COLUMNS = [
  'id', 'timestamp', 'asr_text', 'enhanced_text', 'final_text', 'enhance_mode', 'preview_enabled',
  'stt_model', 'llm_model', 'user_corrected', 'audio_duration', 'language', 'source', 'outcome', 'edited_at',
] as const;

/** Quotes one CSV field (RFC 4180): wrapped in quotes when it holds a comma, quote, CR or LF; quotes doubled. Pure. */
export function csvField(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text of records (CRLF line ends; optional UTF-8 BOM so Excel reads Chinese correctly). Pure. */
export function toCsv(records: readonly StoredRecord[], bom = false): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const r of records) rows.push(CSV_COLUMNS.map((c) => csvField((r as Record<string, unknown>)[c])).join(','));
  return `${bom ? '\uFEFF' : ''}${rows.join('\r\n')}\r\n`;
}

/** All records, archives first (chronological by file name) then active, as the browser's "include archived". */
export async function allRecords(store: HistoryStore): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for (const f of exportOrder(await store.listFiles())) {
    // One push per record: `push(...records)` passes every record as an argument and overflows the
    // stack on a file of a few hundred thousand records.
    for (const r of await store.readFile(f)) out.push(r);
  }
  return out;
}

/** Archives first (chronological by file name), then active. Pure. */
function exportOrder(files: readonly string[]): string[] {
  return [...files.filter((f) => f !== 'active'), 'active'];
}

/** One record with the line it was read from, so an export can fall back to the line as it is on disk. */
export interface ExportRow {
  readonly record: StoredRecord;
  /** The record's line exactly as in its file (without the newline). */
  readonly text: string;
}

/** All records with their lines, in the order of {@link allRecords}. */
export async function allRows(store: HistoryStore): Promise<ExportRow[]> {
  const out: ExportRow[] = [];
  for (const f of exportOrder(await store.listFiles())) {
    for (const l of await readLines(store.pathOf(f))) if (l.kind === 'record') out.push({ record: l.record, text: l.text });
  }
  return out;
}

/**
 * One record as a JSONL export line: the record as Tingxie reads it, or, when that cannot be
 * serialised (a field nested so deep that JSON.stringify overflows the stack: the reader's JSON.parse
 * does not recurse and accepted it), the line exactly as it is on disk. Pure.
 */
export function jsonlExportLine(record: StoredRecord, text?: string): string {
  try {
    return JSON.stringify(record);
  } catch (err) {
    if (text === undefined || !(err instanceof RangeError)) throw err;
    return text;
  }
}

/** The formats history exports to. */
export type ExportFormat = 'jsonl' | 'csv';

/**
 * The text of an export: one JSON record per line (JSONL), or CSV (optional BOM). `texts[i]`, when
 * given, is record i's line on disk: written instead when the record cannot be serialised. Pure.
 */
export function exportText(records: readonly StoredRecord[], format: ExportFormat, bom = false, texts?: readonly string[]): string {
  switch (format) {
    case 'jsonl':
      return records.map((r, i) => jsonlExportLine(r, texts?.[i])).join('\n') + (records.length ? '\n' : '');
    case 'csv':
      return toCsv(records, bom);
    default: {
      const never: never = format;
      throw new Error(`unknown export format ${String(never)}`);
    }
  }
}

/** Exports all history to `filePath` as JSONL or CSV; returns the record count. */
export async function exportHistory(store: HistoryStore, filePath: string, format: ExportFormat, opts: { bom?: boolean } = {}): Promise<number> {
  const rows = await allRows(store);
  const records = rows.map((r) => r.record);
  await writeFileAtomic(filePath, exportText(records, format, opts.bom ?? false, rows.map((r) => r.text)));
  return records.length;
}
