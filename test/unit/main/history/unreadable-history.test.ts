import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchStorage } from '../../../../src/main/app/storage-notices.ts';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { MAX_LINE_BYTES, parseJsonlLines } from '../../../../src/main/history/store/jsonl-reader.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import type { Notice } from '../../../../src/shared/notices/notice.ts';
import { makeTempDir, newRecord, rmTempDir, wenziLine } from '../../../helpers/history-fixtures.ts';

/**
 * History that cannot be read must be said, not hidden: an archive name that is a folder, a 150 MB
 * line. The CLI names it and exits 3 (the rest listed), the app gets a notice, the huge line is set
 * aside in the quarantine file (streamed, never decoded), and temp files of crashed saves are removed.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const BIN = path.join(ROOT, 'bin/tingxie.mjs');
const HUGE = 150 * 1024 * 1024;

const dirs: string[] = [];
afterAll(() => dirs.forEach(rmTempDir));
function tmp(): string {
  const d = makeTempDir();
  dirs.push(d);
  return d;
}

function cli(dataDir: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(NODE, [BIN, '--data-dir', dataDir, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** 20 active records and 10 archived in 2025-11. */
function generate(dir: string): void {
  const active = Array.from({ length: 20 }, (_, i) => wenziLine(new Date(Date.UTC(2026, 0, 1 + i, 9)).toISOString(), `活动 ${i}`, { id: `A${i}` }));
  fs.writeFileSync(historyPaths(dir).active, `${active.join('\n')}\n`);
  fs.mkdirSync(historyPaths(dir).archivesDir);
  const arch = Array.from({ length: 10 }, (_, i) => wenziLine(`2025-11-${String(i + 1).padStart(2, '0')}T08:00:00Z`, `归档 ${i}`, { id: `R${i}` }));
  fs.writeFileSync(historyPaths(dir).archive('2025-11'), `${arch.join('\n')}\n`);
}

/** Appends a valid-looking record line of `bytes` bytes to `file`, written in chunks (never one string). */
function appendHugeLine(file: string, bytes: number): void {
  const head = '{"timestamp":"2025-12-02T08:00:00Z","asr_text":"';
  const tail = '","enhanced_text":null,"final_text":"huge","enhance_mode":"proofread","preview_enabled":false,"stt_model":"x","llm_model":"","user_corrected":false,"audio_duration":1}\n';
  const fd = fs.openSync(file, 'a');
  try {
    fs.writeSync(fd, head);
    const block = Buffer.alloc(1024 * 1024, 0x78);
    let left = bytes - head.length - tail.length + 1;
    while (left > 0) left -= fs.writeSync(fd, block, 0, Math.min(block.length, left));
    fs.writeSync(fd, tail);
  } finally {
    fs.closeSync(fd);
  }
}

describe('an archive name that is a folder', () => {
  it('CLI list/reindex name it and exit 3 while showing the rest; the app gets a notice naming it', async () => {
    const dir = tmp();
    generate(dir);
    const bogus = historyPaths(dir).archive('2025-12');
    fs.mkdirSync(bogus);

    // Before the fix: "0 of 0" with exit 0 (the rebuild died on EISDIR and the index stayed empty).
    const list = cli(dir, '--json', 'history', 'list', '--include-archived', '--limit', '100');
    expect(list.code, list.err).toBe(3);
    expect((JSON.parse(list.out) as { total: number }).total).toBe(30);
    expect(list.err).toContain(bogus);
    expect(list.err).toMatch(/EISDIR/);
    const reindex = cli(dir, 'history', 'reindex');
    expect(reindex.code, reindex.err).toBe(3);
    expect(reindex.out).toMatch(/index rebuilt: 30 record/);
    expect(reindex.err).toContain(bogus);
    const exported = cli(dir, 'history', 'export', path.join(dir, 'out.jsonl'));
    expect(exported.code, exported.err).toBe(3);
    expect(exported.out).toMatch(/exported 30 record/);

    const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, warn: () => undefined });
    expect((await svc.query({ text: '', includeArchived: true, pageSize: 100 })).total).toBe(30);
    expect(svc.problems).toEqual([expect.objectContaining({ kind: 'unreadable', path: bogus })]);
    const notices: Notice[] = [];
    const stop = watchStorage({
      history: svc,
      modeIssue: () => null,
      onConfigChange: () => () => undefined,
      notify: (_level, n) => notices.push(n),
      setProblem: () => undefined,
      words: (n) => n.code,
    });
    await svc.indexReady;
    await new Promise((r) => setTimeout(r, 0));
    stop();
    expect(notices).toEqual([{ code: 'history-unreadable', problems: [expect.objectContaining({ kind: 'unreadable', path: bogus })] }]);
    await svc.close();
  }, 120_000);
});

