import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { VOCABULARY_DB_FILE, VocabularyStore, type VocabEntry } from '../../main/enhance/vocabulary-store.ts';
import { EXIT_ERROR, EXIT_OK, UsageError, type CliCommand, type CliContext, type CliGroup } from '../types.ts';

/**
 * `tingxie vocabulary`: the same `wrong → right` pairs the app injects (vocabulary.db in the data
 * folder, VocabularyStore), listed, added, removed and imported from the command line.
 */

function withStore<T>(ctx: CliContext, fn: (store: VocabularyStore) => T): T {
  const store = VocabularyStore.open(path.join(ctx.dataDir, VOCABULARY_DB_FILE));
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** "wrong→right", "wrong->right" or "wrong => right" (one argument), or WRONG RIGHT (two). */
export function parsePair(args: readonly string[]): { wrong: string; right: string } {
  if (args.length === 2) return { wrong: (args[0] ?? '').trim(), right: (args[1] ?? '').trim() };
  if (args.length !== 1) throw new UsageError('expected "wrong→right" (or WRONG RIGHT)');
  const m = /^(.*?)\s*(?:→|->|=>)\s*(.*)$/s.exec(args[0] ?? '');
  if (!m) throw new UsageError('expected "wrong→right" (an arrow → or -> between the two forms)');
  return { wrong: (m[1] ?? '').trim(), right: (m[2] ?? '').trim() };
}

function line(e: VocabEntry): string {
  return `${e.id}\t${e.wrong} → ${e.right}\t${e.source}${e.note ? `\t${e.note}` : ''}\n`;
}

const list: CliCommand = {
  name: 'list',
  args: '[FILTER]',
  summary: 'all pairs, newest first (FILTER: only pairs containing it)',
  async run(ctx, argv) {
    if (argv.length > 1) throw new UsageError('expected at most one FILTER');
    const entries = withStore(ctx, (s) => s.list(argv[0] ?? ''));
    if (ctx.json) ctx.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    else if (entries.length === 0) ctx.stdout.write('no vocabulary pairs\n');
    else for (const e of entries) ctx.stdout.write(line(e));
    return EXIT_OK;
  },
};

const add: CliCommand = {
  name: 'add',
  args: '"wrong→right" [--note TEXT]',
  summary: 'adds a pair the enhancer and the ASR hotwords use (an existing pair gets the new note)',
  options: { note: { type: 'string', description: 'TEXT  a note shown in the Vocabulary manager' } },
  async run(ctx, argv, options) {
    const pair = parsePair(argv);
    if (!pair.wrong || !pair.right) throw new UsageError('both the wrong and the right form are needed');
    let entry: VocabEntry;
    try {
      entry = withStore(ctx, (s) => s.add({ ...pair, source: 'user', ...(typeof options.note === 'string' ? { note: options.note } : {}) }));
    } catch (err) {
      ctx.stderr.write(`error: ${(err as Error).message}\n`);
      return EXIT_ERROR;
    }
    if (ctx.json) ctx.stdout.write(`${JSON.stringify(entry, null, 2)}\n`);
    else ctx.stdout.write(`added ${line(entry)}`);
    return EXIT_OK;
  },
};

const remove: CliCommand = {
  name: 'remove',
  args: 'ID | "wrong→right"',
  summary: 'removes a pair (by the id `list` shows, or by the pair itself)',
  async run(ctx, argv) {
    if (argv.length === 0) throw new UsageError('expected an ID or "wrong→right"');
    const removed = withStore(ctx, (s) => {
      let id: number | undefined;
      if (argv.length === 1 && /^\d+$/.test(argv[0] ?? '')) id = Number(argv[0]);
      else {
        const p = parsePair(argv);
        id = s.list(p.wrong).find((e) => e.wrong === p.wrong && e.right === p.right)?.id;
      }
      return id !== undefined && s.remove(id) ? id : null;
    });
    if (removed === null) {
      ctx.stderr.write('error: no such pair (see `tingxie vocabulary list`)\n');
      return EXIT_ERROR;
    }
    ctx.stdout.write(ctx.json ? `${JSON.stringify({ removed })}\n` : `removed ${removed}\n`);
    return EXIT_OK;
  },
};

/**
 * Pairs of a WenZi vocabulary database (its current generation keeps `variant → term` pairs in a
 * `vocab_entry` table). The column names are matched from known spellings; anything else is refused
 * with the columns found, never guessed.
 */
export function readWenziVocabulary(file: string): { wrong: string; right: string; note?: string }[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const cols = (db.prepare(`PRAGMA table_info(vocab_entry)`).all() as { name: string }[]).map((c) => c.name);
    if (cols.length === 0) throw new Error(`${file} has no vocab_entry table (not a WenZi vocabulary database)`);
    const wrong = ['variant', 'wrong', 'wrong_text', 'source_text'].find((c) => cols.includes(c));
    const right = ['term', 'right', 'right_text', 'correct', 'target_text'].find((c) => cols.includes(c));
    if (!wrong || !right) throw new Error(`vocab_entry in ${file} has columns ${cols.join(', ')}: no variant/term pair recognised`);
    const rows = db.prepare(`SELECT "${wrong}" AS w, "${right}" AS r FROM vocab_entry`).all() as { w: unknown; r: unknown }[];
    return rows.flatMap((r) => (typeof r.w === 'string' && typeof r.r === 'string' && r.w.trim() && r.r.trim() && r.w !== r.r ? [{ wrong: r.w, right: r.r, note: 'WenZi' }] : []));
  } finally {
    db.close();
  }
}

const importCmd: CliCommand = {
  name: 'import',
  args: 'FILE',
  summary: "adds the pairs of a Tingxie vocabulary export (.json, as Settings writes it) or of WenZi's vocabulary database (SQLite)",
  async run(ctx, argv) {
    if (argv.length !== 1) throw new UsageError('expected one FILE');
    const file = argv[0] ?? '';
    let doc: unknown;
    try {
      const head = fs.readFileSync(file).subarray(0, 16).toString('latin1');
      if (head.startsWith('SQLite format 3')) doc = { version: 1, entries: readWenziVocabulary(file).map((e) => ({ ...e, source: 'user' })) };
      else doc = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    } catch (err) {
      ctx.stderr.write(`error: cannot read ${file}: ${(err as Error).message}\n`);
      return EXIT_ERROR;
    }
    let result;
    try {
      result = withStore(ctx, (s) => s.importData(doc));
    } catch (err) {
      ctx.stderr.write(`error: ${file} is not a vocabulary file: ${(err as Error).message.split('\n')[0]}\n`);
      return EXIT_ERROR;
    }
    if (ctx.json) ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else ctx.stdout.write(`imported ${result.count} new pair(s)${result.duplicates.length ? `, ${result.duplicates.length} already present (merged)` : ''}\n`);
    return EXIT_OK;
  },
};

export const vocabularyGroup: CliGroup = {
  name: 'vocabulary',
  summary: 'the wrong→right pairs the enhancer and the ASR hotwords use: list, add, remove, import',
  defaultCommand: 'list',
  commands: [list, add, remove, importCmd],
};
