import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { recordKey, type StoredRecord } from '../../../shared/history/record.ts';
import type { HistoryStore, RecordPlacement } from '../store/history-store.ts';
import { ODD_ARCHIVE_NAME_REASON, SYMLINK_ARCHIVE_REASON, skippedArchiveEntries } from '../history-problems.ts';
import { readJsonlBatches, type JsonlLine } from '../store/jsonl-reader.ts';
import { NotRegularFileError } from '../store/line-scan.ts';
import { archiveMonthOfFileName, historyPaths } from '../paths.ts';
import { archiveMonthOf } from '../rotation/rotation.ts';

/**
 * Why a source file was not read, as a kind the UI can say in words of its language: a symbolic link, a
 * name that is not an archive's, a folder, another file that is not a regular file (FIFO, socket,
 * device), or a read that failed (permission, I/O error).
 */
export type SkipCause = 'symbolic-link' | 'not-an-archive-name' | 'folder' | 'not-a-regular-file' | 'read-failed';

/** A source file that was not read (or not to the end), and why (`reason`: the technical text, in English). */
export interface SkippedSource {
  readonly path: string;
  readonly cause: SkipCause;
  readonly reason: string;
}

/** A source file of an import: the active file or a month archive. */
export interface WenziSource {
  readonly file: string;
  readonly archived: boolean;
}

/** A line of the source that could not be read as a record (left untouched there). */
export interface UnreadableSourceLine {
  readonly path: string;
  readonly line: number;
  readonly reason: string;
}

/** Outcome of an import. */
export interface ImportReport {
  readonly imported: number;
  /** Already present (same key, or same timestamp + asr_text + final_text). */
  readonly duplicates: number;
  /** Unreadable lines in the source (left untouched there), invalid UTF-8 included. */
  readonly badLines: number;
  /** The first {@link MAX_NAMED_LINES} unreadable lines, named (present only when there are some). */
  readonly unreadable?: readonly UnreadableSourceLine[];
  /** Source files not read, and why (present only when there are some): not regular files, symbolic links, names that are not archives'. */
  readonly skipped?: readonly SkippedSource[];
}

/** How many unreadable lines a report names (all are counted). */
export const MAX_NAMED_LINES = 1000;

/**
 * Records per `addRecords` call: each one appends to the archives and updates the index in one
 * transaction, so memory stays bounded by a batch (not by the import) and no step grows with the total.
 */
const IMPORT_BATCH = 50_000;

/**
 * Identity of a record's content (timestamp + asr_text + final_text), hashed so that a million of them
 * cost ~100 MB of keys instead of every text twice over.
 */
const contentKey = (r: StoredRecord): string =>
  createHash('sha256').update(`${r.timestamp}\u0000${r.asr_text}\u0000${r.final_text}`).digest('base64');

/** Sort key of a timestamp as `mergeIntoActive` orders lines: unparseable ones first. */
const timeOf = (r: StoredRecord): number => {
  const t = Date.parse(r.timestamp);
  return Number.isNaN(t) ? -Infinity : t;
};

/** The cause of an archives-folder entry that is not read, from its reason (history-problems.ts). Pure. */
function archiveSkipCause(reason: string): SkipCause {
  if (reason === SYMLINK_ARCHIVE_REASON) return 'symbolic-link';
  return reason === ODD_ARCHIVE_NAME_REASON ? 'not-an-archive-name' : 'read-failed';
}

/** The cause of an error met reading a source file (line-scan.ts codes: EISDIR, ELOOP, ENOTREG). Pure. */
function readSkipCause(err: unknown): SkipCause {
  if (!(err instanceof NotRegularFileError)) return 'read-failed';
  if (err.code === 'EISDIR') return 'folder';
  return err.code === 'ELOOP' ? 'symbolic-link' : 'not-a-regular-file';
}

