import type { SqliteDb } from './index-db.ts';
import {
  TRIGRAM_MIN_CHARS,
  type FacetCounts,
  type HistoryMatchCount,
  type HistoryPage,
  type HistoryQuery,
  type HistoryRow,
  type ResolvedHistoryQuery,
} from '../../../shared/history/query.ts';
import { parseSearchTerms } from '../../../shared/history/search-terms.ts';
import { foldCase, INV_BASE, ridBase, searchRid, timestampMs } from './index-schema.ts';
import { sliceFrom, type MatchListCache } from './index-match-list.ts';
import { ngramMatch } from './index-ngram.ts';
import {
  decodeCursor,
  encodeCursor,
  fingerprintOf,
  ftsPhrase,
  InvalidHistoryQueryError,
  queryIdentity,
  resolveHistoryQuery,
  stripUnsearchable,
} from './index-query-input.ts';

export { decodeCursor, encodeCursor, ftsPhrase, InvalidHistoryQueryError, resolveHistoryQuery } from './index-query-input.ts';

/**
 * History Browser queries over the index, following rules measured on 1,000,000 synthetic records:
 * the FTS step runs first (ordered by rowid, with the date window as a rowid range), other filters
 * apply after it (a joined-column filter in the same WHERE, or ordering by another column, sorts every
 * match: hundreds of ms for a common word); pages are keyset (rowid cursor), never OFFSET (which grows
 * linearly with the page); counts are cached per query. Today's figures: docs/dev/BENCHMARKS.md, "B1:
 * search" and "B2: pagination".
 */


/** Query plan decided once per query: text mode, rowid window, filter SQL. */
interface Plan {
  readonly textMode: HistoryPage['textMode'];
  /** The FTS5 MATCH argument: the terms ANDed, as trigram phrases ('fts') or n-gram tokens ('ngram'); '' without text. */
  readonly match: string;
  /**
   * With 'fts': the 1–2-character terms as an n-gram MATCH the trigram matches must also satisfy
   * (a rowid IN over gram_fts, which shares the search rowids); '' when every term is long.
   */
  readonly gramMatch: string;
  readonly lo: number | null; // inclusive
  readonly hi: number | null; // exclusive
  readonly filterSql: string; // conditions on alias r, joined with AND ('' when none)
  readonly filterParams: readonly (string | number)[];
  readonly empty: boolean;
}

/** The short terms of a mixed search: the trigram match's rowids must also match them in the n-gram index. */
const GRAM_ALSO = 'rowid IN (SELECT rowid FROM gram_fts WHERE gram_fts MATCH ?)';

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
  // Every term must occur (any order); quoted text is one term. Folded: the indexes were built from folded text.
  const terms = parseSearchTerms(stripUnsearchable(q.text)).map(foldCase);
  // Counted after folding: that is the string both indexes were built from.
  const long = terms.filter((t) => [...t].length >= TRIGRAM_MIN_CHARS);
  const short = terms.filter((t) => [...t].length < TRIGRAM_MIN_CHARS);
  const textMode: Plan['textMode'] = terms.length === 0 ? 'none' : long.length > 0 ? 'fts' : 'ngram';
  const grams = short.map((t) => ngramMatch(t) ?? '').filter((g) => g !== '').join(' AND ');
  const match = textMode === 'fts' ? long.map(ftsPhrase).join(' AND ') : textMode === 'ngram' ? grams : '';
  const gramMatch = textMode === 'fts' ? grams : '';
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
  if (q.apps.length > 0) conds.push(inList('r.app', q.apps, params));
  if (q.corrected !== undefined) {
    conds.push('r.corrected = ?');
    params.push(q.corrected ? 1 : 0);
  }
  if (lo !== null && hi !== null && lo >= hi) empty = true;
  return { textMode, match, gramMatch, lo, hi, filterSql: conds.join(' AND '), filterParams: params, empty };
}

/**
 * The matching records over alias r (records), with the extra rowid bound for keyset paging. Text: the
 * MATCH runs alone on its FTS table (trigram or n-gram) in a CTE ordered by rowid, with the date
 * window and cursor as rowid bounds inside it; records are joined after it (CROSS JOIN pins the order)
 * and filtered. Without text, records are walked by rowid.
 */
