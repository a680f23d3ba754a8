/**
 * The app's hold on its data folder, taken before anything writes there, and the log opened right after
 * it (the log lives in the folder and says how the lock was taken).
 */
import { app, dialog } from 'electron';
import { DataDirLockedError, acquireDataLock, lockFailedUnwritable, type DataLock } from '../platform/data-lock.ts';
import { createFileLogger, type Logger } from '../platform/logger.ts';
import { format } from './messages.ts';
import { startupMessages } from './startup-language.ts';

/** The data-folder lock, and why there is none when the folder cannot be written (null: a real lock). */
export interface HeldDataFolder {
  readonly lock: DataLock;
  readonly problem: string | null;
}

/** Takes the data-folder lock; another running app (or another failure) is said in a dialog and exits 1 (null). */
export function holdDataFolder(dataDir: string): HeldDataFolder | null {
  try {
    return { lock: acquireDataLock(dataDir, { role: 'app' }), problem: null };
  } catch (err) {
    // A folder that cannot be written (read-only, full) cannot hold a lock file, and needs none: nothing
    // can write there. The app starts degraded (history browsable, records kept in memory) instead of not at all.
    if (lockFailedUnwritable(err)) {
      const problem = `${(err as NodeJS.ErrnoException).code}: ${(err as Error).message}`;
      return { problem, lock: { path: '', owner: { pid: process.pid, hostname: '', startedAt: '', role: 'app' }, tookOverFrom: null, release: () => undefined } };
    }
    const m = startupMessages();
    const message = err instanceof DataDirLockedError ? err.message : format(m.lockFailed, { dir: dataDir, error: String(err) });
    console.error(message);
    dialog.showErrorBox(m.lockedTitle, message);
    app.exit(1);
    return null;
  }
}

/** Opens the main log in `logsDir` and records how the app started. */
export function openAppLog(logsDir: string, dataDir: string, held: HeldDataFolder): Logger {
  const log = createFileLogger({ dir: logsDir, level: process.env.TINGXIE_LOG_LEVEL === 'debug' ? 'debug' : 'info' });
  log.info('starting', { version: app.getVersion(), electron: process.versions.electron, dataDir, pid: process.pid });
  if (held.lock.tookOverFrom) log.warn('took over a stale data-folder lock', { from: held.lock.tookOverFrom });
  if (held.problem !== null) log.warn('the data folder cannot be written; starting without its lock, history read-only', { error: held.problem });
  return log;
}
