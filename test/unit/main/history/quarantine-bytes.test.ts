import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { MAX_LINE_BYTES } from '../../../../src/main/history/store/jsonl-reader.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import { quiet, useTempDirs, wenziLine } from '../../../helpers/history-fixtures.ts';
import { filesWithReplacementCharacter, quarantinedBytes, sha } from './byte-fixtures.ts';

/**
 * Lines set aside in the quarantine file keep their exact bytes: one that is not valid UTF-8 (a torn
 * append cut inside a character, a line too long to load with a stray byte) is kept as `text_base64`,
 * never as text with U+FFFD in place of its bytes, and de-duplicated by its sha256.
 */

const tmp = useTempDirs();

const record = (i: number): string => wenziLine(`2026-01-0${1 + i}T08:00:00Z`, `记录 ${i}`);

describe('the quarantine file keeps bytes that are not UTF-8', () => {
  it('a torn last line cut inside a multi-byte character is quarantined as its exact bytes', async () => {
    const dir = tmp();
    const p = historyPaths(dir);
    // An append interrupted after the first byte of 字 (E5 AD 97).
    const torn = Buffer.concat([Buffer.from('{"timestamp":"2026-01-09T00:00:00Z","final_text":"'), Buffer.from([0xe5])]);
    fs.writeFileSync(p.active, Buffer.concat([Buffer.from(`${record(0)}\n`), torn]));
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    await store.close();
    expect(store.openReport.tail.kind).toBe('quarantined');
    // Before the fix: `text` ended in U+FFFD where 0xE5 was.
    expect(quarantinedBytes(p.quarantine).map(sha)).toEqual([sha(torn)]);
    expect(fs.readFileSync(p.active, 'utf8')).toBe(`${record(0)}\n`);
    expect(filesWithReplacementCharacter(dir)).toEqual([]);
  });

  it('the same bytes quarantined twice (a crash between quarantine and truncate) are kept once', async () => {
    const dir = tmp();
    const p = historyPaths(dir);
    const torn = Buffer.concat([Buffer.from('{"timestamp":"2026-01-09T00:00:00Z","final_text":"'), Buffer.from([0xe5])]);
    for (let i = 0; i < 2; i++) {
      fs.writeFileSync(p.active, Buffer.concat([Buffer.from(`${record(0)}\n`), torn]));
      const store = await HistoryStore.open({ dataDir: dir, ...quiet });
      await store.close();
    }
    expect(quarantinedBytes(p.quarantine).map(sha)).toEqual([sha(torn)]);
  });

  it('a line too long to load, with a stray byte, set aside at open: exact bytes across read chunks', async () => {
    const dir = tmp();
    const p = historyPaths(dir);
    // Longer than the limit; 0xFF sits across the 1 MiB read boundary, and the length is not a multiple of 3 (base64 groups).
    const big = Buffer.alloc(MAX_LINE_BYTES + 1024 * 1024 + 2, 0x61);
    big[1024 * 1024] = 0xff;
    fs.writeFileSync(p.active, Buffer.concat([Buffer.from(`${record(0)}\n`), big, Buffer.from(`\n${record(1)}\n`)]));
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    await store.close();
    expect(store.openReport.oversizedSetAside).toBe(1);
    // Before the fix: the quarantined text held U+FFFD where 0xFF was.
    expect(quarantinedBytes(p.quarantine).map(sha)).toEqual([sha(big)]);
    expect(fs.readFileSync(p.active, 'utf8')).toBe(`${record(0)}\n${record(1)}\n`);
    expect(filesWithReplacementCharacter(dir)).toEqual([]);
  }, 30_000);
});
