import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../../src/cli/main.ts';
import { asrHotwordPrompt, VOCABULARY_DB_FILE, VocabularyStore } from '../../../../src/main/enhance/vocabulary-store.ts';
import { mountSmallFs, type SmallFs } from '../../../helpers/small-fs.ts';

/**
 * A damaged vocabulary.db never stops a dictation (the way test/unit/main/history/index-maintenance.test.ts
 * damages index.db, on the real better-sqlite3): every use on the dictation path — hotwords for the ASR,
 * pairs for the LLM prompt, counters after a confirmed dictation, the Settings list, the CLI — goes on,
 * the damaged file is renamed aside (never deleted: the vocabulary is the user's data, not derived), and
 * the pairs SQLite can still read are copied into a fresh file.
 */

const dirs: string[] = [];
const stores: VocabularyStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const NOW = new Date('2026-11-27T10:00:00.000Z');
const PAIRS = 400;

function dataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-vocab-'));
  dirs.push(d);
  return d;
}

function open(file: string): VocabularyStore {
  const s = VocabularyStore.open(file, { now: () => NOW });
  stores.push(s);
  return s;
}

/** A vocabulary of PAIRS pairs spread over many pages (notes pad the rows), with counters, closed cleanly. */
function seeded(dir: string): string {
  const file = path.join(dir, VOCABULARY_DB_FILE);
  const s = VocabularyStore.open(file);
  for (let i = 0; i < PAIRS; i++) s.add({ wrong: `错词${i}`, right: `正词${i}`, note: '备注'.repeat(60) });
  s.recordOutcome({ asrText: '错词1', enhancedText: '正词1', finalText: '正词1', asrModel: 'whisper-tiny', llmModel: 'm' });
  s.close();
  return file;
}

/** Every file in the folder whose name starts with `vocabulary.db.damaged-`. */
function damagedCopies(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => /^vocabulary\.db\.damaged-[0-9T-]+Z$/.test(f));
}

/** Everything the dictation path and Settings ask of the store: none of it may throw. */
function useLikeADictation(s: VocabularyStore): { hotwords: string[]; prompt: string; llm: number; listed: number } {
  const hotwords = s.hotwordsForAsr('whisper-tiny');
  const prompt = asrHotwordPrompt(s, 'whisper-tiny');
  const llm = s.pairsForLlm('m', '错词1 错词2').length;
  s.recordOutcome({ asrText: '错词1', enhancedText: '正词1', finalText: '正词1', asrModel: 'whisper-tiny', llmModel: 'm' });
  return { hotwords, prompt, llm, listed: s.list().length };
}

/** Overwrites the file from `offset` to its end with a byte pattern, keeping what is before. */
function corruptFrom(file: string, offset: number): void {
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, Buffer.alloc(size - offset, 0xa5), 0, size - offset, offset);
  fs.closeSync(fd);
}