/** The source files of a WenZi folder: the active file, then archives by name; entries not read are named. */
export async function listWenziSources(wenziDir: string): Promise<{ files: WenziSource[]; skipped: SkippedSource[] }> {
  const src = historyPaths(wenziDir);
  const files: WenziSource[] = [{ file: src.active, archived: false }];
  let entries: Dirent[] = [];
  try {
    entries = await readdir(src.archivesDir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // Links and other names are named, never followed or ignored silently; a folder or FIFO under an
  // archive's name is refused when it is opened (line-scan.ts `openRegularFile`) and named then.
  const skipped = skippedArchiveEntries(src.archivesDir).map((e) => ({ path: e.path, cause: archiveSkipCause(e.reason), reason: e.reason }));
  const archives = entries.filter((e) => !e.isSymbolicLink() && archiveMonthOfFileName(e.name) !== null).map((e) => e.name);
  for (const n of archives.sort()) files.push({ file: path.join(src.archivesDir, n), archived: true });
  return { files, skipped };
}

/** Keys and content identities of everything the store holds, streamed file by file. */
async function existingIdentities(store: HistoryStore): Promise<{ keys: Set<string>; contents: Set<string> }> {
  const keys = new Set<string>();
  const contents = new Set<string>();
  for (const f of await store.listFiles()) {
    for await (const batch of readJsonlBatches(store.pathOf(f))) {
      for (const l of batch.lines) {
        if (l.kind !== 'record') continue;
        keys.add(recordKey(l.record));
        contents.add(contentKey(l.record));
      }
    }
  }
  return { keys, contents };
}

/** Mutable state of one import run. */
interface ImportRun {
  readonly store: HistoryStore;
  readonly keys: Set<string>;
  readonly contents: Set<string>;
  archived: RecordPlacement[];
  readonly activeCandidates: RecordPlacement[];
  imported: number;
  duplicates: number;
  badLines: number;
  readonly unreadable: UnreadableSourceLine[];
  readonly skipped: SkippedSource[];
}

/** Takes one source line: counts it as bad or duplicate, or queues it for its file. */
function takeLine(run: ImportRun, source: WenziSource, l: JsonlLine): void {
  if (l.kind === 'bad') {
    run.badLines++;
    if (run.unreadable.length < MAX_NAMED_LINES) run.unreadable.push({ path: source.file, line: l.line, reason: l.reason });
    return;
  }
  const k = recordKey(l.record);
  const c = contentKey(l.record);
  if (run.keys.has(k) || run.contents.has(c)) {
    run.duplicates++;
    return;
  }
  run.keys.add(k);
  run.contents.add(c);
  if (source.archived) run.archived.push({ record: l.record, text: l.text, target: { month: archiveMonthOf(l.record.timestamp) } });
  else run.activeCandidates.push({ record: l.record, text: l.text, target: 'active' });
}

/** Writes the archived records queued so far (appends + index update), freeing them. */
async function flushArchived(run: ImportRun): Promise<void> {
  if (run.archived.length === 0) return;
  const batch = run.archived;
  run.archived = [];
  run.imported += await run.store.addRecords(batch);
}

/** Reads one source file in streamed batches; a file that is not a regular file (or fails to read) is named as skipped. */
async function importSource(run: ImportRun, source: WenziSource): Promise<void> {
  let lastLine = 0;
  try {
    for await (const batch of readJsonlBatches(source.file)) {
      for (const l of batch.lines) {
        takeLine(run, source, l);
        lastLine = l.line;
      }
      if (run.archived.length >= IMPORT_BATCH) await flushArchived(run);
    }
  } catch (err) {
    if (!(err instanceof NotRegularFileError) && typeof (err as NodeJS.ErrnoException).code !== 'string') throw err;
    const partly = lastLine > 0 ? ` (read up to line ${lastLine}; what was read is imported)` : '';
    run.skipped.push({ path: source.file, cause: readSkipCause(err), reason: `${(err as Error).message}${partly}` });
  }
}

/**
 * Imports a WenZi data folder (conversation_history.jsonl + conversation_history_archives/*.jsonl) without
 * duplicates. Records keep their timestamps and raw lines (unknown fields and shapes, WenZi's
 * object `input_context` included, stay byte for byte). WenZi's archived records go to their month
 * archives, in batches as they are read (memory and time grow linearly with the import); of its active
 * records and the store's own, the newest `maxActiveRecords` by timestamp are what the active file
 * keeps — what WenZi's rotation keeps — and the rest go to their month archives (imported ones directly;
 * the store's own by the rotation `addRecords` runs after merging in time order). Only regular files are
 * read: FIFOs, devices, folders and symbolic links are named in `skipped`, as are files of the archives
 * folder whose names are not archives'; unreadable lines (invalid UTF-8 included) are counted and named.
 * Re-running after a crash is safe: what was already imported is skipped as a duplicate.
 */
export async function importWenziFolder(store: HistoryStore, wenziDir: string): Promise<ImportReport> {
  const sources = await listWenziSources(wenziDir);
  const run: ImportRun = {
    store,
    ...(await existingIdentities(store)),
    archived: [],
    activeCandidates: [],
    imported: 0,
    duplicates: 0,
    badLines: 0,
    unreadable: [],
    skipped: sources.skipped,
  };
  for (const s of sources.files) await importSource(run, s);
  await flushArchived(run);
  const placements = placeActive(await store.readFile('active'), run.activeCandidates, store.maxActiveRecords);
  // Candidates that fall out of the active file go to their archives first, as the rest of the archived.
  run.archived = placements.filter((p) => p.target !== 'active');
  await flushArchived(run);
  const active = placements.filter((p) => p.target === 'active');
  // Called even when empty: a fresh data folder gets its active file.
  run.imported += await store.addRecords(active);
  return {
    imported: run.imported,
    duplicates: run.duplicates,
    badLines: run.badLines,
    ...(run.unreadable.length ? { unreadable: run.unreadable } : {}),
    ...(run.skipped.length ? { skipped: run.skipped } : {}),
  };
}

/**
 * Which imported active records stay active: the store's active records and the candidates in the
 * order `mergeIntoActive` writes them (stable by time, the store's first), of which the last `max` are
 * kept. Candidates before that point go straight to their month archive. Pure.
 */
export function placeActive(existingActive: readonly StoredRecord[], candidates: readonly RecordPlacement[], max: number): RecordPlacement[] {
  const order: { t: number; c: RecordPlacement | null }[] = [];
  for (const r of existingActive) order.push({ t: timeOf(r), c: null });
  for (const c of candidates) order.push({ t: timeOf(c.record), c });
  order.sort((a, b) => a.t - b.t);
  const firstKept = Math.max(0, order.length - max);
  const out: RecordPlacement[] = [];
  order.forEach((o, i) => {
    if (o.c) out.push(i >= firstKept ? o.c : { ...o.c, target: { month: archiveMonthOf(o.c.record.timestamp) } });
  });
  return out;
}
