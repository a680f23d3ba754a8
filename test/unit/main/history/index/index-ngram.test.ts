import { beforeEach, describe, expect, it } from 'vitest';
import type { HistoryIndex } from '../../../../../src/main/history/index/history-index.ts';
import { ngramMatch, ngramTokens } from '../../../../../src/main/history/index/index-ngram.ts';
import type { HistoryQuery } from '../../../../../src/shared/history/query.ts';
import { parseSearchTerms } from '../../../../../src/shared/history/search-terms.ts';
import type { StoredRecord } from '../../../../../src/shared/history/record.ts';
import { rec, row, useTempIndex } from '../index-fixtures.ts';
import { mulberry32 } from '../../../../helpers/seeded-random.ts';

/**
 * The 1–2-character path (unigram/bigram FTS table) and the deep-page match lists, checked against a
 * brute-force substring scan over a random corpus with CJK, emoji (surrogate pairs) and mixed-case ASCII.
 */

let index: HistoryIndex;
useTempIndex((opened) => (index = opened));

// A small alphabet so that 1- and 2-character needles hit often, plus rare ones.
const ALPHABET = ['萍', '平', '果', '会', '议', 'a', 'B', 'c', 'D', ' ', '，', '😀', '😃', '𠀋', 'é', '1', '%', '_', '"', '*'];

function randomText(r: () => number, len: number): string {
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)] ?? 'a';
  return s;
}

function corpus(n: number, seed: number): StoredRecord[] {
  const r = mulberry32(seed);
  const out: StoredRecord[] = [];
  for (let i = 0; i < n; i++) {
    const asr = randomText(r, 1 + Math.floor(r() * 12));
    const fin = r() < 0.5 ? asr : randomText(r, 1 + Math.floor(r() * 12));
    const enh = r() < 0.3 ? randomText(r, 1 + Math.floor(r() * 8)) : null;
    out.push(rec(i, { asr_text: asr, final_text: fin, enhanced_text: enh, enhance_mode: r() < 0.5 ? 'proofread' : 'email' }));
  }
  return out;
}

/** WenZi's semantics: case-insensitive substring in any of the three texts (query trimmed); newest first. */
/** The search semantics by brute force: every term (words, or "quoted phrases") occurs in one of the texts. */
function brute(records: readonly StoredRecord[], text: string, mode?: string): string[] {
  const terms = parseSearchTerms(text).map((t) => t.toLowerCase());
  return records
    .filter((x) => terms.every((term) => [x.asr_text, x.enhanced_text ?? '', x.final_text].some((t) => t.toLowerCase().includes(term))))
    .filter((x) => mode === undefined || x.enhance_mode === mode)
    .map((x) => x.id ?? '')
    .reverse();
}

function walk(q: HistoryQuery): string[] {
  const keys: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const p = index.query({ ...q, cursor });
    keys.push(...p.rows.map((x) => x.key));
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
  return keys;
}

describe('n-gram tokens', () => {
  it('spell code points (surrogate pairs joined) and never bridge the text separator', () => {
    expect(ngramTokens('ab').trim().split(' ')).toEqual(['61', '62', '61g62']);
    expect(ngramTokens('😀x').trim().split(' ')).toEqual(['1f600', '78', '1f600g78']);
    expect(ngramTokens('a\u0001b').trim().split(' ')).toEqual(['61', '62']);
    expect(ngramMatch('😀')).toBe('"1f600"');
    expect(ngramMatch('萍萍')).toBe('"840dg840d"');
    expect(ngramMatch('abc')).toBeNull();
  });
});

