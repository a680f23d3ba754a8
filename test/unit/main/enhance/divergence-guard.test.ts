import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDivergence, guardTaskOf } from '../../../../src/main/enhance/divergence-guard.ts';
import type { GuardLevel } from '../../../../src/main/enhance/modes.ts';

/**
 * The guard against answered dictations, measured on a fixed set of zh/en cases (test/fixtures/enhance/
 * guard-cases.json): each a dictation, the built-in mode it ran in, a scripted model output and whether
 * that output is an answer/obeyed request (must be blocked) or a legitimate cleanup, translation or
 * command (must pass), or an English term of a Chinese dictation the cleanup dropped or translated (must be
 * blocked unless a vocabulary pair of the case accounts for it). Protects: recall and precision 1.0 —
 * every answer, obeyed request and lost term is caught, no legitimate cleaning is ever blocked.
 */

interface GuardCase {
  readonly id: string;
  readonly kind: 'answer' | 'obey' | 'term' | 'legit';
  readonly mode: 'proofread' | 'translate_en' | 'commandline_master';
  readonly input: string;
  readonly output: string;
  /** The dictation's vocabulary pairs (the guard lets them change a word). */
  readonly pairs?: readonly { readonly wrong: string; readonly right: string }[];
}

const file = path.join(import.meta.dirname, '../../../fixtures/enhance/guard-cases.json');
const cases = (JSON.parse(fs.readFileSync(file, 'utf8')) as { cases: GuardCase[] }).cases;

// The guard levels the built-in mode files declare (builtin-modes.ts).
const LEVEL: Readonly<Record<GuardCase['mode'], GuardLevel>> = { proofread: 'full', translate_en: 'length', commandline_master: 'length' };

const blocked = (c: GuardCase): boolean => !checkDivergence(c.input, c.output, LEVEL[c.mode], guardTaskOf(c.mode, LEVEL[c.mode]), { pairs: c.pairs ?? [] }).ok;

describe('divergence guard on the zh/en case set', () => {
  it('has at least 50 cases of every kind, in both languages and all three built-in modes', () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const kind of ['answer', 'obey', 'term', 'legit'] as const) expect(cases.some((c) => c.kind === kind)).toBe(true);
    for (const mode of ['proofread', 'translate_en', 'commandline_master'] as const) expect(cases.some((c) => c.mode === mode)).toBe(true);
    expect(cases.some((c) => /\p{Script=Han}/u.test(c.input))).toBe(true);
    expect(cases.some((c) => /^[\x20-\x7e]+$/.test(c.input))).toBe(true);
  });

  it('blocks answers, obeyed requests and lost terms (recall 1.0) and never a legitimate edit (precision 1.0)', () => {
    const positives = cases.filter((c) => c.kind !== 'legit');
    const negatives = cases.filter((c) => c.kind === 'legit');
    const caught = positives.filter(blocked);
    const missed = positives.filter((c) => !blocked(c));
    const falseAlarms = negatives.filter(blocked);
    const recall = caught.length / positives.length;
    const precision = caught.length / Math.max(1, caught.length + falseAlarms.length);
    console.log(
      `guard: ${cases.length} cases; recall ${recall.toFixed(3)} (${caught.length}/${positives.length}), precision ${precision.toFixed(3)} ` +
        `(${falseAlarms.length} legitimate blocked)` +
        (missed.length ? `; missed: ${missed.map((c) => c.id).join(', ')}` : '') +
        (falseAlarms.length ? `; blocked legit: ${falseAlarms.map((c) => c.id).join(', ')}` : ''),
    );
    expect(falseAlarms.map((c) => c.id)).toEqual([]);
    expect(precision).toBe(1);
    expect(recall).toBe(1);
  });

  it('blocks answers to a dictated question (the capital of France, the weekday today) and explains why', () => {
    const capital = checkDivergence('what is the capital of france', 'The capital of France is Paris.', 'full');
    const weekday = checkDivergence('今天星期几', '今天星期三。', 'full');
    expect(capital).toEqual({ ok: false, why: expect.stringMatching(/question/) });
    expect(weekday).toEqual({ ok: false, why: expect.stringMatching(/question/) });
    expect(checkDivergence('what is the capital of france', 'What is the capital of France?', 'full')).toEqual({ ok: true });
    expect(checkDivergence('今天星期几', '今天星期几？', 'full')).toEqual({ ok: true });
  });

  it('takes the task from the mode: translation is legitimate only in translation modes', () => {
    expect(guardTaskOf('translate_en', 'length')).toBe('translate');
    expect(guardTaskOf('my_translate_ja', 'length')).toBe('translate');
    expect(guardTaskOf('proofread', 'full')).toBe('clean');
    expect(guardTaskOf('commandline_master', 'length')).toBe('transform');
    expect(checkDivergence('我今天很开心', 'I am very happy today.', 'length', 'translate')).toEqual({ ok: true });
    expect(checkDivergence('我今天很开心', 'I am very happy today.', 'full', 'clean').ok).toBe(false);
    // A command mode turns a question into a command: no answer check there.
    expect(checkDivergence('how do i list hidden files', 'ls -a', 'length', 'transform')).toEqual({ ok: true });
  });

  it('keeps English terms of a Chinese dictation: a dropped or translated term is named, a vocabulary pair or a translation mode accounts for it', () => {
    expect(checkDivergence('我们用 Claude 写代码', '我们用 Cloud 写代码。', 'full')).toEqual({ ok: false, why: 'the output dropped or translated "Claude"' });
    expect(checkDivergence('这个模型很 powerful', '这个模型很强大。', 'full')).toEqual({ ok: false, why: 'the output dropped or translated "powerful"' });
    expect(checkDivergence('我们用 cloud 写代码', '我们用 Claude 写代码。', 'full', 'clean', { pairs: [{ wrong: 'cloud', right: 'Claude' }] })).toEqual({ ok: true });
    expect(checkDivergence('这个模型很 powerful', 'This model is very powerful.', 'length', 'translate')).toEqual({ ok: true });
  });

  it('off checks nothing', () => {
    expect(checkDivergence('今天星期几', '今天星期三。', 'off')).toEqual({ ok: true });
  });
});
