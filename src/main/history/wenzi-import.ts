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

/**
 * Imports a WenZi data folder (conversation_history.jsonl + conversation_history_archives/*.jsonl) without
 * duplicates. Records keep their timestamps and raw lines; archived ones and ones older than the oldest
 * active record go to their month archive, the rest are merged into the active file (then the seed rotation runs).
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
  const active = await store.readFile('active');
  const oldestActive = active.length ? Math.min(...active.map((r) => Date.parse(r.timestamp)).filter((t) => !Number.isNaN(t))) : Infinity;
  const placements: RecordPlacement[] = [];
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
      const t = Date.parse(l.record.timestamp);
      const toArchive = s.archived || Number.isNaN(t) || t < oldestActive;
      placements.push({ record: l.record, text: l.text, target: toArchive ? { month: archiveMonthOf(l.record.timestamp) } : 'active' });
    }
  }
  await store.addRecords(placements);
  return { imported: placements.length, duplicates, badLines };
}
