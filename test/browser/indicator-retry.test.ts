/**
 * Retry on the recording indicator itself: with the panel off (output.preview false), a failed
 * transcription shows "Transcription failed · the recording is kept" and a Retry button in the indicator;
 * a click goes over the real IPC (`dictation:retry-last`, in the indicator's scope) to the real
 * controller, which transcribes the kept recording again and pastes the text (checked on the main side:
 * the output sink and the history record). At the indicator's message size, zh and en, with screenshots.
 */
import { describe, expect, it } from 'vitest';
import { INDICATOR_MESSAGE_SIZE } from '../../src/main/app/indicator-window.ts';
import { axeBothSchemes } from '../helpers/axe-run.ts';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { layoutProblems } from '../helpers/layout-check.ts';

const harness = useBrowserHarness();
const TEXT = 'hello world this is a dictation test';

describe('recording indicator: Retry after a failed transcription', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`${lang}: the failure offers Retry; clicking it transcribes the kept recording again and pastes it`, async () => {
      let calls = 0;
      const w = await harness.open('indicator', {
        viewport: INDICATOR_MESSAGE_SIZE,
        dictation: {
          // The first request fails (the server is down), the retry gets the text.
          transcription: () => (calls++ === 0 ? { kind: 'fault', fault: { kind: 'http', status: 503, message: 'speech server down' } } : { kind: 'text', text: TEXT, language: 'english' }),
          chat: () => ({ kind: 'text', content: TEXT }),
        },
      });
      const d = w.dictation;
      if (d === null) throw new Error('no dictation behind the window');
      await w.configStore.set('output.preview', false);
      await w.configStore.set('output.preview_on_failure', false);
      await w.configStore.set('ai_enhance.enabled', false);
      await w.configStore.set('ui.language', lang);
      await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : 'en');
      const root = w.page.locator('#root');
      const retry = w.page.getByRole('button', { name: lang === 'zh' ? '重试' : 'Retry' });
      d.speak();
      await expect.poll(() => root.getAttribute('data-state'), { timeout: 10_000 }).toBe('notice');
      await retry.waitFor();
      expect(await w.page.locator('.label').textContent()).toBe(lang === 'zh' ? '识别失败 · 录音已保留' : 'Transcription failed · the recording is kept');
      expect(await layoutProblems(w.page)).toEqual([]);
      await saveScreenshot(w.page, `indicator-retry-${lang}`);
      const a11y = await axeBothSchemes(w.page, `indicator retry ${lang}`);
      expect(d.output.delivered).toEqual([]);

      await retry.click();
      await expect.poll(() => d.output.delivered, { timeout: 10_000 }).toEqual([{ text: TEXT, action: 'paste' }]);
      expect(calls).toBe(2);
      await d.controller.settled();
      await d.graph.history.settled();
      expect(d.records().at(-1)).toMatchObject({ asr_text: TEXT, final_text: TEXT });
      // The button is gone once used (a new state replaced the message).
      expect(await retry.isVisible()).toBe(false);
      expect(a11y).toEqual([]);
      expect(w.problems).toEqual([]);
    });
  }
});
