import { writeFileAtomic } from '../platform/durable-fs.ts';
import type { HistoryStore } from './history-store.ts';
import type { StoredRecord } from '../../shared/history/record.ts';

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
  const files = await store.listFiles();
  const ordered = [...files.filter((f) => f !== 'active'), 'active'];
  const out: StoredRecord[] = [];
  for (const f of ordered) out.push(...(await store.readFile(f)));
  return out;
}

/** The formats history exports to. */
export type ExportFormat = 'jsonl' | 'csv';

/** The text of an export: one JSON record per line (JSONL), or CSV (optional BOM). Pure. */
export function exportText(records: readonly StoredRecord[], format: ExportFormat, bom = false): string {
  switch (format) {
    case 'jsonl':
      return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
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
  const records = await allRecords(store);
  await writeFileAtomic(filePath, exportText(records, format, opts.bom ?? false));
  return records.length;
}
