import type { SqliteDb } from './index-db.ts';
import {
  historyQuerySchema,
  TRIGRAM_MIN_CHARS,
  type FacetCounts,
  type HistoryPage,
  type HistoryQuery,
  type HistoryRow,
  type ResolvedHistoryQuery,
} from '../../shared/history/query.ts';
import { foldCase, INV_BASE, ridBase, searchRid, timestampMs } from './index-schema.ts';

/**
 * History Browser queries over the index, following the rules measured in perf-reliability A5:
 * the FTS step runs first (ordered by rowid, with the date window as a rowid range), other filters
 * apply after it; pages are keyset (rowid cursor), never OFFSET; counts are cached per query.
 */

/** Thrown for a query that fails validation or carries a cursor from another query. */
export class InvalidHistoryQueryError extends Error {
  override readonly name = 'InvalidHistoryQueryError';
}

type Direction = 'older' | 'newer';
interface Cursor {
  readonly dir: Direction;
  readonly rid: number;
  readonly page: number;
  readonly fingerprint: string;
}

/** FNV-1a over a string, base 36: ties a cursor to the query that produced it. */
function fingerprintOf(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/** Canonical form of everything that defines the result set (not the position in it). */
function queryIdentity(q: ResolvedHistoryQuery): string {
  return JSON.stringify([
    stripUnsearchable(q.text).trim(),
    q.since ?? null,
    q.until ?? null,
    [...q.modes].sort(),
    [...q.sttModels].sort(),
    [...q.llmModels].sort(),
    q.corrected ?? null,
    q.includeArchived,
    q.pageSize,
  ]);
}

/** NUL cannot appear in an FTS string and U+0001 separates texts in the search body: neither is searchable. */
function stripUnsearchable(text: string): string {
  return text.replaceAll('\u0000', '').replaceAll('\u0001', '');
}

/** Encodes an opaque cursor. */
export function encodeCursor(c: Cursor): string {
  return `${c.dir === 'older' ? 'o' : 'n'}.${c.rid.toString(36)}.${c.page.toString(36)}.${c.fingerprint}`;
}

/** Decodes a cursor; throws InvalidHistoryQueryError for anything malformed. */
export function decodeCursor(s: string): Cursor {
  const m = /^([on])\.([0-9a-z]{1,12})\.([0-9a-z]{1,8})\.([0-9a-z]{1,8})$/.exec(s);
  if (!m) throw new InvalidHistoryQueryError(`Malformed history cursor: ${JSON.stringify(s)}`);
  const rid = parseInt(m[2] ?? '', 36);
  const page = parseInt(m[3] ?? '', 36);
  if (!Number.isSafeInteger(rid) || page < 1) throw new InvalidHistoryQueryError(`Malformed history cursor: ${JSON.stringify(s)}`);
  return { dir: m[1] === 'o' ? 'older' : 'newer', rid, page, fingerprint: m[4] ?? '' };
}

/** Validates a query, turning zod issues into one readable error. */
export function resolveHistoryQuery(q: HistoryQuery): ResolvedHistoryQuery {
  const parsed = historyQuerySchema.safeParse(q);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new InvalidHistoryQueryError(`Invalid history query: ${issues}`);
  }
  return parsed.data;
}

/** Escapes a LIKE pattern fragment (with ESCAPE '\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Quotes user text as one FTS5 string (a phrase): no operator, column filter or prefix can leak through. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Query plan decided once per query: text mode, rowid window, filter SQL. */
interface Plan {
  readonly textMode: HistoryPage['textMode'];
  readonly needle: string;
  readonly lo: number | null; // inclusive
  readonly hi: number | null; // exclusive
  readonly filterSql: string; // conditions on alias r, joined with AND ('' when none)
  readonly filterParams: readonly (string | number)[];
  readonly empty: boolean;
}

const ROW_COLUMNS = `r.rid, r.key, r.id, r.ts, r.asr_text, r.enhanced_text, r.final_text, r.mode, r.stt_model,
  r.llm_model, r.corrected, r.preview, r.outcome, r.audio_duration, r.edited_at, r.file`;

