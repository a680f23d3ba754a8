import { describe, expect, it } from 'vitest';
import { messageKeys, translate } from '../../../src/renderer/lib/i18n.ts';
import { englishSentences, halfWidthNextToCjk, tokenWordProblem } from '../../helpers/zh-style.ts';

describe('the Chinese message table follows the zh style rules', () => {
  it('no half-width punctuation next to Chinese text', () => {
    const found = messageKeys.flatMap((k) => halfWidthNextToCjk(translate('zh', k)).map((s) => `${k}: ${s}`));
    expect(found).toEqual([]);
  });

  it('one word per concept: an LLM token is "token"; 令牌 only next to 密钥 (a credential)', () => {
    expect(messageKeys.filter((k) => tokenWordProblem(translate('zh', k)))).toEqual([]);
  });

  it('no English sentence in a Chinese string', () => {
    const found = messageKeys.flatMap((k) => englishSentences(translate('zh', k)).map((s) => `${k}: ${s}`));
    expect(found).toEqual([]);
  });

  it('the rules catch what they are for', () => {
    expect(halfWidthNextToCjk('识别窗口(约快 3 倍)。如果出错,可以关闭')).toHaveLength(3);
    expect(halfWidthNextToCjk('识别窗口（约快 3 倍）。如果出错，可以关闭；Right Alt, F13')).toEqual([]);
    expect(tokenWordProblem('每日提示令牌')).toBe(true);
    expect(tokenWordProblem('API 密钥、令牌和机密')).toBe(false);
    expect(englishSentences('Retry from the tray menu\n按住 右 Alt 说话')).toEqual(['Retry from the tray menu']);
    expect(englishSentences('Whisper Small (q5_1) · SenseVoice-Small (int8)\nRight ⌥ Option\nhttps://huggingface.co/ggerganov/whisper.cpp/resolve/main')).toEqual([]);
  });
});