describe('a damaged vocabulary.db', () => {
  it('garbage bytes: dictation goes on, the file is renamed aside byte for byte, a fresh vocabulary takes new pairs', () => {
    const dir = dataDir();
    const file = path.join(dir, VOCABULARY_DB_FILE);
    const garbage = Buffer.from('this is not a database at all, just garbage bytes '.repeat(200));
    fs.writeFileSync(file, garbage);
    const s = open(file);
    expect(useLikeADictation(s)).toEqual({ hotwords: [], prompt: '', llm: 0, listed: 0 });
    expect(s.damage).toMatchObject({ state: 'repaired', salvaged: 0, damagedCopy: path.join(dir, damagedCopies(dir)[0] ?? 'missing') });
    expect(fs.readFileSync(s.damage?.damagedCopy ?? '')).toEqual(garbage);
    s.add({ wrong: '平平', right: '萍萍' });
    expect(s.hotwordsForAsr('whisper-tiny')).toEqual(['萍萍']);
  });

  it('a truncated file: the pairs still readable are salvaged into the fresh file', () => {
    const dir = dataDir();
    const file = seeded(dir);
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    const s = open(file);
    const use = useLikeADictation(s);
    expect(s.damage?.state).toBe('repaired');
    expect(s.damage?.salvaged).toBeGreaterThan(0);
    expect(use.listed).toBe(s.damage?.salvaged);
    expect(use.hotwords.length).toBeGreaterThan(0);
    expect(damagedCopies(dir)).toHaveLength(1);
    // The fresh file is whole: a second start finds nothing wrong.
    s.close();
    expect(open(file).damage).toBeNull();
  });

  it('a zero-length file is an empty vocabulary (SQLite: a new database), nothing to set aside', () => {
    const dir = dataDir();
    const file = path.join(dir, VOCABULARY_DB_FILE);
    fs.writeFileSync(file, '');
    const s = open(file);
    expect(useLikeADictation(s)).toEqual({ hotwords: [], prompt: '', llm: 0, listed: 0 });
    expect(s.damage).toBeNull();
    s.add({ wrong: '平平', right: '萍萍' });
    expect(s.list()).toHaveLength(1);
  });

  it('a header shorter than SQLite needs', () => {
    const dir = dataDir();
    const file = path.join(dir, VOCABULARY_DB_FILE);
    fs.writeFileSync(file, Buffer.alloc(50, 7));
    const s = open(file);
    expect(useLikeADictation(s).hotwords).toEqual([]);
    expect(s.damage?.state).toBe('repaired');
    expect(fs.readFileSync(s.damage?.damagedCopy ?? '')).toEqual(Buffer.alloc(50, 7));
  });

  it('a folder in its place: moved aside with its contents, a fresh file takes its name', () => {
    const dir = dataDir();
    const file = path.join(dir, VOCABULARY_DB_FILE);
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'inside.txt'), 'kept');
    const s = open(file);
    expect(useLikeADictation(s).hotwords).toEqual([]);
    expect(s.damage?.state).toBe('repaired');
    expect(fs.readFileSync(path.join(s.damage?.damagedCopy ?? '', 'inside.txt'), 'utf8')).toBe('kept');
    expect(fs.statSync(file).isFile()).toBe(true);
  });

  it('header intact, pages after it corrupted ("database disk image is malformed"): the hotword lookup no longer throws', () => {
    const dir = dataDir();
    const file = seeded(dir);
    corruptFrom(file, 8192);
    // Before the fix: open succeeded and the first lookup threw inside transcribe.
    const s = open(file);
    expect(() => useLikeADictation(s)).not.toThrow();
    expect(s.damage).toMatchObject({ state: 'repaired' });
    expect(fs.statSync(s.damage?.damagedCopy ?? '').size).toBe(fs.statSync(path.join(dir, damagedCopies(dir)[0] ?? '')).size);
  });

  it('damage found mid-session (the file changed under an open store) is repaired on the next lookup, and said once', () => {
    const dir = dataDir();
    const file = seeded(dir);
    const s = open(file);
    const seen: string[] = [];
    s.onDamage((d) => seen.push(d.state));
    expect(s.hotwordsForAsr('whisper-tiny').length).toBeGreaterThan(0);
    // Another writer (a sync tool, a bad disk) garbles the pages; the zeroed wal-index makes SQLite drop its page cache.
    corruptFrom(file, 4096);
    fs.writeFileSync(`${file}-shm`, Buffer.alloc(fs.statSync(`${file}-shm`).size));
    expect(() => useLikeADictation(s)).not.toThrow();
    expect(() => s.add({ wrong: '平平', right: '萍萍' })).not.toThrow();
    expect(seen).toEqual(['repaired']);
    expect(s.list().map((e) => e.right)).toContain('萍萍');
    expect(damagedCopies(dir)).toHaveLength(1);
  });

  it('WAL and SHM left by a killed app beside a healthy file: replayed or ignored, never treated as damage', () => {
    const dir = dataDir();
    const file = seeded(dir);
    fs.writeFileSync(`${file}-wal`, Buffer.alloc(5000, 0x5a));
    fs.writeFileSync(`${file}-shm`, Buffer.alloc(32768, 0x33));
    const s = open(file);
    expect(s.damage).toBeNull();
    expect(useLikeADictation(s).listed).toBe(PAIRS);
  });

  it('a damaged file with the WAL of a killed app: both move aside together, the fresh file never replays the old WAL', () => {
    const dir = dataDir();
    const file = seeded(dir);
    // A second connection keeps the WAL alive while the first writes into it, then is dropped like a kill.
    const writer = new Database(file);
    writer.pragma('wal_autocheckpoint = 0');
    writer.prepare(`INSERT INTO vocab_entry (wrong, right, source, note, created_at, updated_at) VALUES ('闻子', 'WenZi', 'user', '', ?, ?)`).run(NOW.toISOString(), NOW.toISOString());
    fs.copyFileSync(`${file}-wal`, path.join(dir, 'wal.bak'));
    writer.close();
    fs.copyFileSync(path.join(dir, 'wal.bak'), `${file}-wal`);
    corruptFrom(file, 8192);
    const s = open(file);
    expect(() => useLikeADictation(s)).not.toThrow();
    expect(s.damage?.state).toBe('repaired');
    expect(fs.readFileSync(`${s.damage?.damagedCopy}-wal`)).toEqual(fs.readFileSync(path.join(dir, 'wal.bak')));
    // The fresh file is whole on the next start (an old WAL replayed into it would have broken it).
    s.close();
    expect(open(file).damage).toBeNull();
  });
});

