import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import { rotationIntentPath } from '../../../../src/main/history/rotation/rotation-run.ts';
import { commitRotation, prepareRotation } from '../../../../src/main/history/rotation/rotation-snapshot.ts';
import { newRecord, quiet, useTempDirs } from '../../../helpers/history-fixtures.ts';
import { filesWithReplacementCharacter, invalidRecordLine, quarantinedBytes, rawLines, recordIds, sha, shasFound } from './byte-fixtures.ts';

/**
 * Rotation carries every line's bytes unchanged. A line that is not valid UTF-8 is an unreadable line
 * (jsonl-reader.ts): when it is among the moving ones it goes to the quarantine file like any bad line,
 * with its exact bytes (`text_base64`); it never reaches an archive or the quarantine as U+FFFD text,
 * and it never stops the rotation. The same holds for a rotation finished after a crash.
 */

const tmp = useTempDirs();

const record = (i: number): string => JSON.stringify({ ...newRecord({ final_text: `记录 ${i}` }), id: `rec-${String(i).padStart(3, '0')}`, timestamp: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T08:00:00Z` });

describe('rotation keeps every line byte for byte', () => {
  it('lines with 0xFF and a cut 0xC3 leave the active file as their exact bytes; every record is still there once', async () => {
    const dir = tmp();
    const bad = [
      invalidRecordLine('2026-01-03T00:00:00Z', Buffer.from([0xff])),
      // A two-byte lead (é is C3 A9) followed by the closing quote: decoded leniently, U+FFFD and still JSON.
      invalidRecordLine('2026-01-04T00:00:00Z', Buffer.from([0xc3])),
      Buffer.concat([Buffer.from('not json 坏'), Buffer.from([0xc3])]),
    ];
    const lines = [Buffer.from(record(0)), bad[0], Buffer.from(record(1)), bad[1], bad[2], Buffer.from(record(2))] as Buffer[];
    fs.writeFileSync(historyPaths(dir).active, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
    const warnings: string[] = [];
    const store = await HistoryStore.open({ dataDir: dir, maxRecords: 2, rotateMinBytes: 0, rotationQuietMs: 0, warn: (m) => warnings.push(m) });
    const logged: string[] = [];
    for (let i = 0; i < 6; i++) {
      logged.push((await store.log({ ...newRecord({ final_text: `new ${i}` }), id: `new-${i}` })).id as string);
      await store.rotateNow();
    }
    await store.close();
    expect(warnings.filter((w) => w.includes('rotation failed'))).toEqual([]);
    expect(store.rotationsCompleted).toBeGreaterThan(0);
    // The bad lines were all in the moving head: none is left in the active file.
    const active = rawLines(historyPaths(dir).active).map(sha);
    for (const b of bad) expect(active).not.toContain(sha(b));
    // Before the fix: the archive held lines 1 and 2 with U+FFFD, the quarantine line 3 with U+FFFD.
    const found = shasFound(dir);
    for (const b of bad) expect(found.has(sha(b)), b.toString('latin1')).toBe(true);
    expect(filesWithReplacementCharacter(dir)).toEqual([]);
    const ids = recordIds(dir);
    expect(ids.sort()).toEqual(['rec-000', 'rec-001', 'rec-002', ...logged].sort());
  });

  it('a rotation finished after a crash quarantines a line that is not UTF-8 byte for byte', async () => {
    const dir = tmp();
    const p = historyPaths(dir);
    const bad = invalidRecordLine('2026-01-03T00:00:00Z', Buffer.from([0xff]));
    const lines = [Buffer.from(record(0)), bad, Buffer.from(record(1)), Buffer.from(record(2))];
    fs.writeFileSync(p.active, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
    // Step 1 of a rotation (rotation-run.ts) done, nothing else: the store finishes it on open.
    fs.mkdirSync(p.journalDir, { recursive: true });
    fs.writeFileSync(rotationIntentPath(p), JSON.stringify({ version: 1, created_at: '2026-01-05T00:00:00Z', moves: [{ key: 'rec-000', month: '2026-01' }] }));
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    await store.close();
    expect(store.openReport.recoveredRotation?.moves).toHaveLength(1);
    // Before the fix: the quarantine held the line with U+FFFD in place of 0xFF.
    expect(quarantinedBytes(p.quarantine).map(sha)).toEqual([sha(bad)]);
    expect(JSON.parse(fs.readFileSync(p.quarantine, 'utf8'))).toMatchObject({ source: 'active', reason: expect.stringMatching(/not valid UTF-8.*text_base64/), bytes: bad.length, sha256: sha(bad) });
    expect(filesWithReplacementCharacter(dir)).toEqual([]);
    expect(recordIds(dir).sort()).toEqual(['rec-000', 'rec-001', 'rec-002']);
  });
});

describe('a rotation never splices another file', () => {
  it('the commit refuses when the active file was replaced (renamed over) after the snapshot', async () => {
    const dir = tmp();
    const p = historyPaths(dir);
    const lines = [0, 1, 2, 3].map(record);
    fs.writeFileSync(p.active, `${lines.join('\n')}\n`);
    const prep = await prepareRotation(p, fs.statSync(p.active).size, 2, '2026-01-05T00:00:00Z');
    // Another program rewrites the file atomically: an edit of record 3, and a new record.
    const edited = (lines[3] ?? '').replace('记录 3', '记录 3, edited elsewhere');
    const replacement = `${[...lines.slice(0, 3), edited, record(4)].join('\n')}\n`;
    fs.writeFileSync(`${p.active}.other`, replacement);
    fs.renameSync(`${p.active}.other`, p.active);
    // Before the fix: the old snapshot's kept lines plus whatever the new file held past the old length
    // were renamed over it: the edit of record 3 was lost, and the new record came out cut.
    await expect(commitRotation(p, prep)).rejects.toThrow(/replaced during the rotation/);
    expect(fs.readFileSync(p.active, 'utf8')).toBe(replacement);
  });
});
