/**
 * The enhancer's reads of corrected records (the correction table's pass over all corrections, archives
 * included), kept apart from HistoryIndex's write and browse paths. Statements are prepared on first use:
 * only the enhancer reads them.
 */
import type { CorrectedRow } from '../../../shared/history/corrected-row.ts';
import type { SqliteDb, SqliteStatement } from './index-db.ts';

/** The row type, declared in src/shared so the enhancer reads it without importing history (history-index.ts re-exports it). */
export type { CorrectedRow } from '../../../shared/history/corrected-row.ts';

interface CorrectedRowRaw {
  rid: number;
  key: string;
  file: string;
  ts: string;
  asr_text: string;
  final_text: string;
  mode: string;
  preview: number;
  outcome: string | null;
}

const CORRECTED_COLUMNS = 'rid, key, file, ts, asr_text, final_text, mode, preview, outcome';

function correctedRowOf(r: CorrectedRowRaw): CorrectedRow {
  return {
    rid: r.rid, key: r.key, file: r.file, timestamp: r.ts, asr_text: r.asr_text, final_text: r.final_text,
    enhance_mode: r.mode, preview_enabled: r.preview === 1, outcome: r.outcome,
  };
}

/** Reads corrected records from the index database (callers wrap calls in their corruption guard). */
export class CorrectedRowsReader {
  private readonly db: SqliteDb;
  private stmts: { first: SqliteStatement; after: SqliteStatement; byKey: SqliteStatement } | undefined;

  constructor(db: SqliteDb) {
    this.db = db;
  }

  /** One page, newest first, strictly older than `beforeRid` when given, at most `limit` rows. */
  page(q: { readonly beforeRid?: number; readonly limit: number }): CorrectedRow[] {
    const s = this.statements();
    const limit = Math.max(0, Math.floor(q.limit));
    const rows = (q.beforeRid === undefined ? s.first.all(limit) : s.after.all(q.beforeRid, limit)) as CorrectedRowRaw[];
    return rows.map(correctedRowOf);
  }

  /** The corrected records among `keys` (unknown or uncorrected keys are skipped), in the order given. */
  byKeys(keys: readonly string[]): CorrectedRow[] {
    const s = this.statements();
    return keys.flatMap((k) => {
      const r = s.byKey.get(k) as CorrectedRowRaw | undefined;
      return r ? [correctedRowOf(r)] : [];
    });
  }

  private statements(): { first: SqliteStatement; after: SqliteStatement; byKey: SqliteStatement } {
    this.stmts ??= {
      first: this.db.prepare(`SELECT ${CORRECTED_COLUMNS} FROM records WHERE corrected = 1 ORDER BY rid DESC LIMIT ?`),
      after: this.db.prepare(`SELECT ${CORRECTED_COLUMNS} FROM records WHERE corrected = 1 AND rid < ? ORDER BY rid DESC LIMIT ?`),
      byKey: this.db.prepare(`SELECT ${CORRECTED_COLUMNS} FROM records WHERE key = ? AND corrected = 1`),
    };
    return this.stmts;
  }
}
