import { formatHistoryLine } from './history-builder.ts';
import { diffText } from './text-diff.ts';

/**
 * The in-memory table behind the retrieval of older corrections: every corrected, preview-confirmed
 * record is reduced to its `wrong → right` fragments per mode. A pair keeps how many tracked records
 * contain it and the line of the newest of them (the example shown to the model); a record keeps only
 * its time, its file and the pairs it contributed, so deleting or editing it can be undone without
 * re-reading anything. Lookup goes through a per-mode map from the first two UTF-16 units of each
 * wrong fragment, so `lookup` costs O(length of the ASR text), not O(number of pairs).
 *
 * Memory is bounded: at most `maxRecords` records (the oldest go first) and `maxPairs` distinct pairs
 * (the least used, then oldest, go first). Counts are a ranking hint: a pair evicted and later seen
 * again starts counting anew.
 */

/** A corrected record as the table takes it. */
export interface CorrectionInput {
  readonly key: string;
  /** Record time (ms): decides which example is newest and which records are evicted first. */
  readonly ms: number;
  readonly file: string;
  readonly asr_text: string;
  readonly final_text: string;
  readonly enhance_mode: string;
}

interface Pair {
  readonly mode: string;
  readonly wrong: string;
  readonly right: string;
  readonly id: string;
  count: number;
  /** Key and time of the newest record containing the pair; `line` null while a replacement is pending. */
  exampleKey: string | null;
  exampleMs: number;
  line: string | null;
  removed: boolean;
}

interface Tracked {
  readonly ms: number;
  file: string;
  readonly pairs: readonly Pair[];
  /** Pass generation that last confirmed the record (sweep after a re-pass). */
  gen: number;
}

/** Limits of the table. */
export interface CorrectionTableLimits {
  readonly maxRecords: number;
  readonly maxPairs: number;
}

/** Defaults: 50,000 corrected records, 20,000 distinct pairs (a few MB at most). */
export const DEFAULT_TABLE_LIMITS: CorrectionTableLimits = { maxRecords: 50_000, maxPairs: 20_000 };

/** Longest final text a record may have to be used (same rule as the history lines). */
export const MAX_FINAL_CHARS = 500;

/** Whether a fragment is specific enough to look for: two CJK characters or three Latin letters/digits. */
export function usefulFragment(s: string): boolean {
  const cjk = (s.match(/[\u3400-\u9fff]/gu) ?? []).length;
  return cjk >= 2 || (cjk === 0 && s.replace(/[^A-Za-z0-9]/g, '').length >= 3);
}

/**
 * The `wrong → right` fragments of a correction. A change too short to look for on its own (one CJK
 * character: `王→汪` in `王小明→汪小明`) takes one neighbouring unchanged character on each side as
 * needed (`王小→汪小`), so single-character fixes of names are still found, by their context.
 */
export function correctionFragments(asr: string, final: string): { readonly wrong: string; readonly right: string }[] {
  const ops = diffText(asr, final);
  const out: { wrong: string; right: string }[] = [];
  for (const [i, op] of ops.entries()) {
    if (op.kind !== 'change') continue;
    const from = op.from.trim();
    const to = op.to.trim();
    if (from === '' || from === to) continue;
    const prevOp = ops[i - 1];
    const nextOp = ops[i + 1];
    const before = prevOp?.kind === 'same' && op.from === from ? Array.from(prevOp.text).at(-1) ?? '' : '';
    const after = nextOp?.kind === 'same' && op.from === from ? Array.from(nextOp.text)[0] ?? '' : '';
    const tries: readonly [string, string][] = [['', ''], ['', after], [before, ''], [before, after]];
    for (const [b, a] of tries) {
      if (usefulFragment(b + from + a) && (b + a).trim() === b + a) {
        out.push({ wrong: b + from + a, right: b + to + a });
        break;
      }
    }
  }
  return out;
}

/** The pair table. */
export class CorrectionTable {
  private readonly limits: CorrectionTableLimits;
  private readonly records = new Map<string, Tracked>();
  private readonly pairs = new Map<string, Pair>();
  /** mode → first two code units of `wrong` → pairs. */
  private readonly lookupIndex = new Map<string, Map<string, Pair[]>>();
  /** Pairs whose example record went away and whose new example line must be fetched. */
  private readonly orphans = new Set<Pair>();