interface RawRow {
  rid: number;
  key: string;
  id: string | null;
  ts: string;
  asr_text: string;
  enhanced_text: string | null;
  final_text: string;
  mode: string;
  stt_model: string;
  llm_model: string;
  corrected: number;
  preview: number;
  outcome: string | null;
  audio_duration: number;
  edited_at: string | null;
  file: string;
}

function toRow(r: RawRow): HistoryRow {
  return {
    key: r.key,
    id: r.id,
    timestamp: r.ts,
    asr_text: r.asr_text,
    enhanced_text: r.enhanced_text,
    final_text: r.final_text,
    enhance_mode: r.mode,
    stt_model: r.stt_model,
    llm_model: r.llm_model,
    user_corrected: r.corrected === 1,
    preview_enabled: r.preview === 1,
    outcome: r.outcome,
    audio_duration: r.audio_duration,
    edited_at: r.edited_at,
    file: r.file,
    archived: r.file !== 'active',
  };
}

function inList(column: string, values: readonly string[], params: (string | number)[]): string {
  params.push(...values);
  return `${column} IN (${values.map(() => '?').join(',')})`;
}

function makePlan(db: SqliteDb, q: ResolvedHistoryQuery): Plan {
  const text = stripUnsearchable(q.text).trim();
  const needle = foldCase(text);
  const chars = [...text].length;
  const textMode: Plan['textMode'] = chars === 0 ? 'none' : chars >= TRIGRAM_MIN_CHARS ? 'fts' : 'like';
  let lo: number | null = q.since !== undefined ? ridBase(timestampMs(q.since)) : null;
  const hi: number | null = q.until !== undefined ? ridBase(timestampMs(q.until) + 1) : null;
  const conds: string[] = [];
  const params: (string | number)[] = [];
  let empty = false;
  if (!q.includeArchived) {
    conds.push(`r.file = 'active'`);
    // The active file holds the newest records, so its oldest rowid bounds every scan (a cheap index probe).
    const min = db.prepare(`SELECT min(rid) AS m FROM records WHERE file = 'active'`).get() as { m: number | null };
    if (min.m === null) empty = true;
    else lo = Math.max(lo ?? min.m, min.m);
  }
  if (q.modes.length > 0) conds.push(inList('r.mode', q.modes, params));
  if (q.sttModels.length > 0) conds.push(inList('r.stt_model', q.sttModels, params));
  if (q.llmModels.length > 0) conds.push(inList('r.llm_model', q.llmModels, params));
  if (q.corrected !== undefined) {
    conds.push('r.corrected = ?');
    params.push(q.corrected ? 1 : 0);
  }
  if (lo !== null && hi !== null && lo >= hi) empty = true;
  return { textMode, needle, lo, hi, filterSql: conds.join(' AND '), filterParams: params, empty };
}

/**
 * The matching record ids as a subquery over alias r (records), with the extra rowid bound for keyset
 * paging. FTS: the MATCH runs alone on the FTS table in a CTE ordered by rowid, then records are
 * joined (CROSS JOIN pins the order) and filtered. Otherwise records are walked by rowid.
 */
