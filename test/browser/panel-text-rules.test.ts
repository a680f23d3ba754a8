import { describe, expect, it } from 'vitest';
import { RuleStore } from '../../src/main/text-rules/rule-store.ts';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

/**
 * The preview panel over the real dictation controller: the recognized text has fillers, a self-correction
 * and a word a replacement rule fixes; the text rules run before the AI model (the harness's test server
 * answers with the text it was given, so the panel shows what the rules made), the diff view says what they
 * removed and which fired, and the record keeps the text as recognized.
 */

const harness = useBrowserHarness();
const SAID = 'Um, we meet cloud at 3, I mean 4.';

describe('preview panel: text rules', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`shows the clean text and, in the diff view, what the rules did (${lang})`, async () => {
      const w = await harness.open('panel', {
        dictation: { transcription: () => ({ kind: 'text', text: SAID, language: 'english' }) },
        viewport: { width: 560, height: 420 },
        configText: JSON.stringify({ ui: { language: lang } }),
        ...(lang === 'zh' ? { locale: 'zh-CN' } : {}),
      });
      const d = w.dictation;
      if (d === null) throw new Error('no dictation behind the window');
      new RuleStore(w.dataDir).addReplacementRule({ heard: 'cloud', written: 'Claude' });
      d.speak();
      const final = w.page.getByTestId('panel-final');
      await expect.poll(() => final.inputValue(), { timeout: 10_000 }).toBe('We meet Claude at 4.');
      await w.page.getByTestId('panel-show-diff').click();
      const rules = w.page.getByTestId('panel-diff-rules');
      await expect.poll(() => rules.textContent()).toBe(
        lang === 'en' ? 'Removed before the AI: “Um,”, “3, I mean”. Rules applied: cloud → Claude.' : '交给 AI 之前去掉了：“Um,”、“3, I mean”。 执行的规则：cloud → Claude。',
      );
      await saveScreenshot(w.page, `panel-text-rules-${lang}`);
      await final.focus();
      await w.page.keyboard.press('Enter');
      await expect.poll(() => d.records().length, { timeout: 10_000 }).toBe(1);
      expect(d.records()[0]).toMatchObject({ asr_text: SAID, final_text: 'We meet Claude at 4.', user_corrected: false });
      expect(w.problems).toEqual([]);
    });
  }
});
