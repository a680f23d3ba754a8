import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePair } from '../../../src/cli/commands/vocabulary.ts';
import { VOCABULARY_DB_FILE, VocabularyStore } from '../../../src/main/enhance/vocabulary-store.ts';
import { makeTempDir, rmTempDir } from '../../helpers/history-fixtures.ts';

/** `tingxie vocabulary`, spawned as a user runs it, over the same vocabulary.db the app reads. */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const BIN = path.join(ROOT, 'bin/tingxie.mjs');

function cli(dataDir: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(NODE, [BIN, '--data-dir', dataDir, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const dirs: string[] = [];
function tmp(): string {
  const d = makeTempDir();
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach(rmTempDir));

/** What the app's enhancer would get for this text. */
function appPairs(dir: string, text: string): string[] {
  const store = VocabularyStore.open(path.join(dir, VOCABULARY_DB_FILE));
  try {
    return store.pairsForLlm('qwen2.5:7b', text).map((e) => `${e.wrong}→${e.right}`);
  } finally {
    store.close();
  }
}

describe('tingxie vocabulary', () => {
  it('parses the pair forms', () => {
    expect(parsePair(['小龚→小宫'])).toEqual({ wrong: '小龚', right: '小宫' });
    expect(parsePair(['sequel light -> SQLite'])).toEqual({ wrong: 'sequel light', right: 'SQLite' });
    expect(parsePair(['sequel', 'SQLite'])).toEqual({ wrong: 'sequel', right: 'SQLite' });
    expect(() => parsePair(['no arrow'])).toThrow(/wrong→right/);
  });

  it('add, list and remove work on the store the app injects from', () => {
    const dir = tmp();
    expect(cli(dir, 'vocabulary', 'add', '小龚→小宫').code).toBe(0);
    expect(cli(dir, 'vocabulary', 'add', 'sequel light -> SQLite', '--note', 'database').code).toBe(0);
    expect(appPairs(dir, '小龚明天来')).toEqual(['小龚→小宫', 'sequel light→SQLite']);
    const listed = JSON.parse(cli(dir, '--json', 'vocabulary', 'list').out) as { id: number; wrong: string; right: string; note: string }[];
    expect(listed.map((e) => [e.wrong, e.right, e.note])).toEqual([
      ['sequel light', 'SQLite', 'database'],
      ['小龚', '小宫', ''],
    ]);
    expect(cli(dir, 'vocabulary', 'list', 'SQL').out).toContain('sequel light → SQLite');
    expect(cli(dir, 'vocabulary', 'remove', String(listed[1]?.id)).code).toBe(0);
    expect(cli(dir, 'vocabulary', 'remove', 'sequel light→SQLite').code).toBe(0);
    expect(appPairs(dir, '小龚明天来')).toEqual([]);
    const missing = cli(dir, 'vocabulary', 'remove', '999');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no such pair/);
    expect(cli(dir, 'vocabulary', 'add', 'same→same').code).toBe(1);
    expect(cli(dir, 'vocabulary', 'add').code).toBe(2);
  });

  it('imports a Tingxie export and a WenZi vocabulary database (variant → term)', () => {
    const dir = tmp();
    const exportFile = path.join(dir, 'export.json');
    fs.writeFileSync(exportFile, JSON.stringify({ version: 1, entries: [{ wrong: '平平', right: '萍萍' }] }));
    expect(cli(dir, 'vocabulary', 'import', exportFile).out).toMatch(/imported 1 new pair/);
    const wenzi = path.join(dir, 'wenzi-vocab.db');
    const db = new Database(wenzi);
    db.exec(`CREATE TABLE vocab_entry (id INTEGER PRIMARY KEY, variant TEXT, term TEXT, frequency INTEGER);
      INSERT INTO vocab_entry (variant, term, frequency) VALUES ('科大迅飞', '科大讯飞', 3), ('平平', '萍萍', 1);`);
    db.close();
    const r = cli(dir, 'vocabulary', 'import', wenzi);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/imported 1 new pair\(s\), 1 already present/);
    expect(appPairs(dir, '科大迅飞').sort()).toEqual(['平平→萍萍', '科大迅飞→科大讯飞']);
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{"entries": 5}');
    expect(cli(dir, 'vocabulary', 'import', bad).code).toBe(1);
  });
});
