/**
 * The vocabulary that learns from the user's edits. Every edit — the preview panel's text before it is
 * confirmed, a confirmed dictation whose final text differs from what was shown, a History edit — is
 * turned into candidate pairs (extract-pairs.ts). While the user edits, the panel shows them as a
 * proposal ("把 平平 → 萍萍 加入词库？"); accepting adds the pair (and, for "always", a replacement rule
 * through the writer the app passes in). Confirmed edits are counted per pair in
 * `<dataDir>/edit-learning.json`; once the same correction was confirmed twice it is added without
 * asking when `ai_enhance.vocabulary.auto_add_learned` is on. A pair in the vocabulary reaches the ASR
 * hotwords and the LLM prompt through the store (vocabulary-store.ts) — nothing else is needed here.
 * Learning never fails a dictation: every problem is logged and learning goes on without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../platform/durable-fs.ts';
import type { VocabEntry, VocabularyStore } from '../vocabulary-store.ts';
import { extractPairs, type LearnedPair, type PairKind } from './extract-pairs.ts';

/** File of the confirmation counts under the data folder. */
export const EDIT_LEARNING_FILE = 'edit-learning.json';
/** How many confirmations of the same correction add it without asking. */
export const AUTO_ADD_AFTER = 2;
/** Most distinct corrections whose counts are kept (the oldest are forgotten first). */
const MAX_COUNTED = 500;
/** The note on a pair that learning added. */
export const LEARNED_NOTE = 'learned from an edit';

/** A replacement rule for "always" (the text-rules store's `addReplacementRule` input). */
export interface ReplacementRuleInput {
  readonly heard: string;
  readonly written: string;
  readonly samePinyin: boolean;
}

/** What accepting a proposal did. */
export interface AcceptOutcome {
  readonly pair: VocabEntry;
  /** `added`: a replacement rule was written too; `unavailable`: "always" was asked but there is no rule store; `none`: not asked. */
  readonly rule: 'added' | 'unavailable' | 'none';
}

/** What the learner needs. */
export interface EditLearnerOptions {
  readonly vocabulary: Pick<VocabularyStore, 'list' | 'add'> | null;
  /** The data folder (the counts file); null keeps the counts in memory only (tests, a read-only folder). */
  readonly dataDir: string | null;
  /** Whether proposals are made at all (`ai_enhance.vocabulary.learn_from_edits`). */
  readonly enabled: () => boolean;
  /** Whether a correction confirmed twice is added without asking (`ai_enhance.vocabulary.auto_add_learned`). */
  readonly autoAdd: () => boolean;
  /** Writes a replacement rule (the app passes the text-rules store's); absent: "always" adds the pair only. */
  readonly addRule?: ((rule: ReplacementRuleInput) => unknown) | null | undefined;
  readonly warn?: (message: string) => void;
}

type Counts = Map<string, { readonly wrong: string; readonly right: string; readonly kind: PairKind; readonly n: number }>;

const keyOf = (p: { readonly wrong: string; readonly right: string }): string => `${p.wrong}\u0000${p.right}`;

/** The learner over the vocabulary store. */
export class EditLearner {
  private readonly opts: EditLearnerOptions;
  private counts: Counts | null = null;
  private ruleWriter: ((rule: ReplacementRuleInput) => unknown) | null;

  constructor(opts: EditLearnerOptions) {
    this.opts = opts;
    this.ruleWriter = opts.addRule ?? null;
  }

  /** Sets where "always" writes its replacement rule (the app's text-rules store, once it is open). */
  setRuleWriter(addRule: ((rule: ReplacementRuleInput) => unknown) | null): void {
    this.ruleWriter = addRule;
  }

  /** The pairs an edit from `before` to `after` proposes, without those already in the vocabulary. */
  propose(before: string, after: string): LearnedPair[] {
    if (!this.opts.enabled() || this.opts.vocabulary === null) return [];
    return extractPairs(before, after).filter((p) => !this.known(p));
  }