describe('HistoryIndex.query — 1–2 characters via the n-gram index', () => {
  const records = corpus(600, 7);

  beforeEach(() => {
    // Some records in archives, inserted in a scrambled order.
    const rows = records.map((x, i) => row(x, i % 3 === 0 ? '2024-12' : 'active'));
    for (let i = 0; i < rows.length; i += 97) index.upsert(rows.slice(i, i + 97).reverse());
  });

  it('matches a brute-force substring scan for every 1- and 2-character needle of the alphabet (incl. case and emoji)', () => {
    const needles = new Set<string>();
    for (const a of ALPHABET) {
      needles.add(a);
      needles.add(a.toUpperCase());
      for (const b of ALPHABET.slice(0, 12)) needles.add(a + b);
    }
    needles.add('😀😃');
    needles.add('Bc');
    needles.add('bC');
    needles.add('zz'); // no match
    for (const text of needles) {
      const expected = brute(records, text);
      const p = index.query({ text, includeArchived: true, pageSize: 500, facets: false });
      const lens = parseSearchTerms(text).map((t) => [...t.toLowerCase()].length);
      expect(p.textMode, text).toBe(lens.length === 0 ? 'none' : lens.some((l) => l >= 3) ? 'fts' : 'ngram');
      expect(p.total, text).toBe(expected.length);
      expect(p.rows.map((x) => x.key), text).toEqual(expected.slice(0, 500));
    }
  });

  it('several terms match records holding all of them in any order; quotes make a phrase (short, long and mixed terms)', () => {
    for (const text of ['萍 果', '果 萍', '萍平 a', 'a 萍平', '萍平果 会', '会 萍平果', '"萍平果"', '"a b"', 'a b', '“萍 平”', '萍 平 果 会 议', 'zz 萍', 'B c']) {
      const expected = brute(records, text);
      const p = index.query({ text, includeArchived: true, pageSize: 500, facets: false });
      expect(p.total, text).toBe(expected.length);
      expect(p.rows.map((x) => x.key), text).toEqual(expected.slice(0, 500));
      expect(walk({ text, includeArchived: true, pageSize: 9, modes: ['email'] }), text).toEqual(brute(records, text, 'email'));
    }
    // Order does not matter; a phrase is stricter than its words.
    expect(brute(records, '萍 果')).toEqual(brute(records, '果 萍'));
    expect(brute(records, '"a b"').length).toBeLessThanOrEqual(brute(records, 'a b').length);
  });

  it('walks every page of a short search equal to brute force, with a mode filter too', () => {
    for (const text of ['萍', 'b', '😀', '，a']) {
      expect(walk({ text, includeArchived: true, pageSize: 7 }), text).toEqual(brute(records, text));
      expect(walk({ text, includeArchived: true, pageSize: 7, modes: ['email'] }), text).toEqual(brute(records, text, 'email'));
    }
  });

  it('keeps the n-gram table in step with update and delete', () => {
    const first = records[5] as StoredRecord;
    index.upsert([row({ ...first, asr_text: '独一无二', final_text: '独一无二' })]);
    expect(index.query({ text: '独一', includeArchived: true }).rows.map((x) => x.key)).toEqual([first.id]);
    index.upsert([row({ ...first, asr_text: '另外', final_text: '另外' })]);
    expect(index.query({ text: '独一', includeArchived: true }).total).toBe(0);
    expect(index.query({ text: '另外', includeArchived: true }).total).toBe(1);
    index.remove([first.id ?? '']);
    expect(index.query({ text: '另外', includeArchived: true }).total).toBe(0);
  });
});

