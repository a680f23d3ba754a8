import { recordKey, type RecordUpdate, type StoredRecord } from '../../../shared/history/record.ts';
import { appendDurable, ensureDir, unlinkDurable, writeFileAtomic } from '../../platform/durable-fs.ts';
import type { HotCache } from './hot-cache.ts';
import { readLines, repairTail, rewriteLines } from './jsonl-log.ts';
import { parseJsonlLine, setTopLevelFields, type JsonlLine } from './jsonl-reader.ts';
import type { HistoryPaths } from '../paths.ts';
import type { RotationScheduler } from '../rotation/rotation-scheduler.ts';
import { assertRewritable, listFileLabels, locateKey, mergeIntoActive, pathOfLabel, setAsideOversized, UnrewritableFileError } from './store-files.ts';
import type { HistoryFileLabel, RecordPlacement, StoreEvent } from './store-types.ts';

/**
 * The history store's whole-file rewrites: edits, deletes, clearing, imports and setting aside
 * oversized lines. Each one runs inside the store's write queue once no rotation is running and the
 * repairs are done (the store sees to that); here is only what each one writes, and what it tells the
 * hot cache, the rotation scheduler and the store's listeners afterwards. Kept apart from the store so
 * that the store is the queue and the append path, and these bodies can be read one by one.
 */

/** What a rewrite needs from the store. */
export interface RewriteHost {
  readonly paths: HistoryPaths;
  readonly now: () => Date;
  /** Where the index believes a key lives (HistoryStoreOptions.locate). */
  readonly locateHint: ((key: string) => HistoryFileLabel | undefined) | undefined;
  readonly hot: HotCache;
  readonly rotation: Pick<RotationScheduler, 'rewritten' | 'checkForced'>;
  /** Something changed: bumps the change counter, then tells the listeners `event` (when given). */
  readonly changed: (event?: StoreEvent) => void;
}

/** Changes fields of a record on disk (active or archived) and sets `edited_at`; null when the key is unknown. */
export async function updateOnDisk(host: RewriteHost, key: string, changes: RecordUpdate): Promise<StoredRecord | null> {
  const found = await locateKey(host.paths, key, host.locateHint?.(key));
  if (!found) return null;
  const line = found.lines[found.index];
  if (line?.kind !== 'record') return null;
  // Edit the line's text, not a re-serialised object: fields Tingxie does not know (and WenZi's
  // omissions and spellings) survive byte for byte, and a deeply nested one cannot overflow the stack.
  const text = setTopLevelFields(line.text, { ...changes, edited_at: host.now().toISOString() });
  const parsed = parseJsonlLine(text);
  if (!parsed.ok) throw new Error(`history: update produced an invalid record (${parsed.reason})`);
  const lines = found.lines.slice();
  lines[found.index] = { kind: 'record', line: line.line, text, record: parsed.record };
  await rewrite(host, found.file, lines);
  if (found.file === 'active') host.hot.onUpdate(key, parsed.record);
  host.changed({ type: 'updated', file: found.file, record: parsed.record });
  return parsed.record;
}

/** Deletes a record on disk (active or archived); false when the key is unknown. */
export async function deleteOnDisk(host: RewriteHost, key: string): Promise<boolean> {
  const found = await locateKey(host.paths, key, host.locateHint?.(key));
  if (!found) return false;
  await rewrite(host, found.file, found.lines.filter((_, i) => i !== found.index));
  afterDelete(host, found.file, [key]);
  return true;
}

/**
 * Deletes every record matching `predicate` in every file; returns how many. A file that cannot be
 * rewritten (lines that are not valid UTF-8) does not stop the others: they are done first, then the
 * refusal is thrown, naming every such file.
 */
