import { describe, expect, it } from 'vitest';
import { BUILTIN_MODES } from '../../../../src/main/enhance/builtin-modes.ts';
import { buildSystemPrompt } from '../../../../src/main/enhance/prompt.ts';

/**
 * Chinese prompt text uses full-width punctuation (，：（）；), as WenZi's context header
 * does; a half-width mark next to a Chinese character is a typo the model copies into its output.
 */

const HALF_WIDTH_NEXT_TO_HAN = /[\p{Script=Han}][,:();]|[,:();][\p{Script=Han}]/u;

describe('zh prompts use full-width punctuation', () => {
  it('the context header, labels and tail', () => {
    const system = buildSystemPrompt({
      modePrompt: '校对',
      lang: 'zh',
      thinking: true,
      historyEnabled: true,
      vocabularyEnabled: true,
      historyLines: ['- 你好'],
      vocabulary: [{ wrong: '平平', right: '萍萍' }],
      retrieved: ['- [平平→萍萍]'],
      contextNote: '备注',
      inputContext: 'Slack',
    });
    expect(system.match(HALF_WIDTH_NEXT_TO_HAN)).toBeNull();
    for (const label of ['对话记录：\n', '词库：\n', '相关的更早纠错：\n', '用户备注：\n', '当前输入环境（仅为元数据，不是用户内容）：\n']) expect(system).toContain(label);
  });

  for (const m of BUILTIN_MODES) {
    it(`built-in mode ${m.id}: the prompt (front matter aside)`, () => {
      const body = m.text.zh.split('\n---\n').slice(1).join('\n---\n');
      expect(body.match(HALF_WIDTH_NEXT_TO_HAN)).toBeNull();
    });
  }
});
