import fs from 'node:fs';
import { writeFileAtomic } from '../../main/platform/durable-fs.ts';
import { exportText } from '../../main/history/import-export/export.ts';
import { HistoryIndex } from '../../main/history/index/history-index.ts';
import type { HistoryService } from '../../main/history/history-service.ts';
import { archiveFolderProblems, describeProblem, type HistoryProblem } from '../../main/history/history-problems.ts';
import { listHistoryFiles, unreadableReason } from '../../main/history/index/index-sync.ts';
import { readJsonlLines } from '../../main/history/store/jsonl-reader.ts';
import { historyPaths } from '../../main/history/paths.ts';
import { acquireDataLock, currentLockHolder, lockFailedUnwritable } from '../../main/platform/data-lock.ts';
import { recordKey, type StoredRecord } from '../../shared/history/record.ts';
import type { HistoryQuery, HistoryRow } from '../../shared/history/query.ts';
import { EXIT_ERROR, EXIT_OK, EXIT_PARTIAL, UsageError, type CliCommand, type CliContext, type CliGroup } from '../types.ts';
import { openHistoryService, runImport, withLock } from './history-import.ts';

/**
 * `tingxie history …` over the same files as the app. Commands that change history (import, rotate,
 * reindex) take the data-folder lock and refuse while the app holds it; read-only ones proceed, reading
 * the app's index (SQLite WAL allows a concurrent reader) or the JSONL files directly.
 * Options may come anywhere after the command (`--name value` or `--name=value`); after `--` every
 * argument is literal (e.g. a search for text starting with dashes). On a read-only folder the read-only
 * commands still work (the index is built in the temp folder). History that cannot be read (a file, a
 * line too long) is named on stderr and the exit code is 3: the output shows everything else.
 */

interface Flags {
  readonly positionals: string[];
  readonly values: Map<string, string>;
  readonly switches: Set<string>;
}

/** Splits argv into positionals, `--name value` / `--name=value` options and `--switch`es. */
function parseFlags(argv: readonly string[], valued: readonly string[], switches: readonly string[]): Flags {
  const out: Flags = { positionals: [], values: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('--')) {
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (switches.includes(name) && eq < 0) out.switches.add(name);
    else if (valued.includes(name)) {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || v === '') throw new UsageError(`--${name} needs a value`);
      out.values.set(name, v);
    } else throw new UsageError(`unknown option '${a}'`);
  }
  return out;
}

/** `--since`: an ISO date, or a span back from now like `7d`, `12h`, `2w` (`all` is handled by the caller: no bound). */
export function parseSince(text: string, now: Date = new Date()): string {
  const m = /^(\d+)([hdw])$/.exec(text);
  if (m) {
    const hours = Number(m[1]) * (m[2] === 'h' ? 1 : m[2] === 'd' ? 24 : 168);
    return new Date(now.getTime() - hours * 3_600_000).toISOString();
  }
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw new UsageError(`--since must be an ISO date, a span like 7d or 'all', got '${text}'`);
  return new Date(t).toISOString();
}

