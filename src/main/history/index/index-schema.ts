import fs from 'node:fs';
import type { StoredRecord } from '../../../shared/history/record.ts';
import { recordKey } from '../../../shared/history/record.ts';

/**
 * Schema of the derived history index (index.db) and the pure helpers around it: rowid allocation,
 * search bodies, header sanity checks. The index is never the only copy of anything, so a schema
 * change simply drops everything and asks for a rebuild.
 */

/** Bump whenever a table, index or the search-body format changes. */
export const INDEX_SCHEMA_VERSION = 5;

/** Thrown when index.db cannot be used (corrupt, truncated, not a database): the caller rebuilds it. */
export class IndexUnusableError extends Error {
  override readonly name = 'IndexUnusableError';
  readonly dbPath: string;
  constructor(message: string, dbPath: string, options?: { cause?: unknown }) {
    super(`${message} (${dbPath})`, options);
    this.dbPath = dbPath;
  }
}

/** A record as the index receives it: its key, the record, and the JSONL file it lives in. */
export interface IndexedRecord {
  readonly key: string;
  readonly record: StoredRecord;
  /** 'active' | 'YYYY-MM' | 'unknown' */
  readonly file: string;
}

/** What the start-up check remembers about one JSONL file. */
export interface FileState {
  readonly size: number;
  readonly mtimeMs: number;
  /** Records the index holds from that file when the state was written. */
  readonly count: number;
  /** Fingerprint of the file's last bytes up to `size` (index-follow.ts): tells an append from a rewrite. */
  readonly tail?: string;
}

/** SQL functions registered on every connection (HistoryIndex.open): a row's search body and its n-grams. */
export const BODY_SQL_FUNCTION = 'tingxie_body';
/** See BODY_SQL_FUNCTION. */
export const GRAMS_SQL_FUNCTION = 'tingxie_grams';

const INV = '4503599627370496'; // INV_BASE (below), spelled out for SQL
const textsOf = (t: 'new' | 'old' | 'records'): string => (t === 'records' ? 'asr_text, enhanced_text, final_text' : `${t}.asr_text, ${t}.enhanced_text, ${t}.final_text`);
const ftsInsert = (t: 'new'): string => `
  INSERT INTO search_fts(rowid, body) VALUES (${INV} - ${t}.rid, ${BODY_SQL_FUNCTION}(${textsOf(t)}));
  INSERT INTO gram_fts(rowid, g) VALUES (${INV} - ${t}.rid, ${GRAMS_SQL_FUNCTION}(${textsOf(t)}));`;
const ftsDelete = (t: 'old'): string => `
  INSERT INTO search_fts(search_fts, rowid, body) VALUES ('delete', ${INV} - ${t}.rid, ${BODY_SQL_FUNCTION}(${textsOf(t)}));
  INSERT INTO gram_fts(gram_fts, rowid, g) VALUES ('delete', ${INV} - ${t}.rid, ${GRAMS_SQL_FUNCTION}(${textsOf(t)}));`;

/**
 * Triggers keeping both contentless FTS tables in step with `records`. The indexed text is computed
 * by JS functions from the record's three texts, deterministically, so a 'delete' hands FTS5 exactly
 * the tokens it indexed. The bulk loader drops these triggers while it fills `records`, then builds
 * both FTS tables in one pass each (FILL_FTS_SQL) and recreates them.
 */
export const FTS_TRIGGERS_SQL = `
CREATE TRIGGER IF NOT EXISTS records_ai AFTER INSERT ON records BEGIN${ftsInsert('new')}
END;
CREATE TRIGGER IF NOT EXISTS records_ad AFTER DELETE ON records BEGIN${ftsDelete('old')}
END;
CREATE TRIGGER IF NOT EXISTS records_au AFTER UPDATE OF asr_text, enhanced_text, final_text ON records
WHEN old.asr_text IS NOT new.asr_text OR old.enhanced_text IS NOT new.enhanced_text OR old.final_text IS NOT new.final_text
BEGIN${ftsDelete('old')}${ftsInsert('new')}
END;
`;

/** Drops the FTS-maintaining triggers (bulk load). */
export const DROP_FTS_TRIGGERS_SQL = `DROP TRIGGER IF EXISTS records_ai; DROP TRIGGER IF EXISTS records_ad; DROP TRIGGER IF EXISTS records_au;`;

