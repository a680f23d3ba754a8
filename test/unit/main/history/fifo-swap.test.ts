import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryPendingError, HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { readTailFingerprint } from '../../../../src/main/history/index/index-follow.ts';
import { endsWithoutNewline, repairTail } from '../../../../src/main/history/store/jsonl-log.ts';
import { fileLines, newRecord, until, useTempDirs } from '../../../helpers/history-fixtures.ts';
import { settles, useFifos } from '../../../helpers/fifo-fixtures.ts';

/**
 * Something puts a FIFO (or a symbolic link) where the active file is while the store is open. Opening a
 * FIFO blocks until its other end is opened (man 7 fifo), for writing and for reading alike, so every open
 * of a history file checks first (src/main/platform/regular-open.ts). Nothing may hang: log(), the hot
 * cache, a rotation and a tail repair settle within seconds with an error naming the FIFO, the record is
 * kept in memory and written once a regular file is back, and `health` says why meanwhile.
 */

const tmp = useTempDirs();
const mkfifo = useFifos();

const FIFO_MESSAGE = /conversation_history\.jsonl is a FIFO \(named pipe\), not a regular file/;

describe('a FIFO swapped in for the active file while the store is open', () => {
  it('log(), the hot cache, a rotation and a tail repair settle with a clear error; the records wait in memory and are written once the file is back', async () => {
    const warnings: string[] = [];
    const store = await HistoryStore.open({ dataDir: tmp(), writeRetryMs: 50, rotationRetryMs: 60_000, warn: (m) => warnings.push(m) });
    try {
      await store.log(newRecord({ final_text: 'before' }));
      const saved = fs.readFileSync(store.paths.active);
      fs.rmSync(store.paths.active);
      mkfifo(store.paths.active);

      // Before the fix: the append's open waited for a reader of the FIFO forever.
      const err = await settles(store.log(newRecord({ final_text: 'during one' }))).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HistoryPendingError);
      expect(String((err as HistoryPendingError).cause)).toMatch(FIFO_MESSAGE);
      expect(store.pendingRecords.map((r) => r.final_text)).toEqual(['during one']);
      expect(store.health).toMatchObject({ state: 'write-failed', reason: expect.stringMatching(FIFO_MESSAGE) });

      // The hot cache is cold: its read opens the active file.
      await expect(settles(store.getRecent({ mode: 'proofread', n: 5 }))).rejects.toThrow(FIFO_MESSAGE);
      // The failed append left the tail unverified: this append repairs it first (a read of the FIFO).
      await expect(settles(store.log(newRecord({ final_text: 'during two' })))).rejects.toBeInstanceOf(HistoryPendingError);
      expect(store.pendingRecords).toHaveLength(2);
      // A rotation repairs the tail too before it reads the file: it fails, is reported, and is retried later.
      await settles(store.rotateNow());
      expect(warnings.some((w) => /rotation failed/.test(w) && FIFO_MESSAGE.test(w))).toBe(true);

      fs.rmSync(store.paths.active);
      fs.writeFileSync(store.paths.active, saved);
      expect(await until(() => store.health === null, 5000)).toBe(true);
      expect(fileLines(store.paths.active).map((l) => (JSON.parse(l) as { final_text: string }).final_text)).toEqual(['before', 'during one', 'during two']);
    } finally {
      await settles(store.close()).catch(() => undefined);
    }
  }, 20_000);

  it('repairTail and endsWithoutNewline settle on a FIFO', async () => {
    const dir = tmp();
    const fifo = path.join(dir, 'conversation_history.jsonl');
    mkfifo(fifo);
    // Before the fix: both waited for a writer of the FIFO forever.
    await expect(settles(repairTail(fifo, path.join(dir, 'q.jsonl'), 'active', '2026-01-01T00:00:00Z'))).rejects.toThrow(FIFO_MESSAGE);
    expect(await settles(endsWithoutNewline(fifo))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'q.jsonl'))).toBe(false);
  }, 15_000);

  it('a symbolic link swapped in is never written through: the record waits in memory', async () => {
    const store = await HistoryStore.open({ dataDir: tmp(), writeRetryMs: 60_000, warn: () => undefined });
    try {
      await store.log(newRecord({ final_text: 'before' }));
      const elsewhere = path.join(tmp(), 'elsewhere.jsonl');
      fs.renameSync(store.paths.active, elsewhere);
      const before = fs.readFileSync(elsewhere);
      fs.symlinkSync(elsewhere, store.paths.active);
      // Before the fix: the record was appended to the link's target, outside the data folder.
      await expect(settles(store.log(newRecord({ final_text: 'linked' })))).rejects.toBeInstanceOf(HistoryPendingError);
      expect(fs.readFileSync(elsewhere).equals(before)).toBe(true);
      expect(store.health?.reason).toMatch(/is a symbolic link, not a regular file/);
      expect(store.pendingRecords.map((r) => r.final_text)).toEqual(['linked']);
    } finally {
      await store.close();
    }
  });
});

describe('the index follower (synchronous reads on the main process)', () => {
  it('readTailFingerprint of a FIFO returns null at once', async () => {
    const fifo = path.join(tmp(), 'conversation_history.jsonl');
    mkfifo(fifo);
    // Before the fix the synchronous open blocked the whole process; this child opens the other end
    // after 2 s, so a failing run ends (slowly) instead of hanging.
    const child = spawn('sh', ['-c', 'sleep 2; exec 3<>"$0"', fifo], { stdio: 'ignore' });
    try {
      const t0 = performance.now();
      expect(readTailFingerprint(fifo, 100)).toBeNull();
      expect(performance.now() - t0).toBeLessThan(1000);
    } finally {
      child.kill();
    }
  }, 15_000);
});
