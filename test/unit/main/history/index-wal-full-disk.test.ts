import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryService, tempIndexPath } from '../../../../src/main/history/history-service.ts';
import { fillUntil, mountSmallFs, type SmallFs } from '../../../helpers/small-fs.ts';

/**
 * A killed app can leave index.db's WAL in the data folder; on a disk that is then full, SQLite cannot
 * checkpoint it (that needs room in index.db) and the index moves to the temp folder. The WAL must not
 * stay behind holding the room: the index is derived data, and the history needs the room to save the
 * next dictation. Found by the full-disk kill loop (kill-loop.test.ts), here made deterministic.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const mounts: SmallFs[] = [];
afterAll(() => {
  for (const m of mounts.splice(0)) {
    fs.rmSync(path.dirname(tempIndexPath(path.join(m.dir, 'data'))), { recursive: true, force: true });
    m.unmount();
  }
});

const record = (text: string) => ({ asr_text: text, enhanced_text: null, final_text: text, enhance_mode: 'proofread', preview_enabled: true, stt_model: 'm', llm_model: '', user_corrected: false, audio_duration: 1, language: 'en', source: 'voice' as const });

/** Writes ~`bytes` into index.db's WAL from another process that is then killed, so nothing checkpoints it. */
function leaveWal(dbPath: string, bytes: number): void {
  const script = `
    const Database = require(${JSON.stringify(path.join(ROOT, 'node_modules/better-sqlite3'))});
    const db = new Database(${JSON.stringify(dbPath)});
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE IF NOT EXISTS filler (x BLOB)');
    const put = db.prepare('INSERT INTO filler (x) VALUES (?)');
    for (let i = 0; i < ${Math.ceil(bytes / 8192)}; i++) put.run(Buffer.alloc(8192, i % 251));
    process.kill(process.pid, 'SIGKILL');`;
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/node'), ['-e', script], { encoding: 'utf8' });
  expect(r.signal, r.stderr).toBe('SIGKILL');
}

describe('a full disk and the WAL a killed app left', () => {
  it('the index moves to the temp folder and gives the room back: the next dictation is saved', async (ctx) => {
    const small = mountSmallFs(2 * 1024 * 1024);
    if ('skip' in small) return ctx.skip(small.skip);
    mounts.push(small);
    const dataDir = path.join(small.dir, 'data');
    fs.mkdirSync(dataDir);
    const first = await HistoryService.open({ dataDir, enabled: true, rebuildInline: true, follow: false, warn: () => undefined });
    for (let i = 0; i < 20; i++) await first.log(record(`before ${i}`));
    await first.close();
    const indexDb = path.join(dataDir, 'index.db');
    leaveWal(indexDb, 600 * 1024);
    expect(fs.statSync(`${indexDb}-wal`).size).toBeGreaterThan(500 * 1024);
    fillUntil(small, 0);

    const warnings: string[] = [];
    const svc = await HistoryService.open({ dataDir, enabled: true, rebuildInline: true, follow: false, warn: (m) => warnings.push(m) });
    try {
      await svc.indexReady;
      // Larger than whatever slack the full disk has left in the history file's last page.
      const next = await svc.log(record(`after the restart ${'words '.repeat(4000)}`));
      expect(next.saved, warnings.join('\n')).toBe(true);
      expect(fs.existsSync(`${indexDb}-wal`)).toBe(false);
      const page = await svc.query({ text: 'after the restart' });
      expect(page.rows).toHaveLength(1);
      expect(warnings.join('\n')).toMatch(/removed index\.db from the full data folder/);
    } finally {
      await svc.close();
    }
  }, 60_000);
});
