import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { setTopLevelFields } from '../../../../src/main/history/store/jsonl-reader.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import { quiet, useTempDirs, wenziLine } from '../../../helpers/history-fixtures.ts';

/**
 * An edit changes a record's line in place (jsonl-reader.ts `setTopLevelFields`) instead of writing a
 * re-serialised object: every other byte stays (WenZi's spellings, unknown fields however deep), and a
 * retention rewrite that meets a file it must not rewrite (invalid UTF-8) still does the others.
 */

const tmp = useTempDirs();

describe('setTopLevelFields', () => {
  it('changes only the named members: layout, escapes, number spellings and nested values stay byte for byte', () => {
    const line = '{"timestamp": "2026-01-01T00:00:00+00:00", "final_text": "\\u4f60", "score": 1.50, "ctx": {"final_text": "inner", "a": [1, {"b": "}"}]}, "s": "a,\\"}"}';
    const out = setTopLevelFields(line, { final_text: '您好', edited_at: 'T' });
    expect(out).toBe('{"timestamp": "2026-01-01T00:00:00+00:00", "final_text": "您好", "score": 1.50, "ctx": {"final_text": "inner", "a": [1, {"b": "}"}]}, "s": "a,\\"}", "edited_at": "T"}');
    expect(JSON.parse(out)).toMatchObject({ final_text: '您好', ctx: { final_text: 'inner' }, s: 'a,"}', edited_at: 'T' });
  });

  it('compact lines get compact members; an empty object gets its first member; undefined leaves a field alone', () => {
    expect(setTopLevelFields('{"a":1,"b":[2]}', { b: null, c: 'x', a: undefined })).toBe('{"a":1,"b":null,"c":"x"}');
    expect(setTopLevelFields('{ }', { a: 1 })).toBe('{"a":1 }');
  });

  it('is linear: a member nested 100,000 deep is kept without recursion', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const out = setTopLevelFields(`{"timestamp":"t","x":${deep},"final_text":"a"}`, { final_text: 'b' });
    expect(out).toBe(`{"timestamp":"t","x":${deep},"final_text":"b"}`);
  });
});

describe('deleteWhere (retention) and a file that holds invalid UTF-8', () => {
  it('deletes in the other files, leaves that one byte for byte, then names it', async () => {
    const data = tmp();
    const paths = historyPaths(data);
    fs.mkdirSync(paths.archivesDir, { recursive: true });
    const archived = Buffer.concat([Buffer.from(`${wenziLine('2025-11-01T00:00:00Z', 'old')}\n`), Buffer.from('{"timestamp": "2025-11-02T00:00:00Z", "asr_text": "\xff"}\n', 'latin1')]);
    fs.writeFileSync(paths.archive('2025-11'), archived);
    fs.writeFileSync(paths.archive('2025-12'), `${wenziLine('2025-12-01T00:00:00Z', 'old too')}\n`);
    fs.writeFileSync(paths.active, `${wenziLine('2026-01-01T00:00:00Z', 'new')}\n`);
    const store = await HistoryStore.open({ dataDir: data, ...quiet });
    await expect(store.deleteWhere((r) => r.timestamp < '2026')).rejects.toThrow(/2025-11\.jsonl line\(s\) 2 are not valid UTF-8/);
    expect(fs.readFileSync(paths.archive('2025-11')).equals(archived)).toBe(true);
    expect(fs.readFileSync(paths.archive('2025-12'), 'utf8')).toBe('');
    expect(await store.readFile('active')).toHaveLength(1);
    await store.close();
  });
});