describe('vocabulary.db in a read-only folder', () => {
  const mounts: SmallFs[] = [];
  afterAll(() => {
    for (const m of mounts.splice(0)) m.unmount();
  });

  it('is used as it is: hotwords and prompt pairs work, counters are skipped, an edit says why it failed; nothing is moved', (ctx) => {
    const small = mountSmallFs(8 * 1024 * 1024);
    if ('skip' in small) return ctx.skip(small.skip);
    mounts.push(small);
    const file = seeded(small.dir);
    small.remount('ro');
    const s = open(file);
    stores.splice(stores.indexOf(s), 1);
    try {
      const use = useLikeADictation(s);
      expect(use.hotwords.length).toBeGreaterThan(0);
      expect(use.listed).toBe(PAIRS);
      expect(s.damage?.state).toBe('read-only');
      expect(() => s.add({ wrong: '平平', right: '萍萍' })).toThrow(/cannot be written/);
      expect(fs.readdirSync(small.dir)).toEqual([VOCABULARY_DB_FILE]);
    } finally {
      s.close();
    }
  });

  it('damaged and read-only: the readable pairs are used from memory, the file is left where it is', (ctx) => {
    const small = mountSmallFs(8 * 1024 * 1024);
    if ('skip' in small) return ctx.skip(small.skip);
    mounts.push(small);
    const file = seeded(small.dir);
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    small.remount('ro');
    const s = open(file);
    stores.splice(stores.indexOf(s), 1);
    try {
      expect(() => useLikeADictation(s)).not.toThrow();
      expect(s.damage).toMatchObject({ state: 'unavailable', damagedCopy: null });
      expect(s.damage?.salvaged).toBeGreaterThan(0);
      expect(s.list().length).toBe(s.damage?.salvaged);
      expect(() => s.add({ wrong: '平平', right: '萍萍' })).toThrow(/cannot be written/);
      expect(fs.readdirSync(small.dir)).toEqual([VOCABULARY_DB_FILE]);
    } finally {
      s.close();
    }
  });
});

describe('no vocabulary.db in a read-only folder', () => {
  it('an empty vocabulary, said to be read-only, never a failure', (ctx) => {
    const small = mountSmallFs(8 * 1024 * 1024);
    if ('skip' in small) return ctx.skip(small.skip);
    try {
      small.remount('ro');
      const s = VocabularyStore.open(path.join(small.dir, VOCABULARY_DB_FILE));
      expect(useLikeADictation(s)).toEqual({ hotwords: [], prompt: '', llm: 0, listed: 0 });
      expect(s.damage).toMatchObject({ state: 'read-only', damagedCopy: null });
      s.close();
    } finally {
      small.unmount();
    }
  });
});

describe('the CLI over a damaged vocabulary.db', () => {
  async function cli(dir: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main([...args, '--data-dir', dir], { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) }, env: {} });
    return { code, out: out.join(''), err: err.join('') };
  }

  it('`vocabulary list` and `enhance --dry-run` work, with the salvaged pairs', async () => {
    const dir = dataDir();
    const file = seeded(dir);
    corruptFrom(file, 8192);
    const list = await cli(dir, 'vocabulary', 'list');
    expect(list.code, list.err).toBe(0);
    expect(damagedCopies(dir)).toHaveLength(1);
    const config = { version: 2, ai_enhance: { providers: { p: { kind: 'other', base_url: 'http://127.0.0.1:9/v1', models: ['m'] } }, default_provider: 'p', default_model: 'm' } };
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
    const dry = await cli(dir, 'enhance', '--dry-run', '错词1');
    expect(dry.code, dry.err).toBe(0);
  });
});
