import { describe, expect, it } from 'vitest';
import { windowSpec } from '../../src/main/app/window-policy.ts';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { layoutProblems } from '../helpers/layout-check.ts';

/**
 * The preview panel with AI off, at its default size in English and Chinese: a real dictation through the
 * harness (the test server's transcription, no chat call), and the panel does not pretend a mode ran — no
 * mode button is marked current — and says, in one line, that the text is as recognised and where AI is
 * turned on. With AI on again the mode is marked and the line is gone.
 */
const harness = useBrowserHarness();
const spec = windowSpec('panel', { preload: '/x/preload.cjs', devTools: false });
const SIZE = { width: spec.width ?? 520, height: spec.height ?? 260 };
const ASR = 'meet me at the station at nine';

describe('preview panel with AI off', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`${lang}: no mode marked as if it ran; the panel says how to turn AI on`, async () => {
      let chats = 0;
      const w = await harness.open('panel', {
        dictation: { transcription: () => ({ kind: 'text', text: ASR, language: 'english' }), chat: () => (chats++, { kind: 'text', content: 'Meet me at the station at nine.' }) },
        viewport: SIZE,
      });
      await w.page.getByTestId('panel').waitFor();
      await w.configStore.set('ui.language', lang);
      await w.configStore.set('ai_enhance.enabled', false);
      await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : 'en');
      if (w.dictation === null) throw new Error('no dictation behind the window');
      w.dictation.speak();
      await expect.poll(() => w.page.getByTestId('panel-final').inputValue(), { timeout: 10_000 }).toBe(ASR);
      const hint = w.page.getByTestId('panel-ai-off');
      await hint.getByText(lang === 'zh' ? /AI 已关闭：这是识别出的原文。在“设置 › AI”中开启/ : /^AI is off: the text as recognised\. Turn AI on in Settings › AI\.$/).waitFor();
      expect(await w.page.locator('[data-mode][aria-pressed="true"]').count()).toBe(0);
      expect(await w.page.locator('.mode-button.is-current').count()).toBe(0);
      expect(chats).toBe(0);
      expect(await layoutProblems(w.page)).toEqual([]);
      await saveScreenshot(w.page, `panel-ai-off-${lang}`);

      await w.configStore.set('ai_enhance.enabled', true);
      await hint.waitFor({ state: 'detached' });
      await expect.poll(() => w.page.locator('[data-mode][aria-pressed="true"]').count()).toBe(1);
      expect(w.problems).toEqual([]);
    });
  }
});
