import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractPairs, type LearnedPair } from '../../../../src/main/enhance/edit-learning/extract-pairs.ts';

/**
 * Learning vocabulary pairs from edits, measured on the generated set test/fixtures/edit-learning/
 * edits.json (≥ 200 edits, answers from the generator's templates): Chinese names and words written with
 * a homophone, English terms written as plain words, transliterations, and rewrites that must propose
 * nothing. Protects: precision of proposed pairs ≥ 0.9; recall is reported (and kept ≥ 0.8).
 */

interface EditCase {
  readonly id: string;
  readonly group: string;
  readonly before: string;
  readonly after: string;
  readonly expected: readonly { readonly wrong: string; readonly right: string }[];
}

const file = path.join(import.meta.dirname, '../../../fixtures/edit-learning/edits.json');
const cases = (JSON.parse(fs.readFileSync(file, 'utf8')) as { cases: EditCase[] }).cases;
const same = (p: LearnedPair, e: { wrong: string; right: string }): boolean => p.wrong === e.wrong && p.right === e.right;

describe('pairs learned from edits, on the generated set', () => {
  it('has at least 200 edits, Chinese and English, with pairs and with rewrites', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(cases.filter((c) => c.expected.length === 0).length).toBeGreaterThanOrEqual(60);
    for (const g of ['zh-name', 'zh-word', 'zh-rewrite', 'en-term', 'mixed-term', 'en-rewrite', 'multi']) expect(cases.some((c) => c.group === g)).toBe(true);
  });

  it('proposes pairs with precision ≥ 0.9 and reports recall', () => {
    let proposed = 0;
    let right = 0;
    let expected = 0;
    const wrong: string[] = [];
    const missed: string[] = [];
    const byGroup = new Map<string, { tp: number; fp: number; fn: number }>();
    for (const c of cases) {
      const got = extractPairs(c.before, c.after);
      const g = byGroup.get(c.group) ?? { tp: 0, fp: 0, fn: 0 };
      proposed += got.length;
      expected += c.expected.length;
      for (const p of got) {
        if (c.expected.some((e) => same(p, e))) {
          right++;
          g.tp++;
        } else {
          g.fp++;
          wrong.push(`${c.id}: ${p.wrong}→${p.right}`);
        }
      }
      for (const e of c.expected.filter((x) => !got.some((p) => same(p, x)))) {
        g.fn++;
        missed.push(`${c.id}: ${e.wrong}→${e.right}`);
      }
      byGroup.set(c.group, g);
    }
    const precision = right / Math.max(1, proposed);
    const recall = right / Math.max(1, expected);
    console.log(
      `edit learning: ${cases.length} edits; precision ${precision.toFixed(3)} (${right}/${proposed}), recall ${recall.toFixed(3)} (${right}/${expected})\n` +
        [...byGroup].map(([k, v]) => `  ${k}: ${v.tp} right, ${v.fp} wrong, ${v.fn} missed`).join('\n') +
        (wrong.length ? `\n  wrong: ${wrong.join('; ')}` : '') +
        (missed.length ? `\n  missed: ${missed.join('; ')}` : ''),
    );
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.8);
  });

  it('stays bounded on long texts: one correction in 4,000 characters is found, a long rewrite proposes nothing, both fast', () => {
    const filler = '今天我们讨论了项目的进度和下一步的安排。'.repeat(100);
    const t0 = performance.now();
    expect(extractPairs(`${filler}明天跟平平开会。${filler}`, `${filler}明天跟萍萍开会。${filler}`)).toEqual([{ wrong: '平平', right: '萍萍', kind: 'homophone' }]);
    const other = '我们下周再看看市场的反馈然后决定。'.repeat(120);
    expect(extractPairs(filler, other)).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

