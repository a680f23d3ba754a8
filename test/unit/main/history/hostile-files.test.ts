import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportHistory } from '../../../../src/main/history/import-export/export.ts';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { scanLines } from '../../../../src/main/history/store/line-scan.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import { importWenziFolder } from '../../../../src/main/history/import-export/wenzi-import.ts';
import { acquireDataLock } from '../../../../src/main/platform/data-lock.ts';
import { recordKey, type StoredRecord } from '../../../../src/shared/history/record.ts';
import { fileLines, quiet, useTempDirs, wenziLine } from '../../../helpers/history-fixtures.ts';

/**
 * History files a user (or another program) can leave that must never hang, corrupt or crash Tingxie:
 * a FIFO under a history file's name (opening it for reading blocks until a writer comes: man 7 fifo),
 * lines that are not valid UTF-8, a record nested 10,000 deep, a symbolic link or an odd name in the
 * archives folder. Each was found hanging, silently changed or throwing before the fix.
 */

const tmp = useTempDirs();
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const BIN = path.join(ROOT, 'bin/tingxie.mjs');

/** The real CLI; a hang is killed after 20 s and shows as `code: null`. */
function cli(dataDir: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(NODE, [BIN, '--data-dir', dataDir, ...args], { encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function mkfifo(p: string): void {
  execFileSync('mkfifo', [p]);
}

/** A data folder (or WenZi folder) with `active` records now-ish and `archived` in 2025-11. */
function historyFolder(dir: string, active: number, archived: number, tag = 'r'): void {
  const lines = Array.from({ length: active }, (_, i) => wenziLine(`2026-01-0${1 + (i % 9)}T0${i % 10}:00:00Z`, `${tag} 活动 ${i}`));
  fs.writeFileSync(path.join(dir, 'conversation_history.jsonl'), lines.length ? `${lines.join('\n')}\n` : '');
  const arch = path.join(dir, 'conversation_history_archives');
  fs.mkdirSync(arch, { recursive: true });
  if (archived > 0) {
    const old = Array.from({ length: archived }, (_, i) => wenziLine(`2025-11-${String(1 + i).padStart(2, '0')}T08:00:00Z`, `${tag} 归档 ${i}`));
    fs.writeFileSync(path.join(arch, '2025-11.jsonl'), `${old.join('\n')}\n`);
  }
}

describe('a FIFO under a history file name never blocks (man 7 fifo)', () => {
  it('scanLines refuses a FIFO, a folder and a symbolic link at once, naming what it is', async () => {
    const dir = tmp();
    const fifo = path.join(dir, 'conversation_history.jsonl');
    mkfifo(fifo);
    const read = async (p: string): Promise<unknown> => {
      for await (const _ of scanLines(p)) void _;
      return 'read';
    };
    await expect(read(fifo)).rejects.toThrow(/FIFO.*not a regular file/);
    fs.mkdirSync(path.join(dir, 'folder.jsonl'));
    await expect(read(path.join(dir, 'folder.jsonl'))).rejects.toMatchObject({ code: 'EISDIR' });
    fs.writeFileSync(path.join(dir, 'real.jsonl'), `${wenziLine('2026-01-01T00:00:00Z')}\n`);
    fs.symlinkSync(path.join(dir, 'real.jsonl'), path.join(dir, 'link.jsonl'));
    await expect(read(path.join(dir, 'link.jsonl'))).rejects.toMatchObject({ code: 'ELOOP' });
  }, 5000);

  it('`history import` from a WenZi folder whose active file is a FIFO finishes, names it, imports the archives and releases the lock', () => {
    const data = tmp();
    const wenzi = tmp();
    historyFolder(wenzi, 0, 3);
    fs.rmSync(path.join(wenzi, 'conversation_history.jsonl'));
    mkfifo(path.join(wenzi, 'conversation_history.jsonl'));
    const r = cli(data, '--json', 'history', 'import', wenzi);
    // Before the fix: killed by the timeout (code null), the lock held until then.
    expect(r.code, r.err).toBe(3);
    expect(JSON.parse(r.out)).toMatchObject({ imported: 3, skipped: [{ path: path.join(wenzi, 'conversation_history.jsonl'), reason: expect.stringMatching(/FIFO/) }] });
    expect(r.err).toContain(`${path.join(wenzi, 'conversation_history.jsonl')} was not imported`);
    acquireDataLock(data, { role: 'cli' }).release();
  }, 30_000);

  it('a FIFO archive inside the data folder: `history list` and `history import` finish, list names it', () => {
    const data = tmp();
    historyFolder(data, 4, 2);
    const fifo = historyPaths(data).archive('2025-10');
    mkfifo(fifo);
    const list = cli(data, '--json', 'history', 'list', '--limit', '100');
    // Before the fix: the index rebuild opened the FIFO and waited for a writer forever, holding the lock.
    expect(list.code, list.err).toBe(3);
    expect((JSON.parse(list.out) as { total: number }).total).toBe(6);
    expect(list.err).toContain(fifo);
    const wenzi = tmp();
    fs.writeFileSync(path.join(wenzi, 'conversation_history.jsonl'), `${wenziLine('2026-02-01T00:00:00Z', 'w 1')}\n${wenziLine('2026-02-02T00:00:00Z', 'w 2')}\n`);
    const imp = cli(data, '--json', 'history', 'import', wenzi);
    expect(imp.code, imp.err).toBe(0);
    expect(JSON.parse(imp.out)).toMatchObject({ imported: 2 });
    acquireDataLock(data, { role: 'cli' }).release();
  }, 60_000);
});

describe('a FIFO as the data folder\'s own conversation_history.jsonl', () => {
  it('`history list` finishes naming it (exit 3); `history import` refuses with a message and releases the lock', () => {
    const data = tmp();
    historyFolder(data, 0, 2);
    fs.rmSync(historyPaths(data).active);
    mkfifo(historyPaths(data).active);
    const list = cli(data, '--json', 'history', 'list', '--limit', '100');
    // Before the fix: the store's tail repair opened the FIFO at start and waited forever.
    expect(list.code, list.err).toBe(3);
    expect((JSON.parse(list.out) as { total: number }).total).toBe(2);
    expect(list.err).toMatch(/conversation_history\.jsonl is a FIFO \(named pipe\), not a regular file/);
    const wenzi = tmp();
    historyFolder(wenzi, 1, 0, 'w');
    const imp = cli(data, 'history', 'import', wenzi);
    expect(imp.code, imp.err).toBe(1);
    expect(imp.err).toMatch(/conversation_history\.jsonl is a FIFO \(named pipe\), not a regular file/);
    acquireDataLock(data, { role: 'cli' }).release();
  }, 60_000);
});

/** A WenZi line whose text holds bytes that are not UTF-8 (a Latin-1 `é`, a lone continuation byte…). */
function invalidLine(ts: string, bad: Buffer): Buffer {
  const parts = wenziLine(ts, 'XXX').split('XXX').map((p) => Buffer.from(p));
  // Valid JSON around the bytes: decoded leniently, the line parses as a record with U+FFFD in its texts.
  return Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [p] : [Buffer.from('坏'), bad, p])));
}

