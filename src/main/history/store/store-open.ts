import { access, constants, lstat, stat } from 'node:fs/promises';
import { ensureDir } from '../../platform/durable-fs.ts';
import { removeStaleTempFiles } from '../../platform/stale-temp.ts';
import { repairTail, type TailRepair } from './jsonl-log.ts';
import { MAX_LINE_BYTES } from './jsonl-reader.ts';
import { nonRegularKind } from './line-scan.ts';
import { historyPaths, type HistoryPaths } from '../paths.ts';
import { recoverRotation, rotationIntentPath } from '../rotation/rotation-run.ts';
import { setAsideOversized } from './store-files.ts';
import { errorText, isDiskError, type HistoryHealth, type HistoryStoreOptions, type OpenReport } from './store-types.ts';

/**
 * The start-up steps of the history store, each one allowed to fail on the state of the disk: a
 * read-only or full folder must still open (browsing works, new records wait in memory). What could
 * not be done is left to later: the rotation to the scheduler, the tail repair to the next append.
 */

/** What opening found, and the store's initial repair state. */
export interface OpenedFiles {
  readonly paths: HistoryPaths;
  readonly report: OpenReport;
  readonly state: { readonly tailClean: boolean; readonly rotationPending: boolean };
}

/** Why the folder cannot be written (read-only file system, no permission), or null when it can. */
async function unwritable(dir: string): Promise<string | null> {
  try {
    await access(dir, constants.W_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENOENT: the folder could not even be created (a read-only parent); the rest is checked by writing.
    return code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' ? errorText(err) : null;
  }
}

/**
 * Why the active file cannot be used (a FIFO, socket, device, folder or symbolic link under its name),
 * or null when it is a regular file or missing. Checked with lstat, before anything opens it: opening a
 * FIFO blocks until another process opens its other end (man 7 fifo), and the atomic rewrites would
 * replace a link with a plain file.
 */
async function activeNotRegular(file: string): Promise<string | null> {
  try {
    const kind = nonRegularKind(await lstat(file));
    return kind === null ? null : `${kind.code}: ${file} is ${kind.what}, not a regular file`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** Runs the store's start-up steps; never throws for the state of the disk (other errors are bugs and do). */
export async function openStoreFiles(opts: HistoryStoreOptions): Promise<OpenedFiles> {
  const paths = historyPaths(opts.dataDir);
  const warn = opts.warn ?? ((m: string) => console.warn(m));
  const nowIso = (opts.now?.() ?? new Date()).toISOString();
  let health: HistoryHealth | null = null;
  const degrade = (state: HistoryHealth['state'], reason: string): void => {
    health ??= { state, reason, pending: 0, since: nowIso };
  };
  /** Runs a step; an OS error is reported and the step left for later instead of failing the open. */
  const tolerate = async <T>(step: string, fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> => {
    try {
      return { ok: true, value: await fn() };
    } catch (err) {
      if (!isDiskError(err)) throw err;
      // Reads and appends still work; the step is retried later (see the file comment).
      warn(`history: ${step} failed at start (${errorText(err)}); retried later`);
      return { ok: false };
    }
  };

  if (opts.readOnly === true) {
    // Nothing is written: an unfinished rotation or a torn tail is left for a writer to repair.
    return {
      paths,
      report: { tail: { kind: 'clean' }, recoveredRotation: null, health: { state: 'read-only', reason: 'opened read-only', pending: 0, since: nowIso }, staleTempFiles: 0, oversizedSetAside: 0 },
      state: { tailClean: false, rotationPending: await exists(rotationIntentPath(paths)) },
    };
  }

  await tolerate('creating the folder', () => ensureDir(paths.dataDir));
  const odd = await activeNotRegular(paths.active);
  const ro = odd ?? (await unwritable(paths.dataDir));
  if (odd !== null) warn(`history: ${odd}; history is read-only until it is replaced by a regular file, new records are kept in memory`);
  if (ro !== null) {
    if (odd === null) warn(`history: the data folder cannot be written (${ro}); history is read-only, new records are kept in memory`);
    degrade('read-only', ro);
    return {
      paths,
      report: { tail: { kind: 'clean' }, recoveredRotation: null, health, staleTempFiles: 0, oversizedSetAside: 0 },
      state: { tailClean: false, rotationPending: await exists(rotationIntentPath(paths)) },
    };
  }

  const recovery = await tolerate('finishing an interrupted rotation', () => recoverRotation(paths, nowIso, warn));
  const recoveredRotation = recovery.ok ? recovery.value : null;
  const rotationPending = !recovery.ok;

  const repair = await tolerate('repairing the last line', () => repairTail(paths.active, paths.quarantine, 'active', nowIso));
  const tail: TailRepair = repair.ok ? repair.value : { kind: 'clean' };
  if (tail.kind === 'quarantined') warn(`history: torn last line moved to ${paths.quarantine} (${tail.reason})`);

  const sweep = await removeStaleTempFiles([paths.dataDir, paths.archivesDir, paths.journalDir]);
  if (sweep.files.length > 0) warn(`history: removed ${sweep.files.length} temp file(s) left by crashed saves (${sweep.bytes} bytes)`);

  let oversizedSetAside = 0;
  const size = await stat(paths.active).then((st) => st.size, () => 0);
  // Only a file bigger than the line limit can hold a line that is too long (then it costs one streamed pass).
  if (size > MAX_LINE_BYTES && !rotationPending && repair.ok) {
    const r = await tolerate('setting aside lines too long to read', () => setAsideOversized(paths, 'active', nowIso));
    oversizedSetAside = r.ok ? r.value : 0;
    if (oversizedSetAside > 0) warn(`history: ${oversizedSetAside} line(s) of the active file too long to read were moved to ${paths.quarantine}`);
  }

  return {
    paths,
    report: { tail, recoveredRotation, health, staleTempFiles: sweep.files.length, oversizedSetAside },
    state: { tailClean: repair.ok, rotationPending },
  };
}