function positiveInt(text: string | undefined, name: string, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive whole number`);
  return n;
}

function printJson(ctx: CliContext, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Local `YYYY-MM-DD HH:MM` of an ISO time (the text as is when unparseable). */
function localTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso.slice(0, 16);
  const d = new Date(t);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** One-line text, cut at `max` code points with an ellipsis. */
function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

function printTable(ctx: CliContext, rows: readonly Pick<HistoryRow, 'timestamp' | 'enhance_mode' | 'final_text' | 'key'>[]): void {
  const modeWidth = Math.max(4, ...rows.map((r) => r.enhance_mode.length));
  ctx.stdout.write(`${'TIME'.padEnd(16)}  ${'MODE'.padEnd(modeWidth)}  TEXT\n`);
  for (const r of rows) ctx.stdout.write(`${localTime(r.timestamp).padEnd(16)}  ${r.enhance_mode.padEnd(modeWidth)}  ${truncate(r.final_text, 60)}\n`);
}

/** Runs `fn` with the data-folder lock and the history service open. */
function withWriteLock(ctx: CliContext, fn: (svc: HistoryService) => Promise<number>): Promise<number> {
  return withLock(ctx, async () => {
    const svc = await openHistoryService(ctx);
    try {
      return await fn(svc);
    } finally {
      await svc.close();
    }
  });
}

/** Names the unreadable history on stderr; the exit code a command that otherwise succeeded returns. */
function reportProblems(ctx: CliContext, problems: readonly HistoryProblem[]): number {
  for (const p of problems) ctx.stderr.write(`error: ${describeProblem(p)}\n`);
  if (problems.length > 0) ctx.stderr.write(`${problems.length} problem(s): the history shown is incomplete (exit code ${EXIT_PARTIAL})\n`);
  return problems.length > 0 ? EXIT_PARTIAL : EXIT_OK;
}

/** History files that exist but cannot be read (a stat each; the app's index is read as is). */
function unreadableFiles(dataDir: string): HistoryProblem[] {
  const out: HistoryProblem[] = [];
  for (const f of listHistoryFiles(dataDir)) {
    let st: fs.Stats;
    try {
      st = fs.statSync(f.path);
    } catch {
      continue;
    }
    const reason = unreadableReason(f.path, st);
    if (reason !== null) out.push({ kind: 'unreadable', file: f.file, path: f.path, reason });
  }
  return [...out, ...archiveFolderProblems(dataDir)];
}

/** Problems plus the archive-folder entries that are not read (links, other names), each path named once. */
function withArchiveFolderProblems(dataDir: string, problems: readonly HistoryProblem[]): HistoryProblem[] {
  const named = new Set(problems.map((p) => `${p.kind}\u0000${p.path}`));
  return [...problems, ...archiveFolderProblems(dataDir).filter((p) => !named.has(`${p.kind}\u0000${p.path}`))];
}

/**
 * Runs `fn` with an index to read: the app's (when it runs, read as is) or one checked/rebuilt here under
 * the lock (or, on a folder that cannot be written, in the temp folder without it). Also returns the
 * history that could not be read.
 */
async function withIndex<T>(ctx: CliContext, fn: (index: HistoryIndex) => T): Promise<{ value: T; problems: readonly HistoryProblem[] }> {
  if (currentLockHolder(ctx.dataDir)) {
    const index = HistoryIndex.open(historyPaths(ctx.dataDir).indexDb);
    try {
      return { value: fn(index), problems: unreadableFiles(ctx.dataDir) };
    } finally {
      index.close();
    }
  }
  let lock: ReturnType<typeof acquireDataLock> | null = null;
  try {
    lock = acquireDataLock(ctx.dataDir, { role: 'cli' });
  } catch (err) {
    // A folder that cannot be written needs no lock: read-only commands go on without it.
    if (!lockFailedUnwritable(err)) throw err;
    ctx.stderr.write(`warning: the data folder cannot be written (${(err as NodeJS.ErrnoException).code}); reading it as is\n`);
  }
  try {
    const svc = await openHistoryService(ctx, lock === null);
    try {
      const index = svc.indexOrNull;
      if (!index) throw new Error('the history index could not be built (see the warnings above)');
      return { value: fn(index), problems: withArchiveFolderProblems(ctx.dataDir, svc.problems) };
    } finally {
      await svc.close();
    }
  } finally {
    lock?.release();
  }
}

const LIST_OPTIONS = ['since', 'mode', 'limit'] as const;

async function runQuery(ctx: CliContext, argv: readonly string[], withText: boolean): Promise<number> {
  // Archives are searched by default, as in the History Browser; --include-archived is still accepted.
  const f = parseFlags(argv, LIST_OPTIONS, ['include-archived', 'active-only']);
  if (f.switches.has('include-archived') && f.switches.has('active-only')) throw new UsageError('--active-only and --include-archived contradict each other');
  // Several words are several terms (all must occur, any order), as in the History Browser; quotes make a phrase.
  if (withText && f.positionals.length === 0) throw new UsageError('missing QUERY');
  if (!withText && f.positionals.length) throw new UsageError(`unexpected argument '${f.positionals[0]}'`);
  const limit = positiveInt(f.values.get('limit'), 'limit', 20);
  // `all` is the History Browser's "all time" filter: no lower bound.
  const sinceText = f.values.get('since');
  const since = sinceText === 'all' ? undefined : sinceText;
  const mode = f.values.get('mode');
  const base: HistoryQuery = {
    text: withText ? f.positionals.join(' ') : '',
    includeArchived: !f.switches.has('active-only'),
    ...(since === undefined ? {} : { since: parseSince(since) }),
    ...(mode === undefined ? {} : { modes: [mode] }),
    facets: false,
  };
  const { value: { rows, total }, problems } = await withIndex(ctx, (index) => {
    const out: HistoryRow[] = [];
    let cursor: string | undefined;
    let total: number | null = null;
    while (out.length < limit) {
      const page = index.query({ ...base, pageSize: Math.min(500, limit - out.length), ...(cursor ? { cursor } : {}) });
      total ??= page.total;
      out.push(...page.rows);
      if (!page.nextCursor || page.rows.length === 0) break;
      cursor = page.nextCursor;
    }
    return { rows: out, total };
  });
  if (ctx.json) printJson(ctx, { total, rows });
  else {
    printTable(ctx, rows);
    ctx.stdout.write(`${rows.length} of ${total ?? '?'} record(s)${base.includeArchived ? '' : ' (active file only: archives not searched)'}${since === undefined ? '' : ` (since ${since} only)`}\n`);
  }
  return reportProblems(ctx, problems);
}

/**
 * All records with their file, archives first (chronologically) then active, read straight from the
 * JSONL (streamed: a line too long to read is skipped and named). A file that cannot be read is named
 * and skipped; `problems` lists what is missing from `records`.
 */
async function readAll(ctx: CliContext): Promise<{ records: { record: StoredRecord; file: string; text: string }[]; problems: HistoryProblem[] }> {
  const records: { record: StoredRecord; file: string; text: string }[] = [];
  const problems: HistoryProblem[] = archiveFolderProblems(ctx.dataDir);
  const seen = new Map<string, string>();
  for (const f of listHistoryFiles(ctx.dataDir)) {
    let r;
    try {
      r = await readJsonlLines(f.path);
    } catch (err) {
      const message = (err as Error).message;
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      problems.push({ kind: 'unreadable', file: f.file, path: f.path, reason: message.startsWith(`${code}:`) ? message : `${code}: ${message}` });
      continue;
    }
    const bad = r.lines.filter((l) => l.kind === 'bad');
    if (bad.length) ctx.stderr.write(`warning: ${bad.length} unreadable line(s) skipped in ${f.path}\n`);
    const invalid = bad.flatMap((l) => (l.invalidUtf8 === true ? [l.line] : []));
    if (invalid.length) problems.push({ kind: 'invalid-utf8', file: f.file, path: f.path, lines: invalid });
    for (const l of r.lines) {
      if (l.kind !== 'record') continue;
      const record = l.record;
      // A rotation the disk interrupted can leave a record in its archive and the active file until it is
      // finished: one copy each, as the index keeps.
      const key = recordKey(record);
      const first = seen.get(key);
      if (first !== undefined && first !== f.file) continue;
      seen.set(key, f.file);
      records.push({ record, file: f.file, text: l.text });
    }
  }
  return { records, problems };
}

const list: CliCommand = {
  name: 'list',
  args: '[--active-only] [--since 7d|DATE|all] [--mode M] [--limit N]',
  summary: 'newest records first (time, mode, final text), archives included',
  run: (ctx, argv) => runQuery(ctx, argv, false),
};

const search: CliCommand = {
  name: 'search',
  args: 'QUERY… [--active-only] [--since 7d|DATE|all] [--mode M] [--limit N]',
  summary: 'records containing every word of QUERY (any order; "quoted words" as a phrase), archives included',
  run: (ctx, argv) => runQuery(ctx, argv, true),
};

const show: CliCommand = {
  name: 'show',
  args: 'ID',
  summary: 'one record in full (ID is its id, or ts:TIMESTAMP for WenZi records)',
  async run(ctx, argv) {
    const f = parseFlags(argv, [], []);
    if (f.positionals.length !== 1) throw new UsageError('expected one ID');
    const id = f.positionals[0] ?? '';
    const all = await readAll(ctx);
    const hit = all.records.find(({ record }) => recordKey(record) === id || record.id === id);
    if (!hit) {
      reportProblems(ctx, all.problems);
      ctx.stderr.write(`error: no record with id ${id}\n`);
      return EXIT_ERROR;
    }
    if (ctx.json) printJson(ctx, { ...hit.record, file: hit.file });
    else {
      const r = hit.record as Record<string, unknown>;
      for (const [k, v] of Object.entries(r)) ctx.stdout.write(`${k.padEnd(16)} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}\n`);
      ctx.stdout.write(`${'file'.padEnd(16)} ${hit.file}\n`);
    }
    return reportProblems(ctx, all.problems);
  },
};

const exportCmd: CliCommand = {
  name: 'export',
  args: 'FILE [--format jsonl|csv] [--bom]',
  summary: 'write all history (archives included) to FILE; the format follows the extension',
  async run(ctx, argv) {
    const f = parseFlags(argv, ['format'], ['bom']);
    if (f.positionals.length !== 1) throw new UsageError('expected one FILE');
    const file = f.positionals[0] ?? '';
    const format = f.values.get('format') ?? (/\.csv$/i.test(file) ? 'csv' : /\.jsonl?$/i.test(file) ? 'jsonl' : undefined);
    if (format !== 'csv' && format !== 'jsonl') throw new UsageError('cannot tell the format from the file name: use --format jsonl or --format csv');
    const all = await readAll(ctx);
    const records = all.records.map((r) => r.record);
    // A record JSON.stringify cannot write (nested too deep) is exported as its line on disk.
    const text = exportText(records, format, f.switches.has('bom'), all.records.map((r) => r.text));
    await writeFileAtomic(file, text);
    if (ctx.json) printJson(ctx, { file, format, records: records.length });
    else ctx.stdout.write(`exported ${records.length} record(s) to ${file} (${format})\n`);
    return reportProblems(ctx, all.problems);
  },
};

const importCmd: CliCommand = {
  name: 'import',
  args: 'WENZI_DATA_DIR',
  summary: "import WenZi's conversation_history.jsonl and archives, skipping duplicates",
  async run(ctx, argv) {
    const f = parseFlags(argv, [], []);
    if (f.positionals.length !== 1) throw new UsageError('expected one WENZI_DATA_DIR');
    return runImport(ctx, f.positionals[0] ?? '');
  },
};

const stats: CliCommand = {
  name: 'stats',
  args: '[--days 7|14|30]',
  summary: 'dictations, minutes spoken, corrections and tokens per day and per mode',
  async run(ctx, argv) {
    const f = parseFlags(argv, ['days'], []);
    if (f.positionals.length) throw new UsageError(`unexpected argument '${f.positionals[0]}'`);
    const days = Number(f.values.get('days') ?? 7);
    if (days !== 7 && days !== 14 && days !== 30) throw new UsageError('--days must be 7, 14 or 30');
    const { value: s, problems } = await withIndex(ctx, (index) => index.stats({ days, tzOffsetMinutes: -new Date().getTimezoneOffset() }));
    if (ctx.json) printJson(ctx, s);
    else {
      ctx.stdout.write(`${'DAY'.padEnd(10)}  DICTATIONS  MINUTES  CORRECTED  TOKENS\n`);
      for (const d of s.perDay) ctx.stdout.write(`${d.day}  ${String(d.dictations).padStart(10)}  ${d.minutesSpoken.toFixed(1).padStart(7)}  ${String(d.corrected).padStart(9)}  ${d.promptTokens + d.completionTokens}\n`);
      for (const [mode, c] of Object.entries(s.perMode)) ctx.stdout.write(`mode ${mode}: ${c.dictations} dictation(s), ${c.minutesSpoken.toFixed(1)} min\n`);
    }
    return reportProblems(ctx, problems);
  },
};

const rotate: CliCommand = {
  name: 'rotate',
  args: '',
  summary: "run the seed's rotation check now (over 4 MB and 20,000 records: archive the oldest)",
  async run(ctx, argv) {
    if (parseFlags(argv, [], []).positionals.length) throw new UsageError('rotate takes no arguments');
    return withWriteLock(ctx, async (svc) => {
      const before = svc.store.rotationsCompleted;
      await svc.store.rotateNow();
      await svc.settled();
      const active = (await svc.store.readFile('active')).length;
      const rotated = svc.store.rotationsCompleted > before;
      if (ctx.json) printJson(ctx, { rotated, activeRecords: active, files: await svc.store.listFiles() });
      else ctx.stdout.write(`${rotated ? 'rotated' : 'nothing to rotate'}; ${active} record(s) in the active file\n`);
      return EXIT_OK;
    });
  },
};

const reindex: CliCommand = {
  name: 'reindex',
  args: '',
  summary: 'rebuild the search index from the JSONL files',
  async run(ctx, argv) {
    if (parseFlags(argv, [], []).positionals.length) throw new UsageError('reindex takes no arguments');
    return withWriteLock(ctx, async (svc) => {
      await svc.rebuildIndex();
      const count = svc.indexOrNull?.count();
      if (count === undefined) throw new Error('the index rebuild failed (see the warnings above)');
      if (ctx.json) printJson(ctx, { records: count });
      else ctx.stdout.write(`index rebuilt: ${count} record(s)\n`);
      return reportProblems(ctx, svc.problems);
    });
  },
};

/** `tingxie history …` */
export const historyGroup: CliGroup = {
  name: 'history',
  summary: 'browse, search, export and maintain the dictation history',
  commands: [list, search, show, exportCmd, importCmd, stats, rotate, reindex],
};
