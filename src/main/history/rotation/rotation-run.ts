import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { recordKey } from '../../../shared/history/record.ts';
import { appendDurable, ensureDir, unlinkDurable } from '../../platform/durable-fs.ts';
import { readLines, repairTail, rewriteLines } from '../store/jsonl-log.ts';
import { openRegularFile } from '../store/line-scan.ts';
import type { HistoryPaths } from '../paths.ts';
import { groupByMonth, type RotationMove } from './rotation.ts';

/**
 * Crash recovery of a rotation. A rotation (see rotation-snapshot.ts, which runs it in the background
 * while appends continue) goes:
 *   1. write `rotation.intent.json` (atomic) naming the moving keys, in order, and their months;
 *   2. append the moving lines to their month archives (fsync);
 *   3. build `conversation_history.jsonl.rotating` with the kept lines plus anything appended since the
 *      snapshot, fsync it and rename it over the active file (then fsync the folder);
 *   4. remove the intent.
 * On open, `recoverRotation` finishes an interrupted rotation: if the active file still starts with
 * the intent's keys, it redoes 2–3 with archive appends de-duplicated by line text; otherwise step 3
 * had completed (it only runs after 2 was fsynced) and only the intent is left to remove. Records
 * appended while the rotation ran are in the active file either way, so nothing is lost.
 */

/** What a rotation moved, for the index and the caches. */
export interface RotationResult {
  readonly moves: readonly Pick<RotationMove, 'key' | 'month'>[];
  /** Records left in the active file. */
  readonly kept: number;
}

/** What step 1 writes. */
export interface RotationIntent {
  readonly version: 1;
  readonly created_at: string;
  readonly moves: readonly { readonly key: string; readonly month: string }[];
}

/** The temp file a rotation builds before renaming it over the active file. */
export function rotationTempPath(paths: HistoryPaths): string {
  return `${paths.active}.rotating`;
}

/** Removes a leftover rotation temp file (it is never the only copy of anything). */
export async function removeRotationTemp(paths: HistoryPaths): Promise<void> {
  await unlink(rotationTempPath(paths)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** Path of the rotation intent file. */
export function rotationIntentPath(paths: HistoryPaths): string {
  return path.join(paths.journalDir, 'rotation.intent.json');
}

/**
 * Finishes a rotation interrupted by a crash (idempotent; safe to run again if it crashes itself).
 * Returns what it moved, or null when there was no intent.
 */
export async function recoverRotation(paths: HistoryPaths, nowIso: string, warn: (m: string) => void): Promise<RotationResult | null> {
  const intentPath = rotationIntentPath(paths);
  let intent: RotationIntent;
  try {
    intent = JSON.parse(await readIntentText(intentPath)) as RotationIntent;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      // A temp file without an intent is from a rotation that never wrote its intent: nothing moved.
      await removeRotationTemp(paths);
      return null;
    }
    // The intent is written atomically, so an unreadable one was never acted on: nothing moved yet.
    warn(`history: unreadable rotation intent ignored (${(err as Error).message})`);
    await unlinkDurable(intentPath);
    await removeRotationTemp(paths);
    return null;
  }
  // The active file may have a torn tail only if the crash was in an append, which never overlaps a
  // rotation; repair anyway so the check below reads whole lines.
  await repairTail(paths.active, paths.quarantine, 'active', nowIso);
  const lines = await readLines(paths.active);
  const records = lines.filter((l) => l.kind === 'record');
  const stillThere =
    intent.moves.length > 0 &&
    records.length >= intent.moves.length &&
    intent.moves.every((m, i) => {
      const l = records[i];
      return l?.kind === 'record' && recordKey(l.record) === m.key;
    });
  if (stillThere) {
    const moves: RotationMove[] = intent.moves.map((m, i) => ({ key: m.key, month: m.month, text: records[i]?.text ?? '' }));
    await appendToArchives(paths, moves, true, nowIso);
    await rewriteLines(
      paths.active,
      records.slice(intent.moves.length).map((l) => l.text),
      lines.filter((l) => l.kind === 'bad'),
      paths.quarantine,
      'active',
      nowIso,
    );
    warn(`history: finished an interrupted rotation (${moves.length} record(s) archived)`);
  } else {
    warn('history: an interrupted rotation had already replaced the active file; intent removed');
  }
  await unlinkDurable(intentPath);
  await removeRotationTemp(paths);
  return { moves: intent.moves, kept: stillThere ? records.length - intent.moves.length : records.length };
}

/** The intent file's text; only a regular file is opened (a FIFO under its name would block a plain read). */
async function readIntentText(intentPath: string): Promise<string> {
  const fh = await openRegularFile(intentPath);
  try {
    return await fh.readFile('utf8');
  } finally {
    await fh.close();
  }
}

/**
 * Appends moved lines to their month files (step 2); with `dedupe`, lines already present (same text)
 * are skipped. Moves are records, so only the archive's lines that are valid UTF-8 can match one: a
 * line whose bytes are not (its text shows U+FFFD) must never stand in for a record.
 */
export async function appendToArchives(paths: HistoryPaths, moves: readonly RotationMove[], dedupe: boolean, nowIso: string): Promise<void> {
  if (moves.length === 0) return;
  await ensureDir(paths.archivesDir);
  for (const [month, group] of groupByMonth(moves)) {
    const file = paths.archive(month);
    // An archive can have a torn tail only from a crash in an earlier rotation's append.
    await repairTail(file, paths.quarantine, month, nowIso);
    let texts = group.map((m) => m.text);
    if (dedupe) {
      const existing = new Set((await readLines(file)).flatMap((l) => (l.kind === 'bad' && l.invalidUtf8 === true ? [] : [l.text])));
      texts = texts.filter((t) => !existing.has(t));
    }
    if (texts.length) await appendDurable(file, `${texts.join('\n')}\n`);
  }
}