/**
 * Fills both (empty) FTS tables from `records` in one pass each, after a bulk load with the triggers
 * dropped. Newest record first = ascending FTS rowid: FTS5 appends to its in-memory doclists only while
 * rowids ascend and flushes a segment whenever one goes down (measured: 4× slower build, slower queries).
 */
export const FILL_FTS_SQL = `
INSERT INTO search_fts(rowid, body) SELECT ${INV} - rid, ${BODY_SQL_FUNCTION}(${textsOf('records')}) FROM records ORDER BY rid DESC;
INSERT INTO gram_fts(rowid, g) SELECT ${INV} - rid, ${GRAMS_SQL_FUNCTION}(${textsOf('records')}) FROM records ORDER BY rid DESC;
`;

/**
 * `rid` is the INTEGER PRIMARY KEY (the rowid): timestamp in ms × 1024 + a tie-break, so rowid order
 * is time order even when old records arrive late (imports, archives) and date windows are rowid ranges.
 * Both FTS tables are contentless — the texts live once, in `records`: `search_fts` holds the trigrams
 * of the case-folded search body (searchBodyOf), `gram_fts` its unigrams and bigrams for 1–2-character
 * queries (index-ngram.ts). Their rowid is INV_BASE − rid (see below).
 */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS file_state (
  file TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, count INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS file_tail (file TEXT PRIMARY KEY, tail TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
  rid INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  id TEXT,
  file TEXT NOT NULL,
  ts TEXT NOT NULL,
  asr_text TEXT NOT NULL,
  enhanced_text TEXT,
  final_text TEXT NOT NULL,
  mode TEXT NOT NULL,
  stt_model TEXT NOT NULL,
  llm_model TEXT NOT NULL,
  corrected INTEGER NOT NULL,
  preview INTEGER NOT NULL,
  outcome TEXT,
  audio_duration REAL NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  cached_tokens INTEGER NOT NULL,
  edited_at TEXT,
  app TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_file ON records(file);
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(body, content='', columnsize=0, tokenize='trigram');
CREATE VIRTUAL TABLE IF NOT EXISTS gram_fts USING fts5(g, content='', detail='none', columnsize=0, tokenize='ascii');
${FTS_TRIGGERS_SQL}
`;

/** Tables dropped when the schema version does not match (derived data only; v2/v3 names included). */
export const DROP_SQL = `
DROP TRIGGER IF EXISTS records_ai; DROP TRIGGER IF EXISTS records_ad; DROP TRIGGER IF EXISTS records_au;
DROP TRIGGER IF EXISTS search_ai; DROP TRIGGER IF EXISTS search_ad; DROP TRIGGER IF EXISTS search_au;
DROP TABLE IF EXISTS gram_fts; DROP TABLE IF EXISTS search_fts; DROP TABLE IF EXISTS search;
DROP TABLE IF EXISTS records; DROP TABLE IF EXISTS file_state; DROP TABLE IF EXISTS file_tail; DROP TABLE IF EXISTS meta;
`;

/**
 * The `search` / FTS rowid is INV_BASE − rid: newest first becomes *ascending* FTS rowid order, the
 * direction in which FTS5 seeks a `rowid > cursor` bound through its doclist index. Descending iteration
 * with an upper bound walks back from the end of the doclist, so deep pages would cost O(depth).
 */
export const INV_BASE = 2 ** 52;

/** FTS/search rowid of a records rowid (an involution: also maps back). */
export function searchRid(rid: number): number {
  return INV_BASE - rid;
}

/** Tie-break slots per millisecond. 2^42 ms (year 2109) × 1024 stays below 2^53. */
export const RID_SLOTS = 1024;
const MAX_MS = 2 ** 42 - 1;

/** Milliseconds of a record timestamp for ordering; unparseable or pre-1970 timestamps sort first (0). */
export function timestampMs(timestamp: string): number {
  const ms = Date.parse(timestamp);
  if (!Number.isFinite(ms) || ms < 0) return 0;
  return Math.min(Math.floor(ms), MAX_MS);
}

/** First rowid of a millisecond. */
export function ridBase(ms: number): number {
  return ms * RID_SLOTS;
}

/** Millisecond a rowid belongs to. */
export function ridMs(rid: number): number {
  return Math.floor(rid / RID_SLOTS);
}

/** Separator between the texts of a search body: never typed, so no match spans two texts. */
const SEP = '\u0001';

/** Lower-cases the way search does on both sides (body and query), so the indexes and the query agree. */
export function foldCase(text: string): string {
  return text.toLowerCase();
}

/** The search body: ASR text, then the enhanced and final texts only when they differ; case-folded. */
export function searchBodyOf(asr: string, enhanced: string | null | undefined, final: string): string {
  const parts = [asr];
  if (enhanced != null && enhanced !== asr) parts.push(enhanced);
  if (final !== asr && final !== enhanced) parts.push(final);
  return foldCase(parts.join(SEP));
}

/** The search body of a record (see searchBodyOf). */
export function searchBody(record: StoredRecord): string {
  return searchBodyOf(record.asr_text, record.enhanced_text, record.final_text);
}

/** The app a record was dictated into ('' when its input context is not known). */
export function appOf(ctx: unknown): string {
  if (typeof ctx === 'string') return ctx.trim().slice(0, 200);
  const name = ctx !== null && typeof ctx === 'object' ? (ctx as { readonly app_name?: unknown }).app_name : undefined;
  return typeof name === 'string' ? name.trim().slice(0, 200) : '';
}

/** Column values of one `records` row, in SCHEMA order after `rid`. */
export function recordColumns(row: IndexedRecord): Record<string, string | number | null> {
  const r = row.record;
  return {
    key: row.key,
    id: r.id ?? null,
    file: row.file,
    ts: r.timestamp,
    asr_text: r.asr_text,
    enhanced_text: r.enhanced_text ?? null,
    final_text: r.final_text,
    mode: r.enhance_mode,
    stt_model: r.stt_model,
    llm_model: r.llm_model,
    corrected: r.user_corrected ? 1 : 0,
    preview: r.preview_enabled ? 1 : 0,
    outcome: r.outcome ?? null,
    audio_duration: r.audio_duration,
    prompt_tokens: r.usage?.prompt_tokens ?? 0,
    completion_tokens: r.usage?.completion_tokens ?? 0,
    cached_tokens: r.usage?.cached_tokens ?? 0,
    edited_at: r.edited_at ?? null,
    // The History Browser's app filter: the input context's app name (WenZi's object, or an older plain string).
    app: appOf(r.input_context),
  };
}

/** Builds an IndexedRecord with the standard key. */
export function toIndexed(record: StoredRecord, file: string): IndexedRecord {
  return { key: recordKey(record), record, file };
}

/**
 * Cheap structural check of the database header before SQLite sees the file: magic string, page size,
 * and — when no WAL can hold newer pages — that the file is as long as its header says (truncation).
 * Returns a reason when unusable, null when it looks fine. Costs one 100-byte read.
 */
export function headerProblem(dbPath: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(dbPath, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return null; // SQLite treats an empty file as a new database.
    if (size < 100) return `file is ${size} bytes, shorter than a SQLite header`;
    const header = Buffer.alloc(100);
    fs.readSync(fd, header, 0, 100, 0);
    if (header.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') return 'not a SQLite database (bad magic)';
    const rawPageSize = header.readUInt16BE(16);
    const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return `invalid page size ${rawPageSize}`;
    const pageCount = header.readUInt32BE(28);
    // The in-header size is only authoritative when the change counters agree (SQLite file format §1.3.7).
    const sizeValid = header.readUInt32BE(24) === header.readUInt32BE(92) && pageCount > 0;
    let walBytes = 0;
    try {
      walBytes = fs.statSync(`${dbPath}-wal`).size;
    } catch {
      walBytes = 0;
    }
    if (sizeValid && walBytes === 0 && size < pageCount * pageSize) {
      return `truncated: ${size} bytes but the header declares ${pageCount} pages of ${pageSize}`;
    }
    if (size % pageSize !== 0 && walBytes === 0) return `size ${size} is not a multiple of the page size ${pageSize}`;
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** SQLite error codes that mean the file itself is damaged. */
export function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}
