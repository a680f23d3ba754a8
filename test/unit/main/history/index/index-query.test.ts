import { beforeEach, describe, expect, it } from 'vitest';
import type { HistoryIndex } from '../../../../../src/main/history/index/history-index.ts';
import { InvalidHistoryQueryError } from '../../../../../src/main/history/index/index-query.ts';
import type { HistoryPage, HistoryQuery } from '../../../../../src/shared/history/query.ts';
import { rec, row, useTempIndex } from '../index-fixtures.ts';

let index: HistoryIndex;
useTempIndex((opened) => (index = opened));

/** Walks every page with nextCursor; returns keys in order and the pages. */
function walk(q: HistoryQuery): { keys: string[]; pages: HistoryPage[] } {
  const pages: HistoryPage[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const p = index.query({ ...q, cursor });
    pages.push(p);
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
  return { keys: pages.flatMap((p) => p.rows.map((r) => r.key)), pages };
}

describe('HistoryIndex.query — text search', () => {
  beforeEach(() => {
    index.upsert([
      row(rec(1, { asr_text: '果果今天在公园里遇到了平平。', enhanced_text: '果果今天在公园里遇到了平平。', final_text: '果果今天在公园里遇到了萍萍。', user_corrected: true })),
      row(rec(2, { asr_text: '平平对果果说我今天吃了面条。', final_text: '萍萍对果果说我今天吃了面条。', user_corrected: true }), '2024-12'),
      row(rec(3, { asr_text: 'Open the WenZi settings', final_text: 'Open the WenZi settings.' })),
      row(rec(4, { asr_text: 'wenzi is lowercase here', final_text: 'wenzi is lowercase here' }), '2024-11'),
      row(rec(5, { asr_text: '100% sure_thing', final_text: '100% sure_thing' })),
      row(rec(6, { asr_text: '100 percent sure', final_text: '100 percent sure' })),
    ]);
  });

  it('finds a 2-character Chinese name via the n-gram index, only in the final text', () => {
    const p = index.query({ text: '萍萍' });
    expect(p.textMode).toBe('ngram');
    expect(p.rows.map((r) => r.key)).toEqual(['R00000001']);
    expect(index.query({ text: '萍萍', includeArchived: true }).rows.map((r) => r.key)).toEqual(['R00000002', 'R00000001']);
    // The ASR misspelling is found too (searched across all three texts).
    expect(index.query({ text: '平平', includeArchived: true }).total).toBe(2);
  });

  it('finds 3+ character Chinese text through the trigram FTS index', () => {
    const p = index.query({ text: '公园里' });
    expect(p.textMode).toBe('fts');
    expect(p.rows.map((r) => r.key)).toEqual(['R00000001']);
    expect(index.query({ text: '今天吃了面条', includeArchived: true }).rows.map((r) => r.key)).toEqual(['R00000002']);
    expect(index.query({ text: '公园外' }).total).toBe(0);
  });

  it('matches English case-insensitively and respects the archive toggle', () => {
    expect(index.query({ text: 'WENZI' }).rows.map((r) => r.key)).toEqual(['R00000003']);
    expect(index.query({ text: 'wenzi', includeArchived: true }).rows.map((r) => r.key)).toEqual(['R00000004', 'R00000003']);
    const archived = index.query({ text: 'Wenzi', includeArchived: true }).rows.find((r) => r.key === 'R00000004');
    expect(archived?.archived).toBe(true);
    expect(archived?.file).toBe('2024-11');
  });

  it('treats % and _ literally in short and long queries', () => {
    expect(index.query({ text: '0%' }).rows.map((r) => r.key)).toEqual(['R00000005']);
    expect(index.query({ text: '%' }).rows.map((r) => r.key)).toEqual(['R00000005']);
    expect(index.query({ text: 'e_t' }).rows.map((r) => r.key)).toEqual(['R00000005']);
    expect(index.query({ text: '_' }).total).toBe(1);
  });

  it('never throws on FTS syntax in the user text', () => {
    for (const text of ['"', '""', '"abc', '*', 'abc*', 'NEAR(', 'NEAR(a b)', 'a OR b', 'OR', '-', '-abc', 'a AND NOT b', '^abc', 'body:abc', '(', ')))', "'; DROP TABLE records; --", '\\', '\u0000ab', '   ']) {
      expect(() => index.query({ text, includeArchived: true }), text).not.toThrow();
    }
    expect(index.query({ text: 'a OR b' }).total).toBe(0);
  });

  it('rejects invalid queries and foreign cursors with a clear error', () => {
    expect(() => index.query({ text: 'x'.repeat(201) })).toThrow(InvalidHistoryQueryError);
    expect(() => index.query({ pageSize: 501 })).toThrow(InvalidHistoryQueryError);
    expect(() => index.query({ cursor: 'garbage' })).toThrow(InvalidHistoryQueryError);
    expect(() => index.query({ since: 'yesterday-ish' })).toThrow(InvalidHistoryQueryError);
  });
});

describe('HistoryIndex.query — filters', () => {
  it('combines text, time window, mode, models, corrected and archive flags', () => {
    const rows = [];
    for (let i = 0; i < 400; i++) {
      rows.push(
        row(
          rec(i, {
            asr_text: i % 2 === 0 ? `会议纪要 meeting ${i}` : `购物清单 ${i}`,
            final_text: i % 2 === 0 ? `会议纪要 Meeting ${i}` : `购物清单 ${i}`,
            enhance_mode: ['proofread', 'translate', 'email'][i % 3] ?? 'proofread',
            stt_model: i % 5 === 0 ? 'whisper-small' : 'whisper-base',
            llm_model: i % 7 === 0 ? 'gpt-4o-mini' : 'qwen2.5:7b',
            user_corrected: i % 4 === 0,
          }),
          i < 200 ? '2025-01' : 'active',
        ),
      );
    }
    index.upsert(rows);
    const since = new Date(Date.UTC(2025, 0, 1) + 100 * 60_000).toISOString();
    const until = new Date(Date.UTC(2025, 0, 1) + 350 * 60_000).toISOString();
    const q = { text: 'meeting', since, until, modes: ['proofread', 'email'], sttModels: ['whisper-base'], corrected: true, includeArchived: true };
    const expected = [];
    for (let i = 350; i >= 100; i--) {
      if (i % 2 === 0 && i % 3 !== 1 && i % 5 !== 0 && i % 4 === 0) expected.push(`R${String(i).padStart(8, '0')}`);
    }
    const page = index.query(q);
    expect(page.rows.map((r) => r.key)).toEqual(expected);
    expect(page.total).toBe(expected.length);
    expect(page.facets?.corrected).toEqual({ yes: expected.length, no: 0 });
    // Same filters without text and without archives.
    const active = index.query({ ...q, text: '', includeArchived: false });
    const expActive = [];
    for (let i = 350; i >= 200; i--) if (i % 3 !== 1 && i % 5 !== 0 && i % 4 === 0) expActive.push(`R${String(i).padStart(8, '0')}`);
    expect(active.rows.map((r) => r.key)).toEqual(expActive);
    // 2-character text with filters uses the n-gram index and the same filters.
    const short = index.query({ ...q, text: '会议' });
    expect(short.textMode).toBe('ngram');
    expect(short.rows.map((r) => r.key)).toEqual(expected);
    // LLM model facet and filter.
    const gpt = index.query({ llmModels: ['gpt-4o-mini'], includeArchived: true });
    expect(gpt.total).toBe(Math.ceil(400 / 7));
    expect(index.query({ includeArchived: true }).facets?.llmModels['gpt-4o-mini']).toBe(Math.ceil(400 / 7));
  });
});

describe('HistoryIndex.query — keyset pagination', () => {
  function fill(n: number, archivedEvery = 0): void {
    const rows = [];
    for (let i = 0; i < n; i++) rows.push(row(rec(i, { asr_text: `公园里散步 ${i}` }), archivedEvery && i % archivedEvery === 0 ? '2024-12' : 'active'));
    // Insert in shuffled order: rowids come from timestamps, not insertion order.
    rows.sort((a, b) => ((a.key.charCodeAt(9) * 31 + a.key.length) % 7) - ((b.key.charCodeAt(9) * 31 + b.key.length) % 7));
    index.upsert(rows);
  }

  for (const n of [0, 1, 99, 100, 101, 200, 201, 1234]) {
    it(`walks all pages for ${n} records, with and without text, matching a brute-force ordering`, () => {
      fill(n);
      const brute = Array.from({ length: n }, (_, i) => `R${String(i).padStart(8, '0')}`).reverse();
      for (const text of ['', '公园里', '散步']) {
        const { keys, pages } = walk({ text });
        expect(keys).toEqual(brute);
        const expectedPages = Math.max(1, Math.ceil(n / 100));
        expect(pages.length).toBe(expectedPages);
        pages.forEach((p, i) => {
          expect(p.page).toBe(i + 1);
          expect(p.pageCount).toBe(expectedPages);
          expect(p.total).toBe(n);
          expect(p.prevCursor === null).toBe(i === 0);
        });
        if (n > 0) expect(pages[pages.length - 1]?.rows.length).toBe(n % 100 === 0 ? 100 : n % 100);
      }
    });
  }

  it('goes back with prevCursor to the same rows and page numbers', () => {
    fill(350, 3);
    const q = { text: '公园里', includeArchived: true, pageSize: 50 };
    const { pages } = walk(q);
    expect(pages.length).toBe(7);
    let p = pages[pages.length - 1] as HistoryPage;
    for (let i = pages.length - 2; i >= 0; i--) {
      p = index.query({ ...q, cursor: p.prevCursor ?? undefined });
      expect(p.page).toBe(i + 1);
      expect(p.rows.map((r) => r.key)).toEqual(pages[i]?.rows.map((r) => r.key));
    }
    expect(p.prevCursor).toBeNull();
  });

  it('walks only active records when archives are excluded, including interleaved ones', () => {
    fill(450, 4);
    const expected = Array.from({ length: 450 }, (_, i) => i).filter((i) => i % 4 !== 0).reverse().map((i) => `R${String(i).padStart(8, '0')}`);
    expect(walk({}).keys).toEqual(expected);
    expect(walk({ text: '公园里' }).keys).toEqual(expected);
    expect(walk({ text: '公园' }).keys).toEqual(expected);
  });

  it('plans deep pages as rowid searches, never a full scan or a sort', () => {
    fill(300);
    for (const q of [{}, { includeArchived: true }, { text: '公园里', includeArchived: true }, { text: '公园里', modes: ['x'] }, { text: '公园', includeArchived: true }]) {
      const plan = index.explain(q, 12345).join('\n');
      expect(plan, JSON.stringify(q)).not.toMatch(/TEMP B-TREE|OFFSET/);
      expect(plan, JSON.stringify(q)).toMatch(/rowid[<>]|:M1>|64:|INDEX records_file/);
    }
  });
});

describe('HistoryIndex.query — the app filter (input context)', () => {
  beforeEach(() => {
    index.upsert([
      row(rec(1, { final_text: 'see you at five', input_context: { app_name: 'WeChat', bundle_id: 'wechat' } })),
      row(rec(2, { final_text: 'git status', input_context: { app_name: 'Terminal', bundle_id: 'com.apple.Terminal' } })),
      row(rec(3, { final_text: 'ok see you', input_context: { app_name: 'WeChat', bundle_id: 'com.tencent.xinWeChat', window_title: 'Li' } })),
      // An older WenZi record kept the app as a plain string; one kept none.
      row(rec(4, { final_text: 'hello', input_context: 'Slack' })),
      row(rec(5, { final_text: 'no app' })),
    ]);
  });

  it('keeps the records of the chosen apps (OR), with their counts as facets; "" is the records without an app', () => {
    expect(index.query({ apps: ['WeChat'] }).rows.map((r) => r.key)).toEqual(['R00000003', 'R00000001']);
    expect(index.query({ apps: ['Terminal', 'Slack'] }).rows.map((r) => r.key)).toEqual(['R00000004', 'R00000002']);
    expect(index.query({ apps: [''] }).rows.map((r) => r.key)).toEqual(['R00000005']);
    expect(index.query({}).facets?.apps).toEqual({ WeChat: 2, Terminal: 1, Slack: 1, '': 1 });
    // Combined with text: both must hold.
    expect(index.query({ apps: ['WeChat'], text: 'five' }).rows.map((r) => r.key)).toEqual(['R00000001']);
  });
});