describe('HistoryIndex.query — deep pages of a search and split counts', () => {
  const n = 2500;
  beforeEach(() => {
    const rows = [];
    for (let i = 0; i < n; i++) rows.push(row(rec(i, { asr_text: i % 3 === 0 ? `公园里散步 ${i}` : `别的 ${i}` })));
    index.upsert(rows);
  });

  it('walks a search page by page equal to brute force (match list after the count), forward and back', () => {
    const expected = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === 0).reverse().map((i) => `R${String(i).padStart(8, '0')}`);
    for (const text of ['公园里', '公园']) {
      const q = { text, includeArchived: false, pageSize: 50 };
      const pages = [];
      let cursor: string | undefined;
      for (;;) {
        const p = index.query({ ...q, cursor });
        pages.push(p);
        if (!p.nextCursor) break;
        cursor = p.nextCursor;
      }
      expect(pages.flatMap((p) => p.rows.map((x) => x.key)), text).toEqual(expected);
      // Without the count: page 1 straight from FTS, deeper pages from the list built on the first cursor.
      expect(walk({ ...q, count: false, facets: false }), text).toEqual(expected);
      expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
      // Back from the last page.
      let p = pages[pages.length - 1];
      for (let i = pages.length - 2; i >= 0; i--) {
        p = index.query({ ...q, cursor: p?.prevCursor ?? undefined });
        expect(p.rows.map((x) => x.key)).toEqual(pages[i]?.rows.map((x) => x.key));
      }
    }
  });

  it('returns the first page without a total when count is false, and countMatches fills it in', () => {
    const p = index.query({ text: '公园里', count: false, facets: false });
    expect(p.total).toBeNull();
    expect(p.pageCount).toBeNull();
    expect(p.rows.length).toBe(100);
    const c = index.countMatches({ text: '公园里', facets: false });
    expect(c).toEqual({ total: Math.ceil(n / 3), pageCount: Math.ceil(Math.ceil(n / 3) / 100), facets: null });
    // Known now: the next page comes with it.
    const next = index.query({ text: '公园里', count: false, facets: false, cursor: p.nextCursor ?? undefined });
    expect(next.total).toBe(Math.ceil(n / 3));
    expect(next.page).toBe(2);
    // A write invalidates the count and the match list.
    index.upsert([row(rec(n + 1, { asr_text: '公园里 new' }))]);
    expect(index.countMatches({ text: '公园里', facets: false }).total).toBe(Math.ceil(n / 3) + 1);
  });

  it('keeps a cursor taken before a write pointing at the same place (keyset, not offset)', () => {
    const q = { text: '公园里', pageSize: 100 };
    const p1 = index.query(q);
    const p2 = index.query({ ...q, cursor: p1.nextCursor ?? undefined });
    index.upsert([row(rec(n + 5, { asr_text: '公园里 newest' }))]);
    const again = index.query({ ...q, cursor: p1.nextCursor ?? undefined });
    expect(again.rows.map((x) => x.key)).toEqual(p2.rows.map((x) => x.key));
  });
});

describe('HistoryIndex bulk load (rebuild path)', () => {
  it('loads duplicates and same-millisecond records like upsert, builds both FTS tables, then keeps them in step', () => {
    const records = corpus(400, 11);
    // Same millisecond for pairs of records, and a key loaded twice (an archive and the active file).
    const sameMs = records.map((x, i) => ({ ...x, timestamp: records[i - (i % 2)]?.timestamp ?? x.timestamp }));
    index.beginBulkLoad();
    index.bulkInsert(sameMs.slice(0, 200).map((x) => row(x, '2024-12')));
    index.bulkInsert(sameMs.slice(150).map((x) => row(x, 'active')));
    index.finishBulkLoad();
    expect(index.count()).toBe(400);
    expect(index.count('active')).toBe(250);
    for (const text of ['萍', '果会', 'b', '😀', '萍平果']) {
      expect(walk({ text, includeArchived: true, pageSize: 40 }).sort(), text).toEqual(brute(sameMs, text).sort());
    }
    // Triggers are back: later writes reach both FTS tables.
    const x = sameMs[3] as StoredRecord;
    index.upsert([row({ ...x, asr_text: '后来改的', final_text: '后来改的', enhanced_text: null })]);
    expect(index.query({ text: '后来', includeArchived: true }).rows.map((r) => r.key)).toEqual([x.id]);
    expect(index.query({ text: '后来改', includeArchived: true }).rows.map((r) => r.key)).toEqual([x.id]);
    index.remove([x.id ?? '']);
    expect(index.query({ text: '后来', includeArchived: true }).total).toBe(0);
    expect(() => index.bulkInsert([])).toThrow(/outside beginBulkLoad/);
  });
});
