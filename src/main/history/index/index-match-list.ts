/**
 * Sorted match lists for deep pages of a search. FTS5 seeks a `rowid > cursor` bound by walking its
 * doclist (measured: cost grows linearly with the number of matches skipped, ~30 ns each, in both
 * directions), so page 1,000 of a common word would cost 1,000× page 1. Counting the matches for
 * "Page X / Y" walks every match anyway, so that pass keeps their search rowids (ascending = newest
 * first) in a Float64Array; later pages find the cursor by binary search and fetch 100 records by
 * primary key. The cursor is still a keyset position (a rowid), never an offset, so rows written
 * meanwhile do not shift it; any index write drops the lists (generation counter).
 */

/** Most ids kept over all cached lists (8 bytes each: 2M ≈ 16 MB), so browsing stays within B6's budget. */
export const MATCH_LIST_MAX_IDS = 2_000_000;
/** Lists kept at once. */
const MAX_LISTS = 8;

/** A query's matches as ascending search rowids (= newest record first). */
export interface MatchList {
  readonly ids: Float64Array;
}

/** LRU of match lists per query identity, valid for one index generation. */
export class MatchListCache {
  private readonly entries = new Map<string, { generation: number; list: MatchList }>();
  private held = 0;

  /** The list of a query, if cached for this generation (and marks it recently used). */
  get(id: string, generation: number): MatchList | undefined {
    const e = this.entries.get(id);
    if (!e) return undefined;
    this.entries.delete(id);
    if (e.generation !== generation) {
      this.held -= e.list.ids.length;
      return undefined;
    }
    this.entries.set(id, e);
    return e.list;
  }

  /** Keeps a list unless it alone exceeds the budget; evicts the least recently used ones to make room. */
  set(id: string, generation: number, list: MatchList): void {
    const old = this.entries.get(id);
    if (old) {
      this.entries.delete(id);
      this.held -= old.list.ids.length;
    }
    if (list.ids.length > MATCH_LIST_MAX_IDS) return;
    for (const [k, e] of this.entries) {
      if (this.held + list.ids.length <= MATCH_LIST_MAX_IDS && this.entries.size < MAX_LISTS && e.generation === generation) break;
      this.entries.delete(k);
      this.held -= e.list.ids.length;
    }
    this.entries.set(id, { generation, list });
    this.held += list.ids.length;
  }

  /** Ids currently held (tests, diagnostics). */
  get heldIds(): number {
    return this.held;
  }
}

/** First index whose id is > `value` (strict) or >= `value` (not strict). */
export function lowerBound(ids: Float64Array, value: number, strict: boolean): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid] ?? 0;
    if (strict ? v <= value : v < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The next `n` search rowids from a keyset position: 'older' = after `cursor` in ascending order
 * (from the start when null), 'newer' = before it, nearest first.
 */
export function sliceFrom(ids: Float64Array, cursor: number | null, dir: 'older' | 'newer', n: number): number[] {
  const out: number[] = [];
  if (dir === 'older') {
    const start = cursor === null ? 0 : lowerBound(ids, cursor, true);
    for (let i = start; i < ids.length && out.length < n; i++) out.push(ids[i] ?? 0);
  } else {
    const end = cursor === null ? ids.length : lowerBound(ids, cursor, false);
    for (let i = end - 1; i >= 0 && out.length < n; i--) out.push(ids[i] ?? 0);
  }
  return out;
}
