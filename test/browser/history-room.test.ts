/**
 * History at its default size (1000×700, from window-policy.ts) with the models a real history collects
 * (a cloud whisper, FunASR, several AI models, a few apps): the filter pills take few rows and show every
 * name whole or shortened at a word boundary with the full name as the tooltip; a row shows far more than
 * ~20 characters of its text; the English delete confirmation fits with Cancel in view. zh and en.
 */
import { describe, expect, it } from 'vitest';
import { windowSpec } from '../../src/main/app/window-policy.ts';
import { axeBothSchemes } from '../helpers/axe-run.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { layoutProblems } from '../helpers/layout-check.ts';

const harness = useBrowserHarness();
const spec = windowSpec('history', { preload: '/x/preload.cjs', devTools: false });
const SIZE = { width: spec.width ?? 1000, height: spec.height ?? 700 };

const STT = ['remote:openai/whisper-1', 'funasr-paraformer-zh-streaming-transformer', 'sensevoice-small-int8', 'whisper-base'];
const LLM = ['deepseek-v4-flash', 'qwen-plus-2025-07-28', 'gpt-4.1-mini', ''];
const MODES = ['proofread', 'polish', 'translate_en', 'email'];
const TEXT_EN = 'Pingping says the project review is next Wednesday at ten in the third-floor meeting room, please bring the designs and the API docs.';
const TEXT_ZH = '萍萍说：下周三上午 10 点在三楼会议室开项目进度评审会，请大家把设计稿和接口文档准备好，尤其是搜索页的部分。';

async function seed(w: HarnessWindow): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < 12; i++) {
    const text = i % 2 === 0 ? TEXT_EN : TEXT_ZH;
    await w.history.log({
      timestamp: new Date(now - i * 60_000).toISOString(), asr_text: text, enhanced_text: text, final_text: text, enhance_mode: MODES[i % MODES.length] ?? 'off',
      preview_enabled: true, stt_model: STT[i % STT.length] ?? '', llm_model: LLM[i % LLM.length] ?? '', user_corrected: i % 3 === 0, audio_duration: 6, language: i % 2 === 0 ? 'en' : 'zh', source: 'voice',
    });
  }
}

/** The pills' rows, and every pill whose visible name is cut inside a word (an ellipsis between two letters). */
function pillFacts(w: HarnessWindow): Promise<{ rows: number; midWord: string[] }> {
  return w.page.locator('.tags').evaluate((tags) => {
    const pills = [...tags.querySelectorAll<HTMLElement>('.pill')];
    const tops = new Set(pills.map((p) => Math.round(p.getBoundingClientRect().top)));
    const midWord = pills.map((p) => p.childNodes[0]?.textContent?.trim() ?? '').filter((s) => /[A-Za-z0-9]…[A-Za-z0-9]/.test(s));
    return { rows: tops.size, midWord };
  });
}

describe('History at its default size: pills, rows and the delete confirmation', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`${lang}: pills on at most two rows with no name cut mid-word; rows show 40+ characters; the delete confirmation fits`, async () => {
      const w = await harness.open('history', { viewport: SIZE, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      const { page } = w;
      await seed(w);
      await expect.poll(() => page.locator('li[role="option"]').count(), { timeout: 10_000 }).toBe(12);
      await expect.poll(() => page.locator('.tags .pill').count()).toBeGreaterThan(10);
      await saveScreenshot(page, `history-room-${lang}`);
      const pills = await pillFacts(w);
      expect(pills.midWord).toEqual([]);
      expect(pills.rows).toBeLessThanOrEqual(2);
      // A row's text: how many characters it shows (its box width over the width of one average character).
      const shown = await page.locator('li[role="option"] .record-text').first().evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const full = range.getBoundingClientRect().width;
        return Math.floor((el.getBoundingClientRect().width / full) * [...(el.textContent ?? '')].length);
      });
      expect(shown).toBeGreaterThanOrEqual(lang === 'zh' ? 25 : 40);
      expect(await layoutProblems(page)).toEqual([]);
      const a11y = await axeBothSchemes(page, `history ${lang}`);

      // A record selected and Delete pressed: the question and both buttons in view, on few lines.
      await page.locator('li[role="option"]').first().click();
      await page.getByRole('button', { name: lang === 'zh' ? '删除' : 'Delete', exact: true }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.waitFor();
      await saveScreenshot(page, `history-room-delete-${lang}`);
      const cancel = dialog.getByRole('button', { name: lang === 'zh' ? '取消' : 'Cancel' });
      const inView = await cancel.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const pane = el.closest('.detail')?.getBoundingClientRect();
        return pane !== undefined && r.bottom <= Math.min(innerHeight, pane.bottom) && r.top >= pane.top && r.right <= pane.right;
      });
      expect(inView).toBe(true);
      expect(await layoutProblems(page)).toEqual([]);
      a11y.push(...(await axeBothSchemes(page, `history delete confirmation ${lang}`)));
      await cancel.click();
      expect(a11y).toEqual([]);
      expect(w.problems).toEqual([]);
    });
  }
});
