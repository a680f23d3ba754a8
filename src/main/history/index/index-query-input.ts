import {
  historyQuerySchema,
  type HistoryQuery,
  type ResolvedHistoryQuery,
} from '../../../shared/history/query.ts';

/**
 * The input side of History Browser queries: validation, the canonical identity of a result set, and
 * opaque keyset cursors bound to that identity (split from index-query.ts to keep files small).
 */

/** Thrown for a query that fails validation or carries a cursor from another query. */
export class InvalidHistoryQueryError extends Error {
  override readonly name = 'InvalidHistoryQueryError';
}

type Direction = 'older' | 'newer';
/** A decoded keyset cursor: direction, records rowid, page number, identity fingerprint. */
export interface Cursor {
  readonly dir: Direction;
  readonly rid: number;
  readonly page: number;
  readonly fingerprint: string;
}

/** FNV-1a over a string, base 36: ties a cursor to the query that produced it. */
export function fingerprintOf(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/** Canonical form of everything that defines the result set (not the position in it). */
export function queryIdentity(q: ResolvedHistoryQuery): string {
  return JSON.stringify([
    stripUnsearchable(q.text).trim(),
    q.since ?? null,
    q.until ?? null,
    [...q.modes].sort(),
    [...q.sttModels].sort(),
    [...q.llmModels].sort(),
    [...q.apps].sort(),
    q.corrected ?? null,
    q.includeArchived,
    q.pageSize,
  ]);
}

/** NUL cannot appear in an FTS string and U+0001 separates texts in the search body: neither is searchable. */
export function stripUnsearchable(text: string): string {
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

/** Quotes user text as one FTS5 string (a phrase): no operator, column filter or prefix can leak through. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}
