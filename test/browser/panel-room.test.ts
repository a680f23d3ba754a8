import { describe, expect, it } from 'vitest';
import { axeBothSchemes } from '../helpers/axe-run.ts';
import { windowSpec } from '../../src/main/app/window-policy.ts';
import type { HarnessDictation } from '../helpers/browser-dictation.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { layoutProblems } from '../helpers/layout-check.ts';
import type { OpenAiTestServerOptions } from '../helpers/openai-test-server.ts';

/**
 * The panel at its default size (from window-policy.ts) in English and Chinese: every mode in the mode
 * bar is on screen whole (no mode hidden behind a scroll with no cue), the final text keeps more than two
 * lines with the diff open, and a long transcript can be read whole (expand), never cut mid-sentence.
 */
const harness = useBrowserHarness();
const spec = windowSpec('panel', { preload: '/x/preload.cjs', devTools: false });
const SIZE = { width: spec.width ?? 520, height: spec.height ?? 260 };

const SENTENCES = [
  'the quarterly review moves to thursday afternoon in the large meeting room',
  'please bring the designs and the documentation for the new search page',
  'pingping will present the numbers from the last three months of testing',
  'after that we decide whether the release goes out before the holidays',
];
const ASR = SENTENCES.join(' ');
const FINAL = SENTENCES.map((s) => `${s[0]?.toUpperCase() ?? ''}${s.slice(1)}.`).join(' ');
const script: OpenAiTestServerOptions = {
  transcription: () => ({ kind: 'text', text: ASR, language: 'english' }),
  chat: () => ({ kind: 'text', content: FINAL }),
};

async function openAt(lang: 'en' | 'zh'): Promise<{ w: HarnessWindow; d: HarnessDictation }> {
  const w = await harness.open('panel', { dictation: script, viewport: SIZE });
  await w.page.getByTestId('panel').waitFor();
  await w.configStore.set('ui.language', lang);
  await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : 'en');
  await expect.poll(() => w.page.locator('[data-mode]').count()).toBeGreaterThan(3);
  if (w.dictation === null) throw new Error('no dictation behind the window');
  return { w, d: w.dictation };
}

/** Each mode button's box against the panel's: whole, on screen, and its label not cut by an ellipsis. */
function modesInView(w: HarnessWindow): Promise<{ mode: string; whole: boolean }[]> {
  return w.page.locator('[data-mode]').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const bar = el.parentElement?.getBoundingClientRect();
      const inBar = bar !== undefined && r.left >= bar.left - 0.5 && r.right <= bar.right + 0.5 && r.top >= bar.top - 0.5 && r.bottom <= bar.bottom + 0.5;
      return { mode: el.getAttribute('data-mode') ?? '', whole: inBar && r.left >= 0 && r.right <= innerWidth && r.width > 20 && el.scrollWidth <= el.clientWidth + 1 };
    }),
  );
}

/** How many lines of text the final text area shows. */
function finalLines(w: HarnessWindow): Promise<number> {
  return w.page.getByTestId('panel-final').evaluate((el: HTMLTextAreaElement) => {
    const cs = getComputedStyle(el);
    const inner = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
    return Math.floor(inner / parseFloat(cs.lineHeight));
  });
}

describe('preview panel: room for every mode, the final text and the transcript', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`${lang}: every mode whole on screen, the diff leaves the final text 3+ lines, the transcript opens whole`, async () => {
      const { w, d } = await openAt(lang);
      d.speak();
      await expect.poll(() => w.page.getByTestId('panel-final').inputValue(), { timeout: 10_000 }).toBe(FINAL);
      await saveScreenshot(w.page, `panel-room-${lang}`);
      const a11y = await axeBothSchemes(w.page, `panel ${lang}`);
      const modes = await modesInView(w);
      expect(modes.length).toBeGreaterThanOrEqual(4);
      expect(modes.filter((m) => !m.whole)).toEqual([]);
      expect(await finalLines(w)).toBeGreaterThanOrEqual(3);
      expect(await layoutProblems(w.page)).toEqual([]);

      // The diff open: the final text still shows three lines or more, the diff scrolls in what is left.
      await w.page.getByTestId('panel-show-diff').click();
      await w.page.getByTestId('panel-diff').waitFor();
      expect(await finalLines(w)).toBeGreaterThanOrEqual(3);
      expect(await layoutProblems(w.page)).toEqual([]);
      await saveScreenshot(w.page, `panel-room-diff-${lang}`);
      a11y.push(...(await axeBothSchemes(w.page, `panel with diff ${lang}`)));
      await w.page.getByTestId('panel-show-diff').click();

      // The transcript is longer than its two lines: a "More" control says so and opens it, as far as the
      // panel has room (the rest scrolls, keyboard-reachable); the text area and the actions stay.
      const asr = w.page.getByTestId('panel-asr');
      const more = w.page.getByTestId('panel-asr-toggle');
      await more.waitFor();
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      const collapsed = await asr.evaluate((el) => el.clientHeight);
      await more.click();
      expect(await more.getAttribute('aria-expanded')).toBe('true');
      await saveScreenshot(w.page, `panel-room-transcript-${lang}`);
      const open = await asr.evaluate((el) => ({ height: el.clientHeight, whole: el.scrollHeight <= el.clientHeight + 1, focusable: el.tabIndex === 0 }));
      expect(open.height).toBeGreaterThan(collapsed * 1.4);
      expect(open.whole || open.focusable).toBe(true);
      expect(await w.page.getByTestId('panel-final').evaluate((el) => el.clientHeight)).toBeGreaterThanOrEqual(40);
      expect(await w.page.locator('.panel-actions').evaluate((el) => el.getBoundingClientRect().bottom <= innerHeight)).toBe(true);
      expect(await layoutProblems(w.page)).toEqual([]);
      a11y.push(...(await axeBothSchemes(w.page, `panel, transcript open ${lang}`)));
      await more.click();
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      expect(a11y).toEqual([]);
      expect(w.problems).toEqual([]);
    });
  }
});