function matchSql(
  plan: Plan,
  bound: { op: '<' | '>'; rid: number } | null,
  order: 'DESC' | 'ASC' | null,
): { sql: string; params: (string | number)[] } {
  const range: string[] = [];
  const rangeParams: number[] = [];
  const inverted = plan.textMode !== 'none';
  // On the search/FTS side rowids are INV_BASE − rid, so every comparison flips.
  const col = plan.textMode === 'fts' ? 'rowid' : plan.textMode === 'like' ? 's.rid' : 'r.rid';
  const add = (op: '<' | '>=' | '>', rid: number): void => {
    const flipped = { '<': '>', '>=': '<=', '>': '<' }[op];
    range.push(`${col} ${inverted ? flipped : op} ?`);
    rangeParams.push(inverted ? searchRid(rid) : rid);
  };
  if (plan.lo !== null) add('>=', plan.lo);
  if (plan.hi !== null) add('<', plan.hi);
  if (bound) add(bound.op, bound.rid);
  const sOrder = order === 'DESC' ? 'ASC' : order === 'ASC' ? 'DESC' : null;
  const filters = plan.filterSql ? [plan.filterSql] : [];
  const orderSql = order ? `ORDER BY r.rid ${order}` : '';
  switch (plan.textMode) {
    case 'fts': {
      const where = ['search_fts MATCH ?', ...range].join(' AND ');
      const sql = `WITH m AS (SELECT rowid AS srid FROM search_fts WHERE ${where} ORDER BY rowid ${sOrder ?? 'ASC'})
        SELECT ${ROW_COLUMNS} FROM m CROSS JOIN records r ON r.rid = ${INV_BASE} - m.srid
        ${filters.length ? `WHERE ${filters.join(' AND ')}` : ''} ${sOrder ? `ORDER BY m.srid ${sOrder}` : ''}`;
      return { sql, params: [ftsPhrase(plan.needle), ...rangeParams, ...plan.filterParams] };
    }
    case 'like': {
      // The narrow `search` table is scanned newest first; its body is case-folded like the needle.
      const where = [...range, 'instr(s.body, ?) > 0', ...filters].join(' AND ');
      const sql = `SELECT ${ROW_COLUMNS} FROM search s CROSS JOIN records r ON r.rid = ${INV_BASE} - s.rid
        WHERE ${where} ${sOrder ? `ORDER BY s.rid ${sOrder}` : ''}`;
      return { sql, params: [...rangeParams, plan.needle, ...plan.filterParams] };
    }
    case 'none': {
      const where = [...range, ...filters];
      const sql = `SELECT ${ROW_COLUMNS} FROM records r ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${orderSql}`;
      return { sql, params: [...rangeParams, ...plan.filterParams] };
    }
    default: {
      const never: never = plan.textMode;
      throw new Error(`unknown text mode ${String(never)}`);
    }
  }
}

/** Count (and optionally facets) of the whole match set. */
function countAndFacets(db: SqliteDb, plan: Plan, withFacets: boolean): { total: number; facets: FacetCounts | null } {
  if (plan.empty) return { total: 0, facets: withFacets ? emptyFacets() : null };
  const { sql, params } = matchSql(plan, null, null);
  if (!withFacets) {
    if (plan.textMode === 'fts' && plan.filterSql === '') {
      // Count on the FTS table alone: no join needed when nothing else filters.
      const range: string[] = [];
      const rp: number[] = [];
      if (plan.lo !== null) {
        range.push('rowid <= ?');
        rp.push(searchRid(plan.lo));
      }
      if (plan.hi !== null) {
        range.push('rowid > ?');
        rp.push(searchRid(plan.hi));
      }
      const row = db
        .prepare(`SELECT count(*) AS n FROM search_fts WHERE ${['search_fts MATCH ?', ...range].join(' AND ')}`)
        .get(ftsPhrase(plan.needle), ...rp) as { n: number };
      return { total: row.n, facets: null };
    }
    const row = db.prepare(`SELECT count(*) AS n FROM (${sql})`).get(...params) as { n: number };
    return { total: row.n, facets: null };
  }
  const groups = db
    .prepare(`SELECT mode, stt_model, llm_model, corrected, count(*) AS n FROM (${sql}) GROUP BY 1, 2, 3, 4`)
    .all(...params) as { mode: string; stt_model: string; llm_model: string; corrected: number; n: number }[];
  const facets = emptyFacets();
  let total = 0;
  for (const g of groups) {
    total += g.n;
    facets.modes[g.mode] = (facets.modes[g.mode] ?? 0) + g.n;
    facets.sttModels[g.stt_model] = (facets.sttModels[g.stt_model] ?? 0) + g.n;
    facets.llmModels[g.llm_model] = (facets.llmModels[g.llm_model] ?? 0) + g.n;
    if (g.corrected === 1) facets.corrected.yes += g.n;
    else facets.corrected.no += g.n;
  }
  return { total, facets };
}