  /** An empty table. */
  constructor(limits: CorrectionTableLimits = DEFAULT_TABLE_LIMITS) {
    this.limits = limits;
  }

  /** The record cap (a pass stops once it is reached: it reads newest first). */
  get maxRecords(): number {
    return this.limits.maxRecords;
  }

  /** Tracked records. */
  get recordCount(): number {
    return this.records.size;
  }

  /** Distinct pairs. */
  get pairCount(): number {
    return this.pairs.size;
  }

  /** Whether a record is tracked. */
  has(key: string): boolean {
    return this.records.has(key);
  }

  /**
   * Adds (or replaces, by key) a record; false when it contributes nothing (no useful fragment, final
   * text too long) or was evicted at once as the oldest of a full table.
   */
  put(r: CorrectionInput, gen: number): boolean {
    const found = r.final_text.length > MAX_FINAL_CHARS ? [] : correctionFragments(r.asr_text, r.final_text);
    if (found.length === 0) {
      this.remove(r.key);
      return false;
    }
    const line = formatHistoryLine(r.asr_text, r.final_text);
    // Replacing a tracked record (edit, re-pass) only touches the pairs that changed: no example is
    // orphaned (and no scan runs) when the record still contains its pairs.
    const before = new Set(this.records.get(r.key)?.pairs.filter((p) => !p.removed));
    const pairs: Pair[] = [];
    for (const p of found) {
      const id = `${r.enhance_mode}\u0000${p.wrong}\u0000${p.right}`;
      let pair = this.pairs.get(id);
      if (pair && pairs.includes(pair)) continue;
      if (!pair) {
        pair = { mode: r.enhance_mode, wrong: p.wrong, right: p.right, id, count: 0, exampleKey: r.key, exampleMs: r.ms, line, removed: false };
        this.pairs.set(id, pair);
        this.indexPair(pair);
      }
      if (!before.delete(pair)) pair.count++;
      if (pair.exampleKey === r.key || r.ms >= pair.exampleMs || pair.line === null) {
        pair.exampleKey = r.key;
        pair.exampleMs = r.ms;
        pair.line = line;
        this.orphans.delete(pair);
      }
      pairs.push(pair);
    }
    this.records.set(r.key, { ms: r.ms, file: r.file, pairs, gen });
    for (const p of before) this.release(p, r.key);
    if (this.records.size > this.limits.maxRecords) this.evictRecords();
    if (this.pairs.size > this.limits.maxPairs) this.evictPairs();
    return this.records.has(r.key);
  }

  /** Removes a record's contribution (unknown keys are ignored). */
  remove(key: string): void {
    const t = this.records.get(key);
    if (!t) return;
    this.records.delete(key);
    for (const p of t.pairs) this.release(p, key);
  }

  /** One record (`key`) no longer contains the pair. */
  private release(p: Pair, key: string): void {
    if (p.removed) return;
    p.count--;
    if (p.count <= 0) this.dropPair(p);
    else if (p.exampleKey === key) this.orphan(p);
  }

  /** Re-labels records moved to another file (rotation). */
  move(keys: readonly string[], file: string): void {
    for (const k of keys) {
      const t = this.records.get(k);
      if (t) t.file = file;
    }
  }

  /** Removes every record of these files (history cleared). */
  removeFiles(files: ReadonlySet<string>): void {
    for (const [k, t] of [...this.records]) if (files.has(t.file)) this.remove(k);
  }

  /** After a complete pass: drops records the pass did not see (they left the history meanwhile). */
  sweep(gen: number): number {
    let n = 0;
    for (const [k, t] of [...this.records]) {
      if (t.gen < gen) {
        this.remove(k);
        n++;
      }
    }
    return n;
  }

  /** Keys whose line is needed to repair orphaned pairs (newest remaining record of each). */
  pendingExamples(): string[] {
    const out = new Set<string>();
    for (const p of this.orphans) if (p.exampleKey !== null) out.add(p.exampleKey);
    return [...out];
  }