function matchSql(
  plan: Plan,
  bound: { op: '<' | '>'; rid: number } | null,
  order: 'DESC' | 'ASC' | null,
  columns = ROW_COLUMNS,
): { sql: string; params: (string | number)[] } {
  const range: string[] = [];
  const rangeParams: number[] = [];
  const inverted = plan.textMode !== 'none';
  // On the search/FTS side rowids are INV_BASE − rid, so every comparison flips.
  const col = inverted ? 'rowid' : 'r.rid';
  const add = (op: '<' | '>=' | '>', rid: number): void => {
    const flipped = { '<': '>', '>=': '<=', '>': '<' }[op];
    range.push(`${col} ${inverted ? flipped : op} ?`);
    rangeParams.push(inverted ? searchRid(rid) : rid);
  };
  if (plan.lo !== null) add('>=', plan.lo);
  if (plan.hi !== null) add('<', plan.hi);
  if (bound) add(bound.op, bound.rid);
  const sOrder = order === 'DESC' ? 'ASC' : order === 'ASC' ? 'DESC' : null;
  switch (plan.textMode) {
    case 'fts':
    case 'ngram': {
      const table = plan.textMode === 'fts' ? 'search_fts' : 'gram_fts';
      const where = [`${table} MATCH ?`, ...(plan.gramMatch ? [GRAM_ALSO] : []), ...range].join(' AND ');
      const sql = `WITH m AS (SELECT rowid AS srid FROM ${table} WHERE ${where} ORDER BY rowid ${sOrder ?? 'ASC'})
        SELECT ${columns} FROM m CROSS JOIN records r ON r.rid = ${INV_BASE} - m.srid
        ${plan.filterSql ? `WHERE ${plan.filterSql}` : ''} ${sOrder ? `ORDER BY m.srid ${sOrder}` : ''}`;
      return { sql, params: [plan.match, ...(plan.gramMatch ? [plan.gramMatch] : []), ...rangeParams, ...plan.filterParams] };
    }
    case 'none': {
      const where = [...range, ...(plan.filterSql ? [plan.filterSql] : [])];
      const sql = `SELECT ${columns} FROM records r ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${order ? `ORDER BY r.rid ${order}` : ''}`;
      return { sql, params: [...rangeParams, ...plan.filterParams] };
    }
    default: {
      const never: never = plan.textMode;
      throw new Error(`unknown text mode ${String(never)}`);
    }
  }
}

/**
 * Every match's search rowid, ascending (newest first). Without other filters the FTS table alone
 * answers (no join); with filters the records are joined and filtered.
 */
function matchIds(db: SqliteDb, plan: Plan): Float64Array {
  if (plan.empty || plan.textMode === 'none') return new Float64Array(0);
  let ids: number[];
  if (plan.filterSql === '') {
    const table = plan.textMode === 'fts' ? 'search_fts' : 'gram_fts';
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
    ids = db
      .prepare(`SELECT rowid FROM ${table} WHERE ${[`${table} MATCH ?`, ...(plan.gramMatch ? [GRAM_ALSO] : []), ...range].join(' AND ')} ORDER BY rowid`)
      .pluck()
      .all(plan.match, ...(plan.gramMatch ? [plan.gramMatch] : []), ...rp) as number[];
  } else {
    const { sql, params } = matchSql(plan, null, 'DESC', `${INV_BASE} - r.rid`);
    ids = db.prepare(sql).pluck().all(...params) as number[];
  }
  return Float64Array.from(ids);
}

/** Count of the whole match set without text (an index count). */
function countRecords(db: SqliteDb, plan: Plan): number {
  if (plan.empty) return 0;
  // Not wrapped in a subquery, so SQLite can count over the smallest covering index.
  const { sql, params } = matchSql(plan, null, null, 'count(*) AS n');
  return (db.prepare(sql).get(...params) as { n: number }).n;
}

/** Tag counts over the whole match set (one grouped pass). */
function facetsOf(db: SqliteDb, plan: Plan): FacetCounts {
  const facets = emptyFacets();
  if (plan.empty) return facets;
  const { sql, params } = matchSql(plan, null, null, 'r.mode, r.stt_model, r.llm_model, r.corrected, r.app');
  const groups = db
    .prepare(`SELECT mode, stt_model, llm_model, corrected, app, count(*) AS n FROM (${sql}) GROUP BY 1, 2, 3, 4, 5`)
    .all(...params) as { mode: string; stt_model: string; llm_model: string; corrected: number; app: string; n: number }[];
  for (const g of groups) {
    facets.apps[g.app] = (facets.apps[g.app] ?? 0) + g.n;
    facets.modes[g.mode] = (facets.modes[g.mode] ?? 0) + g.n;
    facets.sttModels[g.stt_model] = (facets.sttModels[g.stt_model] ?? 0) + g.n;
    facets.llmModels[g.llm_model] = (facets.llmModels[g.llm_model] ?? 0) + g.n;
    if (g.corrected === 1) facets.corrected.yes += g.n;
    else facets.corrected.no += g.n;
  }
  return facets;
}

