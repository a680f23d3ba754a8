import type Database from 'better-sqlite3';
import { z } from 'zod';
import { messageOf, openOrRepair, openWritable, removeSnapshot, repairFile, type Opened } from './vocabulary-open.ts';
import { isDamageError, isReadOnlyError, type VocabularyDamage } from './vocabulary-repair.ts';

export type { VocabularyDamage } from './vocabulary-repair.ts';

/**
 * The user's vocabulary (WenZi's third generation): `wrong → right` pairs in SQLite with per-model
 * hit/miss counters. The LLM gets at most 5 pairs, the most-missed for the current LLM model first; the
 * ASR gets at most 10 hotwords joined into at most 200 characters, the most-missed for the ASR model first.
 * Kept in its own database file so a broken history index never takes the vocabulary with it.
 * A damaged file never stops a dictation: it is set aside and repaired (vocabulary-repair.ts), and every
 * read degrades to "no vocabulary" rather than throwing.
 */

/** Where a pair came from. */
export type VocabSource = 'asr' | 'llm' | 'user';

/** One pair with its global counters. */
export interface VocabEntry {
  readonly id: number;
  readonly wrong: string;
  readonly right: string;
  readonly source: VocabSource;
  readonly note: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Default file name under the data dir. */
export const VOCABULARY_DB_FILE = 'vocabulary.db';
/** WenZi MAX_LLM_ENTRIES. */
export const MAX_LLM_PAIRS = 5;
/** WenZi max_dynamic_hotwords and the character cap of the hotword prompt. */
export const MAX_HOTWORDS = 10;
export const MAX_HOTWORD_CHARS = 200;

const pairSchema = z.object({
  wrong: z.string().trim().min(1).max(200),
  right: z.string().trim().min(1).max(200),
  source: z.enum(['asr', 'llm', 'user']).default('user'),
  note: z.string().max(500).default(''),
});
/** Shape of an import/export file. */
export const vocabularyFileSchema = z.object({ version: z.literal(1), entries: z.array(pairSchema).max(100_000) });

interface Row {
  id: number;
  wrong: string;
  right: string;
  source: VocabSource;
  note: string;
  created_at: string;
  updated_at: string;
}

const toEntry = (r: Row): VocabEntry => ({ id: r.id, wrong: r.wrong, right: r.right, source: r.source, note: r.note, createdAt: r.created_at, updatedAt: r.updated_at });

/** Options of {@link VocabularyStore.open}. */
export interface VocabularyOpenOptions {
  readonly now?: () => Date;
  /** Where problems that are not the user's business go (the log). */
  readonly warn?: (message: string) => void;
}

/** The vocabulary database. */
export class VocabularyStore {
  /** Path of the database file (`:memory:` for tests). */
  readonly file: string;
  private db: Database.Database;
  private readonly now: () => Date;
  private readonly warn: (message: string) => void;
  private currentDamage: VocabularyDamage | null;
  private snapshot: string | undefined;
  private readonly damageListeners = new Set<(d: VocabularyDamage) => void>();

  private constructor(file: string, opened: Opened, opts: VocabularyOpenOptions) {
    this.file = file;
    this.db = opened.db;
    this.currentDamage = opened.damage;
    this.snapshot = opened.snapshot;
    this.now = opts.now ?? (() => new Date());
    this.warn = opts.warn ?? (() => undefined);
  }

  /**
   * Opens (creating) the database file; `:memory:` works for tests. Never throws for a damaged, read-only
   * or unusable file: see {@link VocabularyStore.damage} for what was done instead.
   */
  static open(file: string, opts: VocabularyOpenOptions = {}): VocabularyStore {
    const now = opts.now ?? (() => new Date());
    const opened = file === ':memory:' ? { db: openWritable(file), damage: null } : openOrRepair(file, now);
    return new VocabularyStore(file, opened, opts);
  }

  /** What was wrong with the file and what was done (null: it is fine). */
  get damage(): VocabularyDamage | null {
    return this.currentDamage;
  }

