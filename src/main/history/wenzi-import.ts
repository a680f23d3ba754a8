import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { recordKey, type StoredRecord } from '../../shared/history/record.ts';
import { allRecords } from './export.ts';
import type { HistoryStore, RecordPlacement } from './history-store.ts';
import { readLines } from './jsonl-log.ts';
import { archiveMonthOfFileName, historyPaths } from './paths.ts';
import { archiveMonthOf } from './rotation.ts';

/** Outcome of an import. */
export interface ImportReport {
  readonly imported: number;
  /** Already present (same key, or same timestamp + asr_text + final_text). */
  readonly duplicates: number;
  /** Unreadable lines in the source (left untouched there). */
  readonly badLines: number;
}

const contentKey = (r: StoredRecord): string => `${r.timestamp}\u0000${r.asr_text}\u0000${r.final_text}`;

/** Sort key of a timestamp as `mergeIntoActive` orders lines: unparseable ones first. */
const timeOf = (r: StoredRecord): number => {
  const t = Date.parse(r.timestamp);
  return Number.isNaN(t) ? -Infinity : t;
};

/**
 * Imports a WenZi data folder (conversation_history.jsonl + conversation_history_archives/*.jsonl) without
 * duplicates. Records keep their timestamps and raw lines (unknown fields and shapes, WenZi's
 * object `input_context` included, stay byte for byte). WenZi's archived records go to their month
 * archives; of its active records and the store's own, the newest `maxActiveRecords` by timestamp are
 * what the active file keeps — what WenZi's rotation keeps — and the rest go to their month archives
 * (imported ones directly; the store's own by the rotation `addRecords` runs after merging in time order).
 * Re-running after a crash is safe: what was already imported is skipped as a duplicate.
 */
export async function importWenziFolder(store: HistoryStore, wenziDir: string): Promise<ImportReport> {
  const src = historyPaths(wenziDir);
  const sources: { file: string; archived: boolean }[] = [{ file: src.active, archived: false }];
  try {
    for (const n of (await readdir(src.archivesDir)).sort()) if (archiveMonthOfFileName(n)) sources.push({ file: path.join(src.archivesDir, n), archived: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const existing = await allRecords(store);
  const keys = new Set(existing.map(recordKey));
  const contents = new Set(existing.map(contentKey));
  const archived: RecordPlacement[] = [];
  const activeCandidates: RecordPlacement[] = [];
  let duplicates = 0;
  let badLines = 0;
  for (const s of sources) {
    for (const l of await readLines(s.file)) {
      if (l.kind === 'bad') {
        badLines++;
        continue;
      }
      const k = recordKey(l.record);
      const c = contentKey(l.record);
      if (keys.has(k) || contents.has(c)) {
        duplicates++;
        continue;
      }
      keys.add(k);
      contents.add(c);
      const month = archiveMonthOf(l.record.timestamp);
      if (s.archived) archived.push({ record: l.record, text: l.text, target: { month } });
      else activeCandidates.push({ record: l.record, text: l.text, target: 'active' });
    }
  }
  const placements = [...archived, ...placeActive(await store.readFile('active'), activeCandidates, store.maxActiveRecords)];
  await store.addRecords(placements);
  return { imported: placements.length, duplicates, badLines };
}

/**
 * Which imported active records stay active: the store's active records and the candidates in the
 * order `mergeIntoActive` writes them (stable by time, the store's first), of which the last `max` are
 * kept. Candidates before that point go straight to their month archive. Pure.
 */
export function placeActive(existingActive: readonly StoredRecord[], candidates: readonly RecordPlacement[], max: number): RecordPlacement[] {
  const order = [...existingActive.map((r) => ({ t: timeOf(r), c: null as RecordPlacement | null })), ...candidates.map((c) => ({ t: timeOf(c.record), c }))];
  order.sort((a, b) => a.t - b.t);
  const firstKept = Math.max(0, order.length - max);
  return order.flatMap((o, i) => {
    if (!o.c) return [];
    return [i >= firstKept ? o.c : { ...o.c, target: { month: archiveMonthOf(o.c.record.timestamp) } }];
  });
}
