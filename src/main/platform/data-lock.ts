/**
 * An exclusive lock on the data folder, so two Tingxie processes (say the app and a second copy
 * started with another profile, or the app launched twice from different installs) never append to
 * the same history file at once. Electron's single-instance lock does not cover this: it is keyed on
 * the userData path, and the CLI is not Electron at all.
 *
 * The lock is a file `<dataDir>/tingxie.lock` holding the owner's pid, host and start time. It is
 * created atomically (written to a temp file, then hard-linked into place, which fails if the lock
 * exists), so a reader never sees a half-written lock. A lock whose owner is dead — or whose pid now
 * belongs to a different process (pid reuse) — is stale and taken over. Pure Node: no electron.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** File name of the lock inside the data folder. */
export const LOCK_FILE_NAME = 'tingxie.lock';

/** OS error codes of a folder that cannot be written at all (read-only, no permission, full). */
const UNWRITABLE_CODES: ReadonlySet<string> = new Set(['EROFS', 'EACCES', 'EPERM', 'ENOSPC', 'EDQUOT']);

/**
 * True when taking the lock failed because the folder cannot be written (not because another process
 * holds it): such a folder needs no lock, since nothing can write there, and callers go on read-only.
 */
export function lockFailedUnwritable(err: unknown): boolean {
  return !(err instanceof DataDirLockedError) && UNWRITABLE_CODES.has((err as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** What the lock file records about its owner. */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  /** ISO time the owning process started. */
  readonly startedAt: string;
  /** Linux only: the process start time in clock ticks since boot (/proc/<pid>/stat field 22), to detect pid reuse. */
  readonly procStart?: string;
  /** What took the lock, e.g. 'app' or 'cli'. */
  readonly role: string;
}

/** A held lock; release() removes the file if it is still ours. */
export interface DataLock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Set when a stale lock left by a dead process was taken over. */
  readonly tookOverFrom: LockOwner | null;
  release(): void;
}

/** Thrown when another live process holds the lock. */
export class DataDirLockedError extends Error {
  readonly lockPath: string;
  readonly holder: LockOwner;
  constructor(dataDir: string, lockPath: string, holder: LockOwner) {
    super(
      `The Tingxie data folder ${dataDir} is in use by another process (pid ${holder.pid} on ${holder.hostname}, ` +
        `${holder.role}, started ${holder.startedAt}). Quit that process first; if it is not Tingxie, delete ${lockPath}.`,
    );
    this.name = 'DataDirLockedError';
    this.lockPath = lockPath;
    this.holder = holder;
  }
}

/** Injectable process probes (tests use the real ones; the seam exists for other platforms). */
export interface LockProbes {
  /** Whether a process with this pid exists on this machine. */
  readonly isAlive: (pid: number) => boolean;
  /** The start marker of a live pid, or undefined when the platform cannot tell. */
  readonly procStart: (pid: number) => string | undefined;
}

/** The real probes: signal 0 for liveness, /proc for the start time on Linux. */
export const realProbes: LockProbes = {
  isAlive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      // EPERM: it exists but belongs to another user — still alive.
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  procStart(pid) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name (field 2) may contain spaces and parentheses: count from the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[19]; // field 22 overall = index 19 after pid and comm
    } catch {
      return undefined;
    }
  },
};

/** Takes the lock on `dataDir` (creating the folder), taking over a stale one; throws DataDirLockedError otherwise. */
export function acquireDataLock(dataDir: string, opts: { role?: string; probes?: LockProbes } = {}): DataLock {
  const probes = opts.probes ?? realProbes;
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, LOCK_FILE_NAME);
  const procStart = probes.procStart(process.pid);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    ...(procStart === undefined ? {} : { procStart }),
    role: opts.role ?? 'app',
  };
  const text = `${JSON.stringify(owner)}\n`;
  let tookOverFrom: LockOwner | null = null;

  // A few rounds: each lost race (another process took over the same stale lock first) retries.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockPath, text)) {
      return { path: lockPath, owner, tookOverFrom, release: () => releaseIfOurs(lockPath, text) };
    }
    const existing = readLock(lockPath);
    if (existing === 'missing') continue; // released between our attempt and the read
    if (existing !== 'unreadable' && !isStale(existing, probes)) throw new DataDirLockedError(dataDir, lockPath, existing);
    // Stale (or garbage): move it aside under a unique name, then check we moved what we judged.
    const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(lockPath, aside);
    } catch {
      continue; // someone else moved it first
    }
    const moved = readLock(aside);
    if (existing === 'unreadable' || (typeof moved === 'object' && sameOwner(moved, existing))) {
      tookOverFrom = existing === 'unreadable' ? null : existing;
      safeUnlink(aside);
      continue;
    }
    // We grabbed a lock someone else had just created: put it back (link fails if a new one exists).
    try {
      linkSync(aside, lockPath);
    } catch {
      /* a newer lock is in place; the loop re-evaluates it */
    }
    safeUnlink(aside);
  }
  const holder = readLock(lockPath);
  if (typeof holder === 'object') throw new DataDirLockedError(dataDir, lockPath, holder);
  throw new Error(`Could not take the lock ${lockPath}: it keeps changing under us. Is another Tingxie starting?`);
}

/** Who holds the lock on `dataDir` right now (null when free or stale). */
export function currentLockHolder(dataDir: string, probes: LockProbes = realProbes): LockOwner | null {
  const existing = readLock(join(dataDir, LOCK_FILE_NAME));
  if (typeof existing !== 'object' || isStale(existing, probes)) return null;
  return existing;
}

function tryCreate(lockPath: string, text: string): boolean {
  const tmp = `${lockPath}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, text, { mode: 0o644 });
  try {
    linkSync(tmp, lockPath);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    safeUnlink(tmp);
  }
}

function readLock(path: string): LockOwner | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (typeof v.pid !== 'number' || !Number.isInteger(v.pid) || v.pid <= 0 || typeof v.hostname !== 'string') return 'unreadable';
    return {
      pid: v.pid,
      hostname: v.hostname,
      startedAt: typeof v.startedAt === 'string' ? v.startedAt : 'unknown',
      ...(typeof v.procStart === 'string' ? { procStart: v.procStart } : {}),
      role: typeof v.role === 'string' ? v.role : 'unknown',
    };
  } catch {
    return 'unreadable';
  }
}

/** A lock is stale when its owner on this host is gone or its pid now names another process. */
function isStale(owner: LockOwner, probes: LockProbes): boolean {
  // A lock from another machine (shared folder) cannot be probed: respect it.
  if (owner.hostname !== hostname()) return false;
  if (owner.pid === process.pid) return true; // left by an earlier run that had our pid; we are not holding it
  if (!probes.isAlive(owner.pid)) return true;
  if (owner.procStart !== undefined) {
    const now = probes.procStart(owner.pid);
    if (now !== undefined && now !== owner.procStart) return true;
  }
  return false;
}

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.pid === b.pid && a.hostname === b.hostname && a.startedAt === b.startedAt && a.procStart === b.procStart;
}

function releaseIfOurs(lockPath: string, text: string): void {
  try {
    if (readFileSync(lockPath, 'utf8') === text) unlinkSync(lockPath);
  } catch {
    /* already gone */
  }
}

function safeUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* ignore */
  }
}