export async function deleteMatching(host: RewriteHost, predicate: (r: StoredRecord) => boolean): Promise<number> {
  let total = 0;
  const refused: UnrewritableFileError[] = [];
  for (const file of await listFileLabels(host.paths)) {
    const lines = await readLines(pathOfLabel(host.paths, file));
    const keys: string[] = [];
    const kept = lines.filter((l) => {
      if (l.kind !== 'record' || !predicate(l.record)) return true;
      keys.push(recordKey(l.record));
      return false;
    });
    if (keys.length === 0) continue;
    try {
      await rewrite(host, file, kept);
    } catch (err) {
      if (!(err instanceof UnrewritableFileError)) throw err;
      refused.push(err);
      continue;
    }
    afterDelete(host, file, keys);
    total += keys.length;
  }
  if (refused.length === 1) throw refused[0];
  if (refused.length > 1) throw new Error(`history: ${total} record(s) deleted; ${refused.length} file(s) left unchanged:\n${refused.map((e) => e.message).join('\n')}`);
  return total;
}

/** Empties the active file and removes the archives (the quarantine file is kept). */
export async function clearFiles(host: RewriteHost): Promise<void> {
  const files = await listFileLabels(host.paths);
  for (const f of files) {
    if (f === 'active') await writeFileAtomic(host.paths.active, '');
    else await unlinkDurable(pathOfLabel(host.paths, f));
  }
  host.rotation.rewritten(0);
  host.hot.invalidate();
  host.changed({ type: 'cleared', files });
}

/**
 * Adds existing records (import): archive targets are appended to their month files, active targets
 * merged into the active file in timestamp order, then the count check runs without the 4 MB guard.
 */
export async function addPlaced(host: RewriteHost, items: readonly RecordPlacement[]): Promise<number> {
  const { paths } = host;
  // A fresh data folder gets its active file even when everything imported was archived.
  await appendDurable(paths.active, '');
  if (items.length === 0) return 0;
  const nowIso = host.now().toISOString();
  const byMonth = new Map<string, string[]>();
  const toActive: RecordPlacement[] = [];
  for (const it of items) {
    if (it.target === 'active') {
      toActive.push(it);
      continue;
    }
    // Appended in place: copying the month's list per record made a 1,000,000-record import quadratic.
    const texts = byMonth.get(it.target.month);
    if (texts) texts.push(it.text);
    else byMonth.set(it.target.month, [it.text]);
  }
  if (byMonth.size) await ensureDir(paths.archivesDir);
  for (const [month, texts] of byMonth) {
    await repairTail(paths.archive(month), paths.quarantine, month, nowIso);
    await appendDurable(paths.archive(month), `${texts.join('\n')}\n`);
  }
  if (toActive.length) host.rotation.rewritten(await mergeIntoActive(paths, toActive, nowIso));
  host.hot.invalidate();
  host.changed({ type: 'added', rows: items.map((it) => ({ record: it.record, file: it.target === 'active' ? 'active' : it.target.month })) });
  host.rotation.checkForced();
  return items.length;
}

/** Moves the lines of `file` too long to read to the quarantine file; returns how many. */
export async function setAsideLines(host: RewriteHost, file: HistoryFileLabel): Promise<number> {
  const n = await setAsideOversized(host.paths, file, host.now().toISOString());
  if (n > 0) {
    if (file === 'active') host.rotation.rewritten(null);
    host.changed();
  }
  return n;
}

function afterDelete(host: RewriteHost, file: HistoryFileLabel, keys: readonly string[]): void {
  if (file === 'active') {
    host.rotation.rewritten(null);
    host.hot.onDelete(new Set(keys));
  }
  host.changed({ type: 'deleted', file, keys });
}

async function rewrite(host: RewriteHost, file: HistoryFileLabel, lines: readonly JsonlLine[]): Promise<void> {
  assertRewritable(host.paths, file, lines);
  const texts = lines.flatMap((l) => (l.kind === 'record' ? [l.text] : []));
  await rewriteLines(pathOfLabel(host.paths, file), texts, lines, host.paths.quarantine, file, host.now().toISOString());
  if (file === 'active') host.rotation.rewritten(texts.length);
}