function emptyFacets(): FacetCounts {
  return { modes: {}, sttModels: {}, llmModels: {}, apps: {}, corrected: { yes: 0, no: 0 } };
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

/** The caches a query uses, owned by the HistoryIndex, and its write generation. */
export interface QueryCaches {
  readonly counts: CountCache;
  readonly lists: MatchListCache;
  readonly generation: number;
}

/** Total matches of a query (and facets when asked), for "Page X / Y" (the shared wire type). */
export type MatchCount = HistoryMatchCount;

/** Prepared state of one query: validated input, identity, plan. */
interface Prepared {
  readonly q: ResolvedHistoryQuery;
  readonly identity: string;
  readonly fingerprint: string;
  readonly plan: Plan;
}

function prepare(db: SqliteDb, input: HistoryQuery): Prepared {
  const q = resolveHistoryQuery(input);
  const identity = queryIdentity(q);
  return { q, identity, fingerprint: fingerprintOf(identity), plan: makePlan(db, q) };
}

/** Counts (keeping the match list for deep pages) and facets, through the caches. */
function ensureCount(db: SqliteDb, p: Prepared, c: QueryCaches, withFacets: boolean): { total: number; facets: FacetCounts | null } {
  const cached = c.counts.get(p.identity, c.generation, withFacets);
  if (cached) return cached;
  let total: number;
  const known = c.counts.get(p.identity, c.generation, false);
  if (known) total = known.total;
  else if (p.plan.textMode === 'none') total = countRecords(db, p.plan);
  else {
    const ids = matchIds(db, p.plan);
    c.lists.set(p.identity, c.generation, { ids });
    total = ids.length;
  }
  const value = { total, facets: withFacets ? facetsOf(db, p.plan) : null };
  c.counts.set(p.identity, c.generation, value);
  return value;
}

/** Counts the matches of a query (cached until the index changes). */
export function countHistoryQuery(db: SqliteDb, input: HistoryQuery, c: QueryCaches): MatchCount {
  const p = prepare(db, input);
  const counted = ensureCount(db, p, c, p.q.facets);
  return { total: counted.total, pageCount: Math.max(1, Math.ceil(counted.total / p.q.pageSize)), facets: counted.facets };
}

/** Rows by records rowid, in the given order (ids are search rowids). */
function rowsBySearchIds(db: SqliteDb, sids: readonly number[]): RawRow[] {
  if (sids.length === 0) return [];
  const rids = sids.map((s) => searchRid(s));
  const got = db
    .prepare(`SELECT ${ROW_COLUMNS} FROM records r WHERE r.rid IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(rids)) as RawRow[];
  const byRid = new Map(got.map((r) => [r.rid, r]));
  return rids.map((r) => byRid.get(r)).filter((r): r is RawRow => r !== undefined);
}

/** Runs one History Browser query: a keyset page, newest first, with total, page X of Y and facets. */
export function runHistoryQuery(db: SqliteDb, input: HistoryQuery, c: QueryCaches): HistoryPage {
  const p = prepare(db, input);
  const { q, plan, fingerprint } = p;
  const cursor = q.cursor !== undefined ? decodeCursor(q.cursor) : null;
  if (cursor && cursor.fingerprint !== fingerprint) {
    throw new InvalidHistoryQueryError('This cursor belongs to a different search or filter; start again from page 1');
  }
  const counted = q.count || q.facets ? ensureCount(db, p, c, q.facets) : c.counts.get(p.identity, c.generation, false);
  const total = counted?.total ?? null;
  const pageCount = total === null ? null : Math.max(1, Math.ceil(total / q.pageSize));
  let rows: RawRow[] = [];
  let hasOlder = false;
  let hasNewer = false;
  let page = cursor?.page ?? 1;
  if (!plan.empty) {
    const newerward = cursor?.dir === 'newer';
    let list = plan.textMode === 'none' ? undefined : c.lists.get(p.identity, c.generation);
    if (!list && cursor && plan.textMode !== 'none') {
      // A deep page whose list was evicted: an FTS seek would walk every skipped match anyway, so walk
      // them once into a list and keep it for the following pages.
      list = { ids: matchIds(db, plan) };
      c.lists.set(p.identity, c.generation, list);
    }
    let fetched: RawRow[];
    if (list) {
      const at = cursor ? searchRid(cursor.rid) : null;
      fetched = rowsBySearchIds(db, sliceFrom(list.ids, at, newerward ? 'newer' : 'older', q.pageSize + 1));
    } else {
      const bound = cursor ? { op: newerward ? ('>' as const) : ('<' as const), rid: cursor.rid } : null;
      const { sql, params } = matchSql(plan, bound, newerward ? 'ASC' : 'DESC');
      fetched = db.prepare(`${sql} LIMIT ?`).all(...params, q.pageSize + 1) as RawRow[];
    }
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
  page = Math.max(page, 1);
  if (pageCount !== null) page = Math.min(page, pageCount);
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
    facets: counted?.facets ?? null,
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
