import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryIndex } from '../../../../src/main/history/index/history-index.ts';
import { readTailRecords } from '../../../../src/main/history/store/hot-cache.ts';
import { applyChanges, detectChanges } from '../../../../src/main/history/index/index-follow.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import { useTempDirs, wenziLine } from '../../../helpers/history-fixtures.ts';

/**
 * Reads that only feed the index (search) or the hot cache (prompt injection) treat a line whose bytes
 * are not valid UTF-8 as the reader does (jsonl-reader.ts): a bad line, skipped and counted, never a
 * record with U+FFFD in its text.
 */

const tmp = useTempDirs();

/** A WenZi line with `bad` bytes inside its texts: valid JSON around them, so a lenient decode parses it as a record. */
function invalidRecordLine(ts: string, text: string, bad: Buffer): Buffer {
  const [before, ...rest] = wenziLine(ts, 'XXX').split('XXX');
  return Buffer.concat([Buffer.from(before ?? ''), ...rest.flatMap((p) => [Buffer.from(text), bad, Buffer.from(p)])]);
}

const nl = Buffer.from('\n');

describe('the hot cache (prompt injection)', () => {
  it('skips a line that is not valid UTF-8 instead of injecting it with U+FFFD', async () => {
    const file = path.join(tmp(), 'conversation_history.jsonl');
    const lines = [
      Buffer.from(wenziLine('2026-01-01T00:00:00Z', 'first')),
      invalidRecordLine('2026-01-02T00:00:00Z', 'latin1 ', Buffer.from([0xe9])),
      Buffer.from(wenziLine('2026-01-03T00:00:00Z', 'third')),
      invalidRecordLine('2026-01-04T00:00:00Z', 'cut ', Buffer.from([0xc3])),
    ];
    fs.writeFileSync(file, Buffer.concat(lines.flatMap((l) => [l, nl])));
    // Small chunks: lines cross chunk boundaries.
    for (const chunk of [7, 64, 64 * 1024]) {
      const records = await readTailRecords(file, 10, chunk);
      // Before the fix: four records, two of them with U+FFFD in their texts.
      expect(records.map((r) => r.final_text), `chunk ${chunk}`).toEqual(['first', 'third']);
    }
    expect((await readTailRecords(file, 1, 7)).map((r) => r.final_text)).toEqual(['third']);
  });

  it('still reads CRLF lines, an unterminated last record and a file of one line', async () => {
    const file = path.join(tmp(), 'conversation_history.jsonl');
    fs.writeFileSync(file, `${wenziLine('2026-01-01T00:00:00Z', 'a')}\r\n\n${wenziLine('2026-01-02T00:00:00Z', 'b')}`);
    expect((await readTailRecords(file, 10, 5)).map((r) => r.final_text)).toEqual(['a', 'b']);
    fs.writeFileSync(file, wenziLine('2026-01-01T00:00:00Z', 'only'));
    expect((await readTailRecords(file, 10, 5)).map((r) => r.final_text)).toEqual(['only']);
  });
});

describe('the index following an appended tail', () => {
  it('counts a line that is not valid UTF-8 as a bad line and never indexes it', async () => {
    const dir = tmp();
    const active = historyPaths(dir).active;
    fs.writeFileSync(active, `${wenziLine('2026-01-01T00:00:00Z', 'first')}\n`);
    const index = HistoryIndex.open(path.join(dir, 'index.db'));
    try {
      await applyChanges(index, detectChanges(index, dir));
      expect(index.count('active')).toBe(1);
      const bad = invalidRecordLine('2026-01-02T00:00:00Z', 'bad ', Buffer.from([0xff]));
      // A last line cut inside a character (E5 of 字) with no newline: a writer mid-line, left for later.
      const cut = Buffer.concat([Buffer.from(wenziLine('2026-01-04T00:00:00Z', 'cut').slice(0, -3)), Buffer.from([0xe5])]);
      fs.appendFileSync(active, Buffer.concat([bad, nl, Buffer.from(wenziLine('2026-01-03T00:00:00Z', 'third')), nl, cut]));
      const changes = detectChanges(index, dir);
      expect(changes.map((c) => c.kind)).toEqual(['appended']);
      const result = await applyChanges(index, changes);
      // Before the fix: 2 records (one with U+FFFD in its texts), 0 bad lines.
      expect(result).toMatchObject({ records: 1, badLines: 1 });
      expect(index.count('active')).toBe(2);
      expect(index.getFileState('active')?.size).toBe(fs.statSync(active).size - cut.length);
    } finally {
      index.close();
    }
  });
});