function emptyFacets(): FacetCounts {
  return { modes: {}, sttModels: {}, llmModels: {}, corrected: { yes: 0, no: 0 } };
}

/** Remembers counts/facets per query identity until the index changes (`generation`). */
export class CountCache {
  private readonly entries = new Map<string, { generation: number; total: number; facets: FacetCounts | null }>();
  get(id: string, generation: number, needFacets: boolean): { total: number; facets: FacetCounts | null } | undefined {
    const e = this.entries.get(id);
    if (!e || e.generation !== generation || (needFacets && e.facets === null)) return undefined;
    return e;
  }
  set(id: string, generation: number, value: { total: number; facets: FacetCounts | null }): void {
    if (this.entries.size >= 32) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(id, { generation, ...value });
  }
}

/** Runs one History Browser query: a keyset page, newest first, with total, page X of Y and facets. */
export function runHistoryQuery(db: SqliteDb, input: HistoryQuery, cache: CountCache, generation: number): HistoryPage {
  const q = resolveHistoryQuery(input);
  const identity = queryIdentity(q);
  const fingerprint = fingerprintOf(identity);
  const cursor = q.cursor !== undefined ? decodeCursor(q.cursor) : null;
  if (cursor && cursor.fingerprint !== fingerprint) {
    throw new InvalidHistoryQueryError('This cursor belongs to a different search or filter; start again from page 1');
  }
  const plan = makePlan(db, q);
  let counted = cache.get(identity, generation, q.facets);
  if (!counted) {
    counted = countAndFacets(db, plan, q.facets);
    cache.set(identity, generation, counted);
  }
  const total = counted.total;
  const pageCount = Math.max(1, Math.ceil(total / q.pageSize));
  let rows: RawRow[] = [];
  let hasOlder = false;
  let hasNewer = false;
  let page = cursor?.page ?? 1;
  if (!plan.empty) {
    const newerward = cursor?.dir === 'newer';
    const bound = cursor ? { op: newerward ? ('>' as const) : ('<' as const), rid: cursor.rid } : null;
    const { sql, params } = matchSql(plan, bound, newerward ? 'ASC' : 'DESC');
    const fetched = db.prepare(`${sql} LIMIT ?`).all(...params, q.pageSize + 1) as RawRow[];
    const more = fetched.length > q.pageSize;
    rows = fetched.slice(0, q.pageSize);
    if (newerward) {
      rows.reverse();
      hasNewer = more;
      hasOlder = true;
    } else {
      hasOlder = more;
      hasNewer = cursor !== null;
    }
  }
  // Records written while paging can shift pages; keep the label within bounds rather than lie.
  if (!hasNewer) page = 1;
  page = Math.min(Math.max(page, 1), pageCount);
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    rows: rows.map(toRow),
    total,
    page,
    pageCount,
    pageSize: q.pageSize,
    nextCursor: hasOlder && last ? encodeCursor({ dir: 'older', rid: last.rid, page: page + 1, fingerprint }) : null,
    prevCursor: hasNewer && first ? encodeCursor({ dir: 'newer', rid: first.rid, page: Math.max(1, page - 1), fingerprint }) : null,
    facets: counted.facets,
    textMode: plan.textMode,
  };
}

/** EXPLAIN QUERY PLAN of the page statement for a query (tests and benchmarks assert no OFFSET/sort scans). */
export function explainHistoryQuery(db: SqliteDb, input: HistoryQuery, cursorRid: number | null): string[] {
  const q = resolveHistoryQuery(input);
  const plan = makePlan(db, q);
  const { sql, params } = matchSql(plan, cursorRid === null ? null : { op: '<', rid: cursorRid }, 'DESC');
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql} LIMIT ?`).all(...params, q.pageSize + 1) as { detail: string }[];
  return rows.map((r) => r.detail);
}
