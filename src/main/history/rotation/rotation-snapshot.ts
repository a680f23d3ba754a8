import { open, rename, type FileHandle } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { recordKey } from '../../../shared/history/record.ts';
import { ensureDir, fsyncDir, unlinkDurable, writeFileAtomic } from '../../platform/durable-fs.ts';
import { writeFully } from '../../platform/write-fully.ts';
import { openRegular, READ_WRITE_FLAGS } from '../../platform/regular-open.ts';
import { appendQuarantine, appendQuarantineFromFile, QUARANTINED_INVALID_UTF8_REASON, type LocatedEntry, type QuarantineEntry } from '../store/jsonl-log.ts';
import { jsonlLineOfRaw } from '../store/jsonl-reader.ts';
import { openRegularFile, scanHandle, type RawLine } from '../store/line-scan.ts';
import type { HistoryPaths } from '../paths.ts';
import { archiveMonthOf, type RotationMove } from './rotation.ts';
import { appendToArchives, removeRotationTemp, rotationIntentPath, rotationTempPath, type RotationIntent, type RotationResult } from './rotation-run.ts';

/**
 * The seed's rotation, run off the write path. The heavy phase works on a snapshot of the active file
 * (its first `snapshotBytes` bytes, which appends never change) while `log()` keeps appending after it:
 * it reads only the head (the records that move), writes the intent and the archive appends, and copies
 * the kept bytes into the temp file. The commit, run by the caller inside its write queue, copies the few
 * bytes appended since the snapshot, fsyncs, renames and fsyncs the folder: about the cost of one append.
 * See rotation-run.ts for the crash-recovery protocol this follows.
 */

const CHUNK = 256 * 1024;
/** Bytes written between data syncs of the temp file. */
const SYNC_EVERY = 512 * 1024;
/** Bytes freed per step when the replaced file is released. */
const FREE_STEP = 512 * 1024;

/**
 * Calls `onLine(line, endOffset)` for every complete line in the first `limit` bytes, yielding between
 * chunks; a line longer than the limit comes with `text` null (never decoded; see line-scan.ts).
 */
async function forEachLine(fh: FileHandle, limit: number, onLine: (line: RawLine, end: number) => boolean | void): Promise<void> {
  for await (const batch of scanHandle(fh, { limit, chunkBytes: CHUNK })) {
    for (const line of batch) {
      // An unterminated last piece is not a line yet (the snapshot always ends at a newline anyway).
      if (!line.terminated) return;
      if (onLine(line, line.offset + line.bytes + 1) === false) return;
    }
    // Parsing is CPU work on the main thread: let queued appends (and IPC) run between chunks.
    await yieldToLoop();
  }
}

/** Records in the first `limit` bytes of a file, as the reader counts them (jsonl-reader.ts): the seed's count check, done once per session. */
export async function countRecords(filePath: string, limit: number): Promise<number> {
  const fh = await openRegularFile(filePath);
  let n = 0;
  try {
    await forEachLine(fh, limit, (raw) => {
      if (jsonlLineOfRaw(raw)?.kind === 'record') n++;
    });
  } finally {
    await fh.close();
  }
  return n;
}

/** A rotation whose heavy phase is done; `commitRotation` finishes it. */
export interface PreparedRotation {
  readonly moves: readonly RotationMove[];
  readonly snapshotBytes: number;
  /** Bytes already in the temp file (the kept part of the snapshot). */
  readonly keptBytes: number;
  readonly tmp: FileHandle;
  /** Device and inode of the snapshot's file: the commit refuses to splice another file's bytes. */
  readonly identity: FileIdentity;
}

/** Which file a handle is (a rename over the path gives it another inode). */
interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/**
 * Heavy phase (no lock needed; appends may run meanwhile): moves the oldest `excess` records of the
 * snapshot to their month archives and writes the rest of the snapshot to the temp file, fsynced.
 * Lines are classified as the reader does (jsonl-reader.ts `jsonlLineOfRaw`): unreadable lines among the
 * moving ones go to quarantine, byte for byte (a line too long to load or not valid UTF-8 is copied from
 * the file, see jsonl-log.ts `appendQuarantineFromFile`); ones among the kept bytes stay where they are.
 */