  /** Adds a proposed pair to the vocabulary; with `always`, a replacement rule as well. Throws when the vocabulary cannot be written. */
  accept(p: { readonly wrong: string; readonly right: string; readonly always: boolean; readonly kind?: PairKind }): AcceptOutcome {
    const vocabulary = this.opts.vocabulary;
    if (vocabulary === null) throw new Error('the vocabulary is not available');
    const pair = vocabulary.add({ wrong: p.wrong, right: p.right, source: 'user', note: LEARNED_NOTE });
    if (!p.always) return { pair, rule: 'none' };
    const addRule = this.ruleWriter;
    if (addRule === null) return { pair, rule: 'unavailable' };
    // Chinese homophones are written by sound: every same-pinyin spelling is replaced (平平, 苹苹 → 萍萍).
    const kind = p.kind ?? (/\p{Script=Han}/u.test(p.wrong) && /\p{Script=Han}/u.test(p.right) ? 'homophone' : 'term');
    try {
      addRule({ heard: p.wrong, written: p.right, samePinyin: kind === 'homophone' });
    } catch (err) {
      // The pair is in; only the rule failed (its file unwritable): said as "not available", and logged.
      this.opts.warn?.(`the replacement rule for "${p.wrong}" could not be written: ${String(err)}`);
      return { pair, rule: 'unavailable' };
    }
    return { pair, rule: 'added' };
  }

  /**
   * A confirmed edit (the panel's confirm, a History edit): each pair it holds is counted, and a pair
   * confirmed {@link AUTO_ADD_AFTER} times is added when the setting is on. Returns the pairs added now.
   * Never throws.
   */
  observe(before: string, after: string): LearnedPair[] {
    try {
      if (!this.opts.enabled() || this.opts.vocabulary === null || before === after) return [];
      const pairs = extractPairs(before, after);
      if (pairs.length === 0) return [];
      const counts = this.load();
      const added: LearnedPair[] = [];
      for (const p of pairs) {
        const k = keyOf(p);
        const n = (counts.get(k)?.n ?? 0) + 1;
        counts.delete(k); // re-inserted last: the map's order is the forgetting order
        counts.set(k, { wrong: p.wrong, right: p.right, kind: p.kind, n });
        if (n >= AUTO_ADD_AFTER && this.opts.autoAdd() && !this.known(p)) {
          this.opts.vocabulary.add({ wrong: p.wrong, right: p.right, source: 'user', note: LEARNED_NOTE });
          added.push(p);
        }
      }
      while (counts.size > MAX_COUNTED) counts.delete(counts.keys().next().value ?? '');
      this.save(counts);
      return added;
    } catch (err) {
      this.opts.warn?.(`learning from an edit failed, going on without it: ${String(err)}`);
      return [];
    }
  }

  /** How many times the correction `wrong → right` was confirmed. */
  confirmations(wrong: string, right: string): number {
    return this.load().get(keyOf({ wrong, right }))?.n ?? 0;
  }

  private known(p: { readonly wrong: string; readonly right: string }): boolean {
    return (this.opts.vocabulary?.list(p.wrong) ?? []).some((e) => e.wrong === p.wrong && e.right === p.right);
  }

  private file(): string | null {
    return this.opts.dataDir === null ? null : path.join(this.opts.dataDir, EDIT_LEARNING_FILE);
  }

  private load(): Counts {
    if (this.counts !== null) return this.counts;
    const counts: Counts = new Map();
    const file = this.file();
    try {
      if (file !== null && fs.existsSync(file)) {
        const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { counts?: unknown };
        for (const c of Array.isArray(doc.counts) ? (doc.counts as unknown[]) : []) {
          const e = c as { wrong?: unknown; right?: unknown; kind?: unknown; n?: unknown };
          if (typeof e.wrong === 'string' && typeof e.right === 'string' && typeof e.n === 'number' && Number.isFinite(e.n)) {
            counts.set(keyOf({ wrong: e.wrong, right: e.right }), { wrong: e.wrong, right: e.right, kind: e.kind === 'homophone' ? 'homophone' : 'term', n: e.n });
          }
        }
      }
    } catch (err) {
      // A damaged counts file only costs the counts so far: learning starts over.
      this.opts.warn?.(`the edit-learning counts could not be read, starting over: ${String(err)}`);
    }
    this.counts = counts;
    return counts;
  }

  private save(counts: Counts): void {
    const file = this.file();
    if (file === null) return;
    try {
      writeFileAtomicSync(file, `${JSON.stringify({ version: 1, counts: [...counts.values()] })}\n`);
    } catch (err) {
      this.opts.warn?.(`the edit-learning counts could not be saved: ${String(err)}`);
    }
  }
}