  /** Supplies the line of a record fetched for `pendingExamples` (missing records leave the pair hidden). */
  setExampleLine(key: string, asr: string, final: string): void {
    const line = formatHistoryLine(asr, final);
    for (const p of [...this.orphans]) {
      if (p.exampleKey === key) {
        p.line = line;
        this.orphans.delete(p);
      }
    }
  }

  /**
   * Lines of pairs of `mode` whose wrong fragment occurs in the text, most frequent first (then newest),
   * distinct, skipping `exclude` (lines already in the history section), at most `max`.
   */
  lookup(text: string, mode: string, exclude: ReadonlySet<string>, max: number): string[] {
    const byPrefix = this.lookupIndex.get(mode);
    if (!byPrefix || max <= 0) return [];
    const hits = new Set<Pair>();
    for (let i = 0; i + 1 < text.length; i++) {
      const list = byPrefix.get(text.slice(i, i + 2));
      if (!list) continue;
      for (const p of list) if (p.line !== null && text.startsWith(p.wrong, i)) hits.add(p);
    }
    if (hits.size === 0) return [];
    const ranked = [...hits].sort((a, b) => b.count - a.count || b.exampleMs - a.exampleMs);
    const out: string[] = [];
    for (const p of ranked) {
      if (out.length >= max) break;
      const line = p.line;
      if (line === null || exclude.has(line) || out.includes(line)) continue;
      out.push(line);
    }
    return out;
  }

  /** Empties the table. */
  clear(): void {
    this.records.clear();
    this.pairs.clear();
    this.lookupIndex.clear();
    this.orphans.clear();
  }

  private indexPair(p: Pair): void {
    let byPrefix = this.lookupIndex.get(p.mode);
    if (!byPrefix) {
      byPrefix = new Map();
      this.lookupIndex.set(p.mode, byPrefix);
    }
    const prefix = p.wrong.slice(0, 2);
    const list = byPrefix.get(prefix);
    if (list) list.push(p);
    else byPrefix.set(prefix, [p]);
  }

  private dropPair(p: Pair): void {
    p.removed = true;
    this.pairs.delete(p.id);
    this.orphans.delete(p);
    const byPrefix = this.lookupIndex.get(p.mode);
    const prefix = p.wrong.slice(0, 2);
    const list = byPrefix?.get(prefix);
    if (!byPrefix || !list) return;
    const i = list.indexOf(p);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) byPrefix.delete(prefix);
    if (byPrefix.size === 0) this.lookupIndex.delete(p.mode);
  }

  /** The example record went away: the newest remaining record with the pair becomes the example (its line is fetched later). */
  private orphan(p: Pair): void {
    let bestKey: string | null = null;
    let bestMs = -Infinity;
    // A full scan, but only when the example of a still-used pair is deleted or edited (a user action).
    for (const [k, t] of this.records) {
      if (t.ms > bestMs && t.pairs.includes(p)) {
        bestKey = k;
        bestMs = t.ms;
      }
    }
    p.exampleKey = bestKey;
    p.exampleMs = bestMs;
    p.line = null;
    if (bestKey === null) this.dropPair(p);
    else this.orphans.add(p);
  }

  /** Over the record cap: drops the oldest tenth (sorted once, so appends stay O(1) amortised). */
  private evictRecords(): void {
    const target = Math.floor(this.limits.maxRecords * 0.9);
    if (this.records.size <= target) return;
    const oldest = [...this.records].sort((a, b) => a[1].ms - b[1].ms).slice(0, this.records.size - target);
    for (const [k] of oldest) this.remove(k);
  }

  /** Over the pair cap: drops the least used, oldest tenth. */
  private evictPairs(): void {
    const target = Math.floor(this.limits.maxPairs * 0.9);
    if (this.pairs.size <= target) return;
    const victims = [...this.pairs.values()].sort((a, b) => a.count - b.count || a.exampleMs - b.exampleMs).slice(0, this.pairs.size - target);
    for (const p of victims) this.dropPair(p);
  }
}