export async function prepareRotation(paths: HistoryPaths, snapshotBytes: number, excess: number, nowIso: string): Promise<PreparedRotation> {
  const moves: RotationMove[] = [];
  const bad: QuarantineEntry[] = [];
  const located: LocatedEntry[] = [];
  let headEnd = 0;
  const src = await openRegularFile(paths.active);
  try {
    const { dev, ino } = await src.stat();
    await forEachLine(src, snapshotBytes, (raw, end) => {
      headEnd = end;
      const line = jsonlLineOfRaw(raw);
      if (line === null) return true;
      if (line.kind === 'record') {
        moves.push({ key: recordKey(line.record), month: archiveMonthOf(line.record.timestamp), text: line.text });
        return moves.length < excess;
      }
      if (line.oversized !== undefined) located.push({ source: 'active', reason: line.reason, file: paths.active, offset: raw.offset, bytes: raw.bytes });
      else if (line.invalidUtf8 === true) located.push({ source: 'active', reason: QUARANTINED_INVALID_UTF8_REASON, file: paths.active, offset: raw.offset, bytes: raw.bytes });
      else bad.push({ source: 'active', reason: line.reason, text: line.text });
      return true;
    });
    if (moves.length < excess) throw new Error(`rotation: expected ${excess} record(s) to move, found ${moves.length}`);
    const intent: RotationIntent = { version: 1, created_at: nowIso, moves: moves.map(({ key, month }) => ({ key, month })) };
    await ensureDir(paths.journalDir);
    await writeFileAtomic(rotationIntentPath(paths), JSON.stringify(intent));
    await appendToArchives(paths, moves, false, nowIso);
    await appendQuarantine(paths.quarantine, bad, nowIso);
    await appendQuarantineFromFile(paths.quarantine, located, nowIso);
    // 'wx' (O_EXCL) after removing a leftover: never opens whatever else is under the name (a FIFO would block).
    await removeRotationTemp(paths);
    const tmp = await open(rotationTempPath(paths), 'wx');
    try {
      let out = 0;
      // One reused buffer: a fresh one per chunk would leave megabytes of garbage whose collection (a
      // ~15 ms major GC) then lands on the next dictation's log().
      const buf = Buffer.allocUnsafe(CHUNK);
      for (let pos = headEnd; pos < snapshotBytes; ) {
        const { bytesRead } = await src.read(buf, 0, Math.min(CHUNK, snapshotBytes - pos), pos);
        if (bytesRead === 0) throw new Error('rotation: active file shorter than its snapshot');
        // Not `tmp.write`: on a nearly full disk it writes part of the chunk without an error, and the
        // truncated copy would be renamed over the active file (see write-fully.ts).
        await writeFully(tmp, buf.subarray(0, bytesRead), out);
        out += bytesRead;
        pos += bytesRead;
        // Flush as we go: a large batch of dirty pages would make a concurrent append's fsync wait for
        // it (ext4 commits the journal for everyone), which is exactly the stall this design avoids.
        if (out % SYNC_EVERY < CHUNK) await tmp.datasync();
      }
      // The bulk is made durable here, outside the caller's lock; the commit only syncs its small tail.
      await tmp.sync();
      return { moves, snapshotBytes, keptBytes: out, tmp, identity: { dev, ino } };
    } catch (err) {
      await tmp.close();
      await removeRotationTemp(paths);
      throw err;
    }
  } finally {
    await src.close();
  }
}

/** A committed rotation: the new active size, and the old file's handle to close outside the lock. */
export interface CommittedRotation {
  readonly activeBytes: number;
  /** Closes the replaced file; freeing its blocks (tens of ms for a 12 MB file on ext4) happens here. */
  readonly release: () => Promise<void>;
}

/**
 * Commit (the caller holds its write lock, so no append runs): copies what was appended after the
 * snapshot, fsyncs, renames over the active file and fsyncs the folder. The old file stays open until
 * `release`, so the rename does not free its blocks inside the lock. The intent is left for
 * `finishRotation`, outside the lock (a leftover intent is harmless: recovery sees the moved keys gone
 * from the active file and only removes it).
 */
export async function commitRotation(paths: HistoryPaths, prep: PreparedRotation): Promise<CommittedRotation> {
  let size = prep.keptBytes;
  // Read-write: `release` truncates the replaced file step by step through this handle. Only a regular
  // file (see regular-open.ts): a FIFO swapped in for the active file would block a plain open.
  const old = await openRegular(paths.active, READ_WRITE_FLAGS);
  try {
    try {
      const st = await old.stat();
      // Another program replaced the file (a rename over it): its bytes are not the snapshot's continuation.
      if (st.dev !== prep.identity.dev || st.ino !== prep.identity.ino) throw new Error('rotation: the active file was replaced during the rotation');
      const now = st.size;
      if (now < prep.snapshotBytes) throw new Error('rotation: active file shrank during the rotation');
      if (now > prep.snapshotBytes) {
        const buf = Buffer.alloc(now - prep.snapshotBytes);
        const { bytesRead } = await old.read(buf, 0, buf.length, prep.snapshotBytes);
        await writeFully(prep.tmp, buf.subarray(0, bytesRead), prep.keptBytes);
        size += bytesRead;
      }
      await prep.tmp.sync();
    } finally {
      await prep.tmp.close();
    }
    // Windows cannot replace a file that is open: there the old handle is closed first.
    if (process.platform === 'win32') await old.close();
    await rename(rotationTempPath(paths), paths.active);
    await fsyncDir(paths.dataDir);
  } catch (err) {
    await old.close().catch(() => undefined);
    throw err;
  }
  return { activeBytes: size, release: () => releaseGradually(old, prep.snapshotBytes) };
}

/**
 * Frees a replaced (unlinked, still open) file a slice at a time, yielding between slices: freeing
 * megabytes in one go holds the filesystem journal long enough to stall a concurrent append's fsync.
 */
async function releaseGradually(fh: FileHandle, size: number): Promise<void> {
  try {
    for (let len = size - FREE_STEP; len > 0; len -= FREE_STEP) {
      await fh.truncate(len);
      await yieldToLoop();
    }
    await fh.truncate(0);
    // Commit the freed blocks to the filesystem journal here, in the background: left pending, they
    // would be committed by the next append's fsync, which then takes ~10 ms instead of ~1 ms.
    await fh.sync();
  } catch {
    // Only an optimisation: the close below frees whatever is left.
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Drops the intent of a committed rotation. */
export async function finishRotation(paths: HistoryPaths): Promise<void> {
  await unlinkDurable(rotationIntentPath(paths));
}

/** Abandons a prepared rotation that could not commit; its intent stays for `recoverRotation`. */
export async function abandonRotation(paths: HistoryPaths, prep: PreparedRotation | null): Promise<void> {
  await prep?.tmp.close().catch(() => undefined);
  await removeRotationTemp(paths);
}

/** What one background rotation did, for the store's bookkeeping. */
export interface RotationCommit {
  readonly result: RotationResult;
  readonly activeBytes: number;
}