describe('a 150 MB line', () => {
  it('in an archive: reported (exit 3), set aside in the quarantine file without being decoded, the rest listed', () => {
    const dir = tmp();
    generate(dir);
    const archive = historyPaths(dir).archive('2025-11');
    appendHugeLine(archive, HUGE);
    fs.appendFileSync(archive, `${wenziLine('2025-11-20T08:00:00Z', '巨行之后', { id: 'AFTER' })}\n`);

    const started = Date.now();
    const list = cli(dir, '--json', 'history', 'list', '--include-archived', '--limit', '100');
    const ms = Date.now() - started;
    // Before the fix: the rebuild worker read the line as one string (and died on machines with less memory).
    expect(list.code, list.err).toBe(3);
    expect((JSON.parse(list.out) as { total: number }).total).toBe(31);
    expect(list.err).toMatch(/line 11 is 157286400 bytes, too long to read/);
    expect(ms).toBeLessThan(60_000);
    // Set aside like a corrupt line: gone from the archive, kept whole in conversation_history.corrupt.jsonl.
    expect(fs.statSync(archive).size).toBeLessThan(64 * 1024);
    const quarantine = historyPaths(dir).quarantine;
    expect(fs.statSync(quarantine).size).toBeGreaterThan(HUGE);
    const head = Buffer.alloc(400);
    const fd = fs.openSync(quarantine, 'r');
    fs.readSync(fd, head, 0, head.length, 0);
    fs.closeSync(fd);
    expect(head.toString('utf8')).toMatch(/^\{"quarantined_at":"[^"]+","source":"2025-11","reason":"line of 157286400 bytes[^"]*","bytes":157286400,"sha256":"[0-9a-f]{64}","text":"\{\\"timestamp\\"/);
    // Listed again: nothing left to report, nothing quarantined twice.
    const again = cli(dir, '--json', 'history', 'list', '--include-archived', '--limit', '100');
    expect(again.code, again.err).toBe(0);
    expect((JSON.parse(again.out) as { total: number }).total).toBe(31);
    expect(fs.statSync(quarantine).size).toBeLessThan(HUGE * 1.1);
  }, 180_000);

  it('in the active file: set aside at open (streamed, memory stays small), then appends and recent records work', async () => {
    const dir = tmp();
    generate(dir);
    appendHugeLine(historyPaths(dir).active, HUGE);
    fs.appendFileSync(historyPaths(dir).active, `${wenziLine('2026-02-01T08:00:00Z', '巨行之后', { id: 'AFTER' })}\n`);
    const rssBefore = process.resourceUsage().maxRSS;
    const store = await HistoryStore.open({ dataDir: dir, warn: () => undefined });
    expect(store.openReport.oversizedSetAside).toBe(1);
    const grownMb = (process.resourceUsage().maxRSS - rssBefore) / 1024;
    expect(grownMb).toBeLessThan(100);
    expect(fs.statSync(historyPaths(dir).active).size).toBeLessThan(MAX_LINE_BYTES);
    const lines = parseJsonlLines(fs.readFileSync(historyPaths(dir).active, 'utf8'));
    expect(lines.filter((l) => l.kind === 'record')).toHaveLength(21);
    await store.log(newRecord({ final_text: 'after the huge line', enhance_mode: 'proofread', preview_enabled: true }));
    const recent = await store.getRecent({ mode: 'proofread', n: 5 });
    expect(recent.at(-1)?.final_text).toBe('after the huge line');
    await store.close();
  }, 120_000);
});

describe('temp files of crashed saves', () => {
  it('are removed at open when their writer is gone (never a live process’s)', async () => {
    const dir = tmp();
    generate(dir);
    const dead = 2 ** 22 + 12345; // above Linux's pid_max: no such process
    const stale = [
      path.join(dir, `.conversation_history.jsonl.${dead}.0123456789ab.tmp`),
      path.join(dir, `.config.json.${dead}.ba9876543210.tmp`),
      path.join(dir, `index.db.rebuild-${dead}-1700000000000.tmp`),
      path.join(dir, `index.db.rebuild-${dead}-1700000000000.tmp-wal`),
      path.join(historyPaths(dir).archivesDir, `.2025-11.jsonl.${dead}.00aa11bb22cc.tmp`),
    ];
    const live = path.join(dir, `.config.json.${process.pid}.ffffffffffff.tmp`);
    const unrelated = path.join(dir, 'notes.tmp');
    for (const f of [...stale, live, unrelated]) fs.writeFileSync(f, 'x'.repeat(1000));
    const store = await HistoryStore.open({ dataDir: dir, warn: () => undefined });
    expect(store.openReport.staleTempFiles).toBe(stale.length);
    for (const f of stale) expect(fs.existsSync(f), f).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(unrelated)).toBe(true);
    await store.close();
  });
});