const BAD_BYTES = [Buffer.from([0xe9]), Buffer.from([0x80]), Buffer.from([0xe5, 0x9d]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80])];

describe('lines that are not valid UTF-8', () => {
  it('an import counts and names them by line number, imports the rest and leaves the source byte for byte', async () => {
    const wenzi = tmp();
    const file = path.join(wenzi, 'conversation_history.jsonl');
    const lines: Buffer[] = [Buffer.from(wenziLine('2026-01-01T00:00:00Z', 'good one'))];
    BAD_BYTES.forEach((b, i) => lines.push(invalidLine(`2026-01-0${2 + i}T00:00:00Z`, b)));
    lines.push(Buffer.from(wenziLine('2026-01-08T00:00:00Z', 'good two')));
    const bytes = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
    fs.writeFileSync(file, bytes);
    const store = await HistoryStore.open({ dataDir: tmp(), ...quiet });
    const report = await importWenziFolder(store, wenzi);
    // Before the fix: 7 imported, 0 unreadable, five of them saved with U+FFFD in place of the bytes.
    expect(report).toMatchObject({ imported: 2, badLines: 5 });
    expect(report.unreadable?.map((u) => u.line)).toEqual([2, 3, 4, 5, 6]);
    expect(report.unreadable?.every((u) => u.path === file && /not valid UTF-8/.test(u.reason))).toBe(true);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(fs.readFileSync(store.paths.active, 'utf8')).not.toContain('\uFFFD');
    await store.close();
  });

  it('in the data folder: a rebuild names them; an edit or delete in that file is refused and leaves it byte for byte', async () => {
    const data = tmp();
    const file = historyPaths(data).active;
    const good = [wenziLine('2026-01-01T00:00:00Z', 'first'), wenziLine('2026-01-03T00:00:00Z', 'third')];
    const bytes = Buffer.concat([Buffer.from(`${good[0]}\n`), invalidLine('2026-01-02T00:00:00Z', Buffer.from([0xff])), Buffer.from(`\n${good[1]}\n`)]);
    fs.writeFileSync(file, bytes);
    const svc = await HistoryService.open({ dataDir: data, enabled: true, rebuildInline: true, follow: false, warn: () => undefined });
    try {
      expect(svc.problems).toContainEqual(expect.objectContaining({ kind: 'invalid-utf8', path: file, lines: [2] }));
      expect((await svc.query({ text: '', includeArchived: true, pageSize: 10 })).total).toBe(2);
      const key = recordKey(JSON.parse(good[0] ?? '') as StoredRecord);
      // Before the fix: the edit rewrote the file with U+FFFD in place of line 2's byte.
      await expect(svc.update(key, { final_text: 'edited' })).rejects.toThrow(/line\(s\) 2 are not valid UTF-8/);
      await expect(svc.delete(key)).rejects.toThrow(/not valid UTF-8/);
      expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    } finally {
      await svc.close();
    }
  });
});

