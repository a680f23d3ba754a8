import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataLock } from '../../../src/main/platform/data-lock.ts';
import { fileLines, makeTempDir, rmTempDir, wenziLine } from '../../helpers/history-fixtures.ts';

/** The real `tingxie` binary, spawned as a user would run it, over a generated history (active + archives). */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const BIN = path.join(ROOT, 'bin/tingxie.mjs');

function cli(dataDir: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(NODE, [BIN, '--data-dir', dataDir, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function json<T>(dataDir: string, ...args: string[]): T {
  const r = cli(dataDir, '--json', ...args);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as T;
}

const dirs: string[] = [];
function tmp(): string {
  const d = makeTempDir();
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach(rmTempDir));

/** 30 active records over the last 30 days (two modes) and 20 archived ones in 2025-11 / 2025-12. */
function generate(dir: string): { recent: string } {
  const now = Date.now();
  const active: string[] = [];
  for (let i = 29; i >= 0; i--) {
    const ts = new Date(now - i * 86_400_000 - 3_600_000).toISOString();
    active.push(wenziLine(ts, i === 0 ? '今天遇到了萍萍' : `第 ${i} 天的记录`, { id: `REC${String(i).padStart(3, '0')}`, enhance_mode: i % 2 ? 'email' : 'proofread' }));
  }
  fs.writeFileSync(path.join(dir, 'conversation_history.jsonl'), `${active.join('\n')}\n`);
  const arch = path.join(dir, 'conversation_history_archives');
  fs.mkdirSync(arch);
  for (const month of ['2025-11', '2025-12']) {
    const lines = Array.from({ length: 10 }, (_, i) => wenziLine(`${month}-${String(i + 1).padStart(2, '0')}T08:00:00Z`, `归档 ${month} 萍萍 ${i}`));
    fs.writeFileSync(path.join(arch, `${month}.jsonl`), `${lines.join('\n')}\n`);
  }
  return { recent: 'REC000' };
}

describe('tingxie history (real CLI)', () => {
  let dir = '';
  beforeAll(() => {
    dir = tmp();
    generate(dir);
  });

  it('list: newest first, archives included unless --active-only, --limit, --mode, --since; table for humans', () => {
    const all = json<{ total: number; rows: { id: string; enhance_mode: string; timestamp: string }[] }>(dir, 'history', 'list', '--active-only', '--limit', '5');
    expect(all.total).toBe(30);
    expect(all.rows.map((r) => r.id)).toEqual(['REC000', 'REC001', 'REC002', 'REC003', 'REC004']);
    const email = json<{ total: number; rows: { enhance_mode: string }[] }>(dir, 'history', 'list', '--active-only', '--mode', 'email', '--limit', '100');
    expect(email.total).toBe(15);
    expect(email.rows.every((r) => r.enhance_mode === 'email')).toBe(true);
    expect(json<{ total: number }>(dir, 'history', 'list', '--since', '7d').total).toBe(7);
    expect(json<{ total: number }>(dir, 'history', 'list', '--active-only', '--since=2025-12-01').total).toBe(30);
    // The default is the History Browser's: archives included (--include-archived is still accepted).
    const withArchives = json<{ total: number; rows: unknown[] }>(dir, 'history', 'list', '--limit', '600');
    expect(withArchives.total).toBe(50);
    expect(withArchives.rows).toHaveLength(50);
    expect(json<{ total: number }>(dir, 'history', 'list', '--include-archived').total).toBe(50);
    expect(json<{ total: number }>(dir, 'history', 'list', '--since', 'all').total).toBe(50);
    expect(json<{ total: number }>(dir, 'history', 'search', '萍萍', '--since=all').total).toBe(json<{ total: number }>(dir, 'history', 'search', '萍萍').total);
    expect(cli(dir, 'history', 'list', '--include-archived', '--active-only').code).toBe(2);
    const human = cli(dir, 'history', 'list', '--limit', '2');
    expect(human.code).toBe(0);
    expect(human.out.split('\n')[0]).toMatch(/^TIME\s+MODE\s+TEXT$/);
    expect(human.out).toContain('今天遇到了萍萍');
    expect(human.out).toMatch(/2 of 50 record\(s\)\n/);
    expect(cli(dir, 'history', 'list', '--active-only', '--limit', '2').out).toMatch(/2 of 30 record\(s\) \(active file only: archives not searched\)/);
    expect(cli(dir, 'history', 'list', '--since', 'yesterday-ish').code).toBe(2);
    expect(cli(dir, 'history', 'list', '--bogus').code).toBe(2);
  }, 60_000);

  it('search: 2-character Chinese, archives included unless --active-only; several words all match, any order', () => {
    expect(json<{ total: number }>(dir, 'history', 'search', '萍萍', '--active-only').total).toBe(1);
    expect(json<{ total: number }>(dir, 'history', 'search', '萍萍').total).toBe(21);
    expect(json<{ total: number }>(dir, 'history', 'search', '萍萍', '--include-archived').total).toBe(21);
    // Several words (one argument or several): records holding all of them, in any order.
    expect(json<{ total: number }>(dir, 'history', 'search', '遇到 萍萍').total).toBe(json<{ total: number }>(dir, 'history', 'search', '萍萍 遇到').total);
    expect(json<{ total: number }>(dir, 'history', 'search', '萍萍', '遇到').total).toBe(json<{ total: number }>(dir, 'history', 'search', '萍萍 遇到').total);
    expect(json<{ total: number }>(dir, 'history', 'search', '萍萍 nosuchword').total).toBe(0);
    expect(json<{ total: number }>(dir, 'history', 'search', '"萍萍 0"').total).toBe(2);
    expect(cli(dir, 'history', 'search').code).toBe(2);
  }, 30_000);

  it('show: by id, JSON or fields; unknown id exits 1', () => {
    const rec = json<{ id: string; final_text: string; file: string }>(dir, 'history', 'show', 'REC000');
    expect(rec).toMatchObject({ id: 'REC000', final_text: '今天遇到了萍萍', file: 'active' });
    expect(cli(dir, 'history', 'show', 'ts:2025-11-03T08:00:00Z').out).toMatch(/file\s+2025-11/);
    const missing = cli(dir, 'history', 'show', 'NOPE');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no record with id NOPE/);
  }, 30_000);

  it('export: format from the extension (or --format), archives included', () => {
    const out = tmp();
    expect(json<{ records: number; format: string }>(dir, 'history', 'export', path.join(out, 'h.csv'))).toMatchObject({ records: 50, format: 'csv' });
    expect(fs.readFileSync(path.join(out, 'h.csv'), 'utf8').split('\r\n')[0]).toMatch(/^id,timestamp,/);
    expect(json<{ records: number }>(dir, 'history', 'export', path.join(out, 'h.jsonl')).records).toBe(50);
    expect(fileLines(path.join(out, 'h.jsonl'))).toHaveLength(50);
    expect(cli(dir, 'history', 'export', path.join(out, 'h.txt')).code).toBe(2);
    expect(json<{ format: string }>(dir, 'history', 'export', path.join(out, 'h.txt'), '--format', 'jsonl').format).toBe('jsonl');
  }, 30_000);

  it('stats: --days 7|14|30 only', () => {
    const s = json<{ perDay: { dictations: number }[] }>(dir, 'history', 'stats', '--days', '14');
    expect(s.perDay).toHaveLength(14);
    expect(s.perDay.reduce((n, d) => n + d.dictations, 0)).toBeGreaterThanOrEqual(13);
    expect(cli(dir, 'history', 'stats', '--days', '5').code).toBe(2);
  }, 30_000);

  it('import (no duplicates), reindex; writes refused while the folder is locked, reads still work', () => {
    const d = tmp();
    generate(d);
    const wenzi = tmp();
    fs.writeFileSync(path.join(wenzi, 'conversation_history.jsonl'), `${wenziLine('2026-01-05T00:00:00Z', 'wenzi a')}\n${wenziLine('2025-11-02T09:30:00Z', 'wenzi b')}\n`);
    expect(json<{ imported: number; duplicates: number }>(d, 'history', 'import', wenzi)).toMatchObject({ imported: 2, duplicates: 0 });
    expect(json<{ imported: number; duplicates: number }>(d, 'history', 'import', wenzi)).toMatchObject({ imported: 0, duplicates: 2 });
    expect(json<{ total: number }>(d, 'history', 'search', 'wenzi', '--include-archived').total).toBe(2);
    fs.rmSync(path.join(d, 'index.db'));
    expect(json<{ records: number }>(d, 'history', 'reindex').records).toBe(52);
    const lock = acquireDataLock(d, { role: 'app' });
    try {
      for (const args of [['import', wenzi], ['rotate'], ['reindex']]) {
        const r = cli(d, 'history', ...args);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.err).toMatch(/in use by another process[\s\S]*cannot run while Tingxie is using the folder/);
      }
      expect(json<{ total: number }>(d, 'history', 'list', '--include-archived').total).toBe(52);
    } finally {
      lock.release();
    }
  }, 60_000);

  it("rotate: the seed's rule at its real thresholds (20,001 records over 4 MB: one archived)", () => {
    const d = tmp();
    const ts = Array.from({ length: 20_001 }, (_, i) => new Date(Date.UTC(2025, 11, 31) + i * 60_000).toISOString());
    fs.writeFileSync(path.join(d, 'conversation_history.jsonl'), `${ts.map((t) => wenziLine(t, 'x'.repeat(200))).join('\n')}\n`);
    expect(json<{ rotated: boolean; activeRecords: number }>(d, 'history', 'rotate')).toMatchObject({ rotated: true, activeRecords: 20_000 });
    expect(fileLines(path.join(d, 'conversation_history_archives', '2025-12.jsonl'))).toHaveLength(1);
    expect(cli(d, 'history', 'rotate').out).toMatch(/nothing to rotate; 20000 record/);
  }, 60_000);
});