  /** Calls `listener` whenever damage is found after opening (mid-session); returns the unsubscribe function. */
  onDamage(listener: (d: VocabularyDamage) => void): () => void {
    this.damageListeners.add(listener);
    return () => this.damageListeners.delete(listener);
  }

  /** Adds a pair (or refreshes its source/note when it exists); returns it. */
  add(input: { wrong: string; right: string; source?: VocabSource; note?: string }): VocabEntry {
    const p = pairSchema.parse(input);
    if (p.wrong === p.right) throw new Error('wrong and right are the same text');
    return this.write(() => this.upsertPair(p));
  }

  /** Changes a pair; null when the id is unknown. */
  update(id: number, fields: { wrong?: string; right?: string; note?: string }): VocabEntry | null {
    return this.write(() => {
      const cur = this.db.prepare('SELECT * FROM vocab_entry WHERE id = ?').get(id) as Row | undefined;
      if (!cur) return null;
      const p = pairSchema.parse({ wrong: fields.wrong ?? cur.wrong, right: fields.right ?? cur.right, source: cur.source, note: fields.note ?? cur.note });
      this.db.prepare('UPDATE vocab_entry SET wrong = ?, right = ?, note = ?, updated_at = ? WHERE id = ?').run(p.wrong, p.right, p.note, this.now().toISOString(), id);
      return toEntry(this.db.prepare('SELECT * FROM vocab_entry WHERE id = ?').get(id) as Row);
    });
  }

  /** Deletes a pair and its counters. */
  remove(id: number): boolean {
    return this.write(() => this.db.prepare('DELETE FROM vocab_entry WHERE id = ?').run(id).changes > 0);
  }

