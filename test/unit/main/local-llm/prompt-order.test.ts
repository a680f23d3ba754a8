import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, stablePrompt, type PromptParts } from '../../../../src/main/enhance/prompt.ts';

/**
 * The prompt's order for prefix caches and the key-down warm-up: everything that does not depend on the input
 * (mode prompt → thinking hint → header → history → vocabulary chosen without the input → note) comes first, and
 * `stablePrompt` is a prefix of the full prompt for every combination of parts; the input's matches, retrieved
 * corrections and the input context follow.
 */

const base: PromptParts = {
  modePrompt: '你是校对助手。', lang: 'zh', thinking: false, historyEnabled: true, vocabularyEnabled: true,
  historyLines: ['- 我们明天开会', '- 发[部→布]计划'], vocabulary: [{ wrong: '平平', right: '萍萍' }], matchedVocabulary: [{ wrong: '听些', right: '听写' }],
  retrieved: ['- 问[字→题]'], contextNote: '我叫萍萍', inputContext: '微信',
};

function* combos(): Generator<PromptParts> {
  for (let mask = 0; mask < 1 << 8; mask++) {
    const on = (bit: number): boolean => (mask & (1 << bit)) !== 0;
    yield {
      ...base, thinking: on(0), historyEnabled: on(1), vocabularyEnabled: on(2), historyLines: on(3) ? base.historyLines : [],
      matchedVocabulary: on(4) ? base.matchedVocabulary : [], retrieved: on(5) ? base.retrieved : [], contextNote: on(6) ? base.contextNote : '', inputContext: on(7) ? base.inputContext : '',
      lang: on(0) ? 'en' : 'zh',
    };
  }
}

describe('prompt order', () => {
  it('the stable part is a prefix of the full prompt whatever the input adds, and holds nothing input-dependent', () => {
    for (const p of combos()) {
      const full = buildSystemPrompt(p);
      const stable = stablePrompt(p);
      expect(full.startsWith(stable)).toBe(true);
      // The same stable part with any other tail: it never depends on the input's parts.
      expect(stablePrompt({ ...p, matchedVocabulary: [], retrieved: [], inputContext: '' })).toBe(stable);
      for (const dynamic of ['听些', '问[字→题]', '微信']) expect(stable.includes(dynamic)).toBe(false);
    }
  });

  it('orders history, the vocabulary chosen without the input and the note before the matched pairs, retrieved lines and the input context', () => {
    const full = buildSystemPrompt(base);
    const at = (s: string): number => full.indexOf(s);
    const order = ['发[部→布]计划', '"平平" → "萍萍"', '我叫萍萍', '"听些" → "听写"', '问[字→题]', '微信'].map(at);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(full.indexOf('"平平"')).toBeLessThan(stablePrompt(base).length);
  });

  it('a context made only of retrieved corrections still explains the [误→正] notation', () => {
    const onlyRetrieved: PromptParts = { ...base, historyEnabled: false, vocabularyEnabled: false, historyLines: [], vocabulary: [], matchedVocabulary: [], contextNote: '', inputContext: '' };
    const zh = buildSystemPrompt(onlyRetrieved);
    expect(zh).toContain('[误→正]');
    expect(zh).toContain('问[字→题]');
    expect(buildSystemPrompt({ ...onlyRetrieved, lang: 'en' })).toContain('[wrong→right]');
    // With the history bullet in the header, the label stays short (the header already explains it).
    expect(buildSystemPrompt(base).match(/\[误→正\]/g)?.length).toBe(1);
  });
});