/** A WenZi line with an extra field nested `depth` arrays deep (JSON.parse accepts it; JSON.stringify of it overflows the stack). */
function deepLine(ts: string, depth: number): string {
  return wenziLine(ts, 'deep').replace(/}$/, `, "wenzi_extra": ${'['.repeat(depth)}${']'.repeat(depth)}}`);
}

describe('a record nested 10,000 deep, which the reader accepts', () => {
  it('is exported with the whole history (as its line on disk), and edits and deletes do not throw', async () => {
    const data = tmp();
    const deep = deepLine('2026-01-02T00:00:00Z', 10_000);
    const others = [wenziLine('2026-01-01T00:00:00Z', 'before'), wenziLine('2026-01-03T00:00:00Z', 'after')];
    fs.writeFileSync(historyPaths(data).active, `${others[0]}\n${deep}\n${others[1]}\n`);
    const store = await HistoryStore.open({ dataDir: data, ...quiet });
    const out = path.join(data, 'export.jsonl');
    // Before the fix: RangeError (Maximum call stack size exceeded), nothing exported.
    expect(await exportHistory(store, out, 'jsonl')).toBe(3);
    const exported = fileLines(out);
    expect(exported).toHaveLength(3);
    expect(exported[1]).toBe(deep);
    const records = await store.readFile('active');
    const deepKey = recordKey(records[1] as StoredRecord);
    const updated = await store.update(deepKey, { final_text: 'edited deep' });
    expect(updated?.final_text).toBe('edited deep');
    const onDisk = fileLines(store.paths.active)[1] ?? '';
    expect(onDisk).toContain(`"wenzi_extra": ${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(onDisk).toContain('"final_text":"edited deep"');
    expect(await store.delete(recordKey(records[0] as StoredRecord))).toBe(true);
    expect(fileLines(store.paths.active)).toHaveLength(2);
    await store.close();
    const cliOut = path.join(data, 'cli.jsonl');
    const r = cli(data, 'history', 'export', cliOut);
    expect(r.code, r.err).toBe(0);
    expect(fileLines(cliOut)).toHaveLength(2);
  }, 30_000);
});

describe('archive entries that are not read are named, never followed or ignored silently', () => {
  it('a symbolic link and an odd name: `history list` names both (exit 3) and shows neither; `history import` names both', () => {
    const data = tmp();
    historyFolder(data, 3, 2);
    const outside = tmp();
    const target = path.join(outside, 'elsewhere.jsonl');
    fs.writeFileSync(target, `${wenziLine('2025-12-05T00:00:00Z', 'linked record')}\n`);
    const link = historyPaths(data).archive('2025-12');
    fs.symlinkSync(target, link);
    const odd = path.join(historyPaths(data).archivesDir, '2025-1.jsonl');
    fs.writeFileSync(odd, `${wenziLine('2025-01-05T00:00:00Z', 'odd name')}\n`);
    fs.writeFileSync(path.join(historyPaths(data).archivesDir, '.DS_Store'), 'x');
    const list = cli(data, '--json', 'history', 'list', '--limit', '100');
    // Before the fix: exit 0, the linked file's record listed, the odd one left out without a word.
    expect(list.code, list.err).toBe(3);
    expect((JSON.parse(list.out) as { total: number }).total).toBe(5);
    expect(list.err).toMatch(new RegExp(`${link} is not read: a symbolic link`));
    expect(list.err).toMatch(new RegExp(`${odd} is not read: not an archive name`));
    expect(list.err).not.toContain('.DS_Store');

    const into = tmp();
    const imp = cli(into, '--json', 'history', 'import', data);
    expect(imp.code, imp.err).toBe(3);
    const report = JSON.parse(imp.out) as { imported: number; skipped: { path: string; reason: string }[] };
    expect(report.imported).toBe(5);
    expect(report.skipped.map((s) => s.path).sort()).toEqual([odd, link].sort());
  }, 60_000);
});