  /** All pairs, newest first, optionally filtered by a substring (none when the file cannot be read). */
  list(filter = ''): VocabEntry[] {
    const like = `%${filter.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.read('list', [], () =>
      (this.db.prepare(`SELECT * FROM vocab_entry WHERE wrong LIKE ? ESCAPE '\\' OR right LIKE ? ESCAPE '\\' ORDER BY updated_at DESC, id DESC`).all(like, like) as Row[]).map(toEntry),
    );
  }

  /** Counters of a pair in one bucket (`llm:<model>`, `asr:<model>` or `*` for all). */
  stats(id: number, bucket: string): { asrHit: number; asrMiss: number; llmHit: number; llmMiss: number } {
    const r = this.read('stats', undefined, () =>
      this.db.prepare('SELECT asr_hit, asr_miss, llm_hit, llm_miss FROM vocab_stats WHERE entry_id = ? AND bucket = ?').get(id, bucket) as
        | { asr_hit: number; asr_miss: number; llm_hit: number; llm_miss: number }
        | undefined,
    );
    return { asrHit: r?.asr_hit ?? 0, asrMiss: r?.asr_miss ?? 0, llmHit: r?.llm_hit ?? 0, llmMiss: r?.llm_miss ?? 0 };
  }

  /**
   * Updates the counters from one confirmed dictation: for each pair whose right form is in the final
   * text, the ASR hit (it heard the right form) or missed (it wrote the wrong form), and the LLM hit
   * (the enhanced text has the right form where the ASR had the wrong one) or missed (it kept the wrong form).
   * Counters are a nicety: a file that refuses them (damaged, read-only) never fails the dictation.
   */
  recordOutcome(o: { asrText: string; enhancedText: string | null; finalText: string; asrModel: string; llmModel: string }): void {
    if (this.unsaved() !== null) return;
    this.read('recordOutcome', undefined, () => this.countOutcome(o));
  }

  /**
   * At most `limit` pairs for the LLM prompt: pairs whose wrong form occurs in the text first, then by
   * misses of this LLM model, then global misses, then recency. Order is deterministic.
   */
  pairsForLlm(llmModel: string, asrText: string, limit = MAX_LLM_PAIRS): VocabEntry[] {
    if (limit <= 0) return [];
    const rows = this.read('pairsForLlm', [], () =>
      this.db
        .prepare(`SELECT e.*, COALESCE(m.llm_miss, 0) AS model_miss, COALESCE(g.llm_miss, 0) AS global_miss FROM vocab_entry e
        LEFT JOIN vocab_stats m ON m.entry_id = e.id AND m.bucket = ?
        LEFT JOIN vocab_stats g ON g.entry_id = e.id AND g.bucket = '*'
        ORDER BY model_miss DESC, global_miss DESC, e.updated_at DESC, e.id DESC LIMIT 2000`)
        .all(`llm:${llmModel}`) as Row[],
    );
    const inText = rows.filter((r) => asrText.includes(r.wrong));
    const rest = rows.filter((r) => !asrText.includes(r.wrong));
    return [...inText, ...rest].slice(0, limit).map(toEntry);
  }

  /** Distinct right-hand terms for the ASR prompt: most missed by this ASR model first, then global, then recency. */
  hotwordsForAsr(asrModel: string, opts: { maxHotwords?: number; maxChars?: number } = {}): string[] {
    const max = opts.maxHotwords ?? MAX_HOTWORDS;
    const maxChars = opts.maxChars ?? MAX_HOTWORD_CHARS;
    const rows = this.read('hotwordsForAsr', [], () =>
      this.db
        .prepare(`SELECT e.right AS right, MAX(COALESCE(m.asr_miss, 0)) AS model_miss, MAX(COALESCE(g.asr_miss, 0)) AS global_miss, MAX(e.updated_at) AS ts
        FROM vocab_entry e
        LEFT JOIN vocab_stats m ON m.entry_id = e.id AND m.bucket = ?
        LEFT JOIN vocab_stats g ON g.entry_id = e.id AND g.bucket = '*'
        GROUP BY e.right ORDER BY model_miss DESC, global_miss DESC, ts DESC, e.right LIMIT 500`)
        .all(`asr:${asrModel}`) as { right: string }[],
    );
    const out: string[] = [];
    let chars = 0;
    for (const r of rows) {
      if (out.length >= max) break;
      const add = r.right.length + (out.length > 0 ? 2 : 0);
      if (chars + add > maxChars) continue;
      out.push(r.right);
      chars += add;
    }
    return out;
  }

  /** Every pair as an import/export document. */
  exportData(): z.infer<typeof vocabularyFileSchema> {
    return { version: 1, entries: this.list().reverse().map((e) => ({ wrong: e.wrong, right: e.right, source: e.source, note: e.note })) };
  }

  /**
   * Imports pairs (validated first; nothing is written when the document is invalid). Returns how many
   * were new and which were duplicates (already present, or twice in the file): those are merged (the
   * note refreshed), and the caller reports them rather than merging silently.
   */
  importData(doc: unknown): { readonly count: number; readonly duplicates: readonly { readonly wrong: string; readonly right: string }[] } {
    const parsed = vocabularyFileSchema.parse(doc);
    return this.write(() => {
      const exists = this.db.prepare('SELECT 1 FROM vocab_entry WHERE wrong = ? AND right = ?');
      const duplicates: { wrong: string; right: string }[] = [];
      let count = 0;
      this.db.transaction(() => {
        for (const e of parsed.entries) {
          if (e.wrong === e.right) continue;
          const p = pairSchema.parse(e);
          if (exists.get(p.wrong, p.right) !== undefined) duplicates.push({ wrong: p.wrong, right: p.right });
          else count += 1;
          this.upsertPair(p);
        }
      })();
      return { count, duplicates };
    });
  }

  /** Closes the database. */
  close(): void {
    if (this.db.open) this.db.close();
    if (this.snapshot !== undefined) removeSnapshot(this.snapshot);
  }

  private upsertPair(p: z.infer<typeof pairSchema>): VocabEntry {
    const ts = this.now().toISOString();
    this.db
      .prepare(`INSERT INTO vocab_entry (wrong, right, source, note, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (wrong, right) DO UPDATE SET note = excluded.note, updated_at = excluded.updated_at`)
      .run(p.wrong, p.right, p.source, p.note, ts, ts);
    return toEntry(this.db.prepare('SELECT * FROM vocab_entry WHERE wrong = ? AND right = ?').get(p.wrong, p.right) as Row);
  }

  private countOutcome(o: { asrText: string; enhancedText: string | null; finalText: string; asrModel: string; llmModel: string }): void {
    const rows = this.db.prepare('SELECT * FROM vocab_entry').all() as Row[];
    const bump = this.db.prepare(`INSERT INTO vocab_stats (entry_id, bucket, asr_hit, asr_miss, llm_hit, llm_miss) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (entry_id, bucket) DO UPDATE SET asr_hit = asr_hit + excluded.asr_hit, asr_miss = asr_miss + excluded.asr_miss,
      llm_hit = llm_hit + excluded.llm_hit, llm_miss = llm_miss + excluded.llm_miss`);
    this.db.transaction(() => {
      for (const r of rows) {
        if (!o.finalText.includes(r.right)) continue;
        const asrMiss = o.asrText.includes(r.wrong) ? 1 : 0;
        const asrHit = !asrMiss && o.asrText.includes(r.right) ? 1 : 0;
        let llmHit = 0;
        let llmMiss = 0;
        if (asrMiss && o.enhancedText !== null) {
          if (o.enhancedText.includes(r.wrong)) llmMiss = 1;
          else if (o.enhancedText.includes(r.right)) llmHit = 1;
        }
        if (asrHit + asrMiss + llmHit + llmMiss === 0) continue;
        for (const bucket of ['*', `asr:${o.asrModel}`]) bump.run(r.id, bucket, asrHit, asrMiss, 0, 0);
        if (llmHit + llmMiss > 0) for (const bucket of ['*', `llm:${o.llmModel}`]) bump.run(r.id, bucket, 0, 0, llmHit, llmMiss);
      }
    })();
  }

  /**
   * A read on the dictation path or in Settings: damage found now is repaired and the read retried once;
   * any other failure is logged and answered with `fallback` (dictation goes on without the vocabulary).
   */
  private read<T>(what: string, fallback: T, fn: () => T): T {
    try {
      return this.withRepair(fn);
    } catch (err) {
      this.warn(`vocabulary ${what} failed, going on without it: ${messageOf(err)}`);
      return fallback;
    }
  }

  /** A change the user asked for: damage found now is repaired and the change retried once; other errors reach the caller. */
  private write<T>(fn: () => T): T {
    const unsaved = this.unsaved();
    // A change that would only live in memory or in a temp copy is refused rather than lost at quit.
    if (unsaved !== null) throw new Error(`the vocabulary file cannot be written (${unsaved})`);
    try {
      return this.withRepair(fn);
    } catch (err) {
      if (isReadOnlyError(err)) throw new Error(`the vocabulary file cannot be written (${messageOf(err)})`, { cause: err });
      throw err;
    }
  }

  /** Why changes cannot be saved now (read-only, or the file could not be repaired), or null. */
  private unsaved(): string | null {
    const d = this.currentDamage;
    return d !== null && d.state !== 'repaired' ? d.reason : null;
  }

  private withRepair<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (!isDamageError(err) || this.file === ':memory:' || this.currentDamage?.state === 'unavailable') throw err;
      this.repairNow(messageOf(err));
      return fn();
    }
  }

  /** Damage found mid-session (https://www.sqlite.org/howtocorrupt.html): the file is set aside and reopened fresh. */
  private repairNow(reason: string): void {
    try {
      this.db.close();
    } catch {
      /* a damaged file may refuse even this */
    }
    const opened = repairFile(this.file, this.now, reason);
    if (this.snapshot !== undefined) removeSnapshot(this.snapshot);
    this.snapshot = opened.snapshot;
    this.db = opened.db;
    this.currentDamage = opened.damage;
    if (opened.damage !== null) for (const l of this.damageListeners) l(opened.damage);
  }
}

/** The hotword prompt for the ASR side (whisper initial prompt): ≤ 10 terms, ≤ 200 characters, comma-separated. */
export function asrHotwordPrompt(store: VocabularyStore | null, asrModel: string, opts: { maxHotwords?: number; maxChars?: number } = {}): string {
  if (!store) return '';
  try {
    return store.hotwordsForAsr(asrModel, opts).join(', ');
  } catch {
    return ''; // the vocabulary fails soft: transcription goes on without hotwords
  }
}
