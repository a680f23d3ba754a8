import { formatHistoryLine } from './history-builder.ts';
import { phraseDiff, wordCount } from './wenzi-diff.ts';

/**
 * The in-memory table behind the retrieval of older corrections: every corrected, preview-confirmed
 * record is reduced to its `wrong → right` fragments per mode. A pair keeps how many tracked records
 * contain it and the line of the newest of them (the example shown to the model); a record keeps only
 * its time, its file and the pairs it contributed, so deleting or editing it can be undone without
 * re-reading anything. Lookup goes through a per-mode map from the first two UTF-16 units of each
 * wrong fragment (its only unit for a one-character fix), so `lookup` costs O(length of the ASR text),
 * not O(number of pairs); proper-noun pairs are also in a shared map, for lookups across modes.
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
  /** Also indexed in the shared bucket (retrieved in every mode when sharing is on). */
  readonly properNoun: boolean;
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

/**
 * Characters so frequent that a one-character correction of them (`的→地`, `在→再`) would match nearly
 * every dictation: such a fix is still looked for, but only with a neighbouring character as context.
 */
const COMMON_CHARS = new Set(Array.from('的地得在再了着过是不和与就都也还又有这那个我你他她它们吗呢吧啊'));

const HAN = /^\p{Script=Han}+$/u;

/**
 * Whether a fragment is specific enough to look for: one CJK character that is not a function word
 * (a name's `龚` is found in any context), two CJK characters, or three Latin letters/digits.
 */
export function usefulFragment(s: string): boolean {
  const cjk = (s.match(/[\u3400-\u9fff]/gu) ?? []).length;
  if (cjk === 1 && Array.from(s).length === 1) return !COMMON_CHARS.has(s);
  return cjk >= 2 || (cjk === 0 && s.replace(/[^A-Za-z0-9]/g, '').length >= 3);
}

/** One `wrong → right` fragment; `properNoun` marks the ones shared across modes (see `properNounPair`). */
export interface CorrectionFragment {
  readonly wrong: string;
  readonly right: string;
  readonly properNoun: boolean;
}

/**
 * Whether a correction names something rather than rewords: a Han homophone swap of one to four
 * characters (`平平→萍萍`, `龚→宫`) or a Latin name (`sequel light→SQLite`, `文字→WenZi`: a capital
 * after the first letter, or a leading capital not at the start of a sentence, and not a mere case
 * change). Such a fix holds in every mode, so it may be retrieved outside the mode it was made in. Pure.
 */
