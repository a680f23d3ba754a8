/** The text rules pipeline: each stage on its own cases, the boundaries of replacement rules, snippets, and its cost. */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../../src/shared/config/config-schema.ts';
import { applyTextRules, compileRules, switchesFor, type TextRulesSwitches } from '../../../../src/main/text-rules/pipeline.ts';
import type { ReplacementRule, Snippet } from '../../../../src/main/text-rules/rule-types.ts';

const ALL: TextRulesSwitches = { fillers: true, selfCorrections: true, replacements: true, snippets: true };
const NOW = new Date(2026, 10, 27, 9, 5);
const rule = (heard: string, written: string, extra: Partial<ReplacementRule> = {}): ReplacementRule => ({ id: heard, heard, written, same_pinyin: false, anywhere: false, ...extra });
const run = (text: string, replacements: ReplacementRule[] = [], snippets: Snippet[] = [], on: TextRulesSwitches = ALL) => applyTextRules(text, on, compileRules({ replacements, snippets }), NOW);

describe('fillers and self-corrections', () => {
  it.each([
    ['嗯，那个，我们明天三点，不对，四点见。', '我们明天四点见。'],
    ['我我我觉得，呃，这个方案不错', '我觉得，这个方案不错'],
    ['Um, I think we should meet at 3, I mean 4.', 'I think we should meet at 4.'],
    ['I was, you know, really tired.', 'I was really tired.'],
    ['The budget is fine, scratch that, the budget is tight.', 'The budget is tight.'],
    ['We leave on Monday. Scratch that. We leave on Friday.', 'We leave on Friday.'],
    ['我觉得 um 这个方案可以', '我觉得这个方案可以'],
    ['I I I don’t know', 'I don’t know'],
  ])('%s → %s', (input, output) => {
    expect(run(input).text).toBe(output);
  });

  it.each(['那个人是我的同事。', '就是他。', 'You know the answer.', '他去了ER。', 'The screw is 5 mm long.', '这个，那个，都要。', '你说得不对，不对，完全错了。', 'I need to scratch that.', '嗯。'])(
    'keeps what was meant: %s',
    (input) => {
      const r = run(input);
      expect(r.text).toBe(input);
      expect(r.report.removed).toEqual([]);
    },
  );

  it('reports what it removed, as recognized', () => {
    expect(run('嗯，明天三点，不对，四点').report.removed).toEqual([
      { text: '嗯，', kind: 'filler' },
      { text: '三点，不对，', kind: 'self-correction' },
    ]);
  });

  it('honours the switches: fillers off keeps them, self-corrections off keeps the correction', () => {
    expect(run('嗯，明天三点，不对，四点', [], [], { ...ALL, fillers: false }).text).toBe('嗯，明天四点');
    expect(run('嗯，明天三点，不对，四点', [], [], { ...ALL, selfCorrections: false }).text).toBe('明天三点，不对，四点');
  });

  it('takes the switches from config, with a mode switched off', () => {
    const config = configSchema.parse({ text_rules: { modes: { translate_en: false } } });
    expect(switchesFor(config, 'proofread')).toEqual(ALL);
    expect(switchesFor(config, 'translate_en')).toEqual({ fillers: false, selfCorrections: false, replacements: true, snippets: true });
    expect(switchesFor(configSchema.parse({}), 'off').fillers).toBe(true);
  });
});

describe('replacement rules', () => {
  it('Latin: whole words, case-insensitive', () => {
    const rules = [rule('cloud', 'Claude')];
    expect(run('I asked Cloud and CLOUD about cloudy skies', rules).text).toBe('I asked Claude and Claude about cloudy skies');
    expect(run('用cloud写代码', rules).text).toBe('用Claude写代码');
  });

  it('Chinese: exact, never inside a longer dictionary word unless the rule says anywhere', () => {
    expect(run('我和平平去了平平安安的地方', [rule('平平', '萍萍')]).text).toBe('我和萍萍去了平平安安的地方');
    expect(run('现在在家', [rule('在', '再')]).text).toBe('现在在家');
    expect(run('现在', [rule('在', '再', { anywhere: true })]).text).toBe('现再');
  });

  it('same pinyin: every spelling read the same, by pinyin-pro', () => {
    const r = run('苹苹和平平都来了，萍萍也来了', [rule('平平', '萍萍', { same_pinyin: true })]);
    expect(r.text).toBe('萍萍和萍萍都来了，萍萍也来了');
    expect(r.report.fired).toEqual([
      { kind: 'replacement', from: '苹苹', to: '萍萍' },
      { kind: 'replacement', from: '平平', to: '萍萍' },
    ]);
    // A different pinyin never matches.
    expect(run('品品来了', [rule('平平', '萍萍', { same_pinyin: true })]).text).toBe('品品来了');
  });

  it('longest rule wins, and a replacement is never matched again', () => {
    expect(run('open ai and open', [rule('open ai', 'OpenAI'), rule('open', 'Open'), rule('openai', 'x')]).text).toBe('OpenAI and Open');
  });
});

describe('snippets', () => {
  const snippets: Snippet[] = [{ id: 's', trigger: 'my address', text: '1 Main St\nSpringfield\n{date} {time}' }];

  it('fire when the phrase is the whole dictation, fillers and punctuation aside', () => {
    const r = run('Um, my address.', [], snippets);
    expect(r.text).toBe('1 Main St\nSpringfield\n2026-11-27 09:05');
    expect(r.report.fired).toEqual([{ kind: 'snippet', from: 'my address', to: r.text }]);
  });

  it('never inside a sentence', () => {
    expect(run('Send it to my address please.', [], snippets).text).toBe('Send it to my address please.');
  });
});

describe('cost', () => {
  it('is linear: 1 MB of dictation with fillers, corrections and rules in well under the bound', () => {
    const unit = '嗯，那个，我我我和平平明天三点，不对，四点用cloud开会。Um, I was, you know, at 3, I mean 4. ';
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const rules = [rule('平平', '萍萍', { same_pinyin: true }), rule('cloud', 'Claude'), rule('会议', '会')];
    const small = text.slice(0, 100_000);
    const t0 = performance.now();
    run(small, rules);
    const t1 = performance.now();
    const r = run(text, rules);
    const t2 = performance.now();
    expect(r.text.length).toBeGreaterThan(300_000);
    expect(text.length).toBeGreaterThanOrEqual(1_000_000);
    // Ten times the text in well under a hundred times the time (no quadratic path), and bounded outright.
    expect(t2 - t1).toBeLessThan(Math.max(30 * (t1 - t0), 2000));
    expect(t2 - t1).toBeLessThan(20_000);
  });

  it('no backtracking on pathological input: long runs of one character and of markers', () => {
    const t0 = performance.now();
    for (const text of ['我'.repeat(200_000), '那个'.repeat(100_000), '，不对'.repeat(60_000), 'um '.repeat(100_000), '平'.repeat(200_000)]) run(text, [rule('平平', '萍萍', { same_pinyin: true })]);
    expect(performance.now() - t0).toBeLessThan(20_000);
  });
});

describe('Traditional Chinese (asr.chinese_script may give it)', () => {
  it.each([
    ['嗯，那個，我們明天三點，不對，四點見。', '我們明天四點見。'],
    ['那個那個文件在哪裡？', '那個文件在哪裡？'],
    ['這個，那個，都要。', '這個，那個，都要。'],
    ['那個人就是他。', '那個人就是他。'],
  ])('%s → %s', (input, output) => {
    expect(run(input).text).toBe(output);
  });
});