export function properNounPair(wrong: string, right: string, sentenceStart: boolean): boolean {
  const w = Array.from(wrong);
  const r = Array.from(right);
  if (HAN.test(wrong) && HAN.test(right)) return w.length === r.length && w.length <= 4 && !(w.length === 1 && COMMON_CHARS.has(wrong));
  if (r.length > 24 || !/^[\p{L}\p{N}][\p{L}\p{N} .+#_-]*$/u.test(right) || !/[A-Z]/.test(right)) return false;
  if (wrong.toLowerCase() === right.toLowerCase()) return false;
  if (!/^[\p{L}\p{N} .+#_'-]+$/u.test(wrong) || (HAN.test(wrong.replace(/\s/g, '')) && w.length > 6)) return false;
  return /\p{L}.*[A-Z]/u.test(right) || (/^[A-Z]/.test(right) && !sentenceStart);
}

/**
 * The `wrong → right` fragments of a correction (a multi-word change whole: `sequel light → SQLite`).
 * One CJK character is specific enough on its own (`小龚→小宫` is keyed `龚`, found in "小龚明天…"
 * as in "小龚下周来"); a change too short to look for alone (a common character, a short Latin word)
 * takes one neighbouring unchanged character, the preceding one first (`在家→再家`, keyed `在家`).
 * A record that rewrites most of its text (a translation) contributes no proper noun.
 */
export function correctionFragments(asr: string, final: string): CorrectionFragment[] {
  const ops = phraseDiff(asr, final);
  // In words (a CJK character or a Latin word each), so a Latin name in Chinese text is weighed fairly;
  // a short utterance that is only the name is not a rewrite.
  const total = wordCount(asr);
  const changed = ops.reduce((n, op) => n + (op.kind === 'change' ? wordCount(op.from) : 0), 0);
  const rewrite = total > 4 && changed * 2 > total;
  const out: CorrectionFragment[] = [];
  for (const [i, op] of ops.entries()) {
    if (op.kind !== 'change') continue;
    const from = op.from.trim();
    const to = op.to.trim();
    if (from === '' || from === to) continue;
    const prevOp = ops[i - 1];
    const nextOp = ops[i + 1];
    const before = prevOp?.kind === 'same' && op.from === from ? Array.from(prevOp.text).at(-1) ?? '' : '';
    const after = nextOp?.kind === 'same' && op.from === from ? Array.from(nextOp.text)[0] ?? '' : '';
    const sentenceStart = i === 0 || (prevOp?.kind === 'same' && /(^|[.!?。！？\n])\s*$/u.test(prevOp.text));
    const properNoun = !rewrite && properNounPair(from, to, sentenceStart);
    const tries: readonly [string, string][] = [['', ''], [before, ''], ['', after], [before, after]];
    for (const [b, a] of tries) {
      if (usefulFragment(b + from + a) && (b + a).trim() === b + a) {
        out.push({ wrong: b + from + a, right: b + to + a, properNoun });
        break;
      }
    }
  }
  return out;
}

/** Lookup bucket of the pairs shared across modes (a NUL never occurs in a mode id: they are file names). */
const SHARED = '\u0000shared';

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
        pair = { mode: r.enhance_mode, wrong: p.wrong, right: p.right, id, properNoun: p.properNoun, count: 0, exampleKey: r.key, exampleMs: r.ms, line, removed: false };
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
   * Lines of pairs of `mode` whose wrong fragment occurs in the text — with `shareProperNouns`, also
   * proper-noun pairs of other modes — the mode's own pairs first, then multi-character fragments
   * (more specific), then the most frequent, then the newest; distinct, skipping `exclude` (lines already in the history section), at most `max`.
   */
  lookup(text: string, mode: string, exclude: ReadonlySet<string>, max: number, shareProperNouns = false): string[] {
    const buckets = [this.lookupIndex.get(mode), shareProperNouns ? this.lookupIndex.get(SHARED) : undefined].filter((b) => b !== undefined);
    if (buckets.length === 0 || max <= 0) return [];
    const hits = new Set<Pair>();
    for (let i = 0; i < text.length; i++) {
      // Keys are the first two UTF-16 units of a fragment, or its only unit (a one-character fix).
      for (const len of [1, 2]) {
        if (i + len > text.length) continue;
        const prefix = text.slice(i, i + len);
        for (const byPrefix of buckets) for (const p of byPrefix.get(prefix) ?? []) if (p.line !== null && text.startsWith(p.wrong, i)) hits.add(p);
      }
    }
    if (hits.size === 0) return [];
    const own = (p: Pair): number => (p.mode === mode ? 1 : 0);
    const specific = (p: Pair): number => (p.wrong.length > 1 ? 1 : 0);
    const ranked = [...hits].sort((a, b) => own(b) - own(a) || specific(b) - specific(a) || b.count - a.count || b.exampleMs - a.exampleMs);
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

  /** Buckets a pair is looked up in: its mode, and the shared one for a proper noun. */
  private bucketsOf(p: Pair): string[] {
    return p.properNoun ? [p.mode, SHARED] : [p.mode];
  }

  private indexPair(p: Pair): void {
    const prefix = p.wrong.slice(0, 2);
    for (const bucket of this.bucketsOf(p)) {
      let byPrefix = this.lookupIndex.get(bucket);
      if (!byPrefix) {
        byPrefix = new Map();
        this.lookupIndex.set(bucket, byPrefix);
      }
      const list = byPrefix.get(prefix);
      if (list) list.push(p);
      else byPrefix.set(prefix, [p]);
    }
  }

  private dropPair(p: Pair): void {
    p.removed = true;
    this.pairs.delete(p.id);
    this.orphans.delete(p);
    const prefix = p.wrong.slice(0, 2);
    for (const bucket of this.bucketsOf(p)) {
      const byPrefix = this.lookupIndex.get(bucket);
      const list = byPrefix?.get(prefix);
      if (!byPrefix || !list) continue;
      const i = list.indexOf(p);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) byPrefix.delete(prefix);
      if (byPrefix.size === 0) this.lookupIndex.delete(bucket);
    }
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
