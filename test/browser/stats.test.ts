import { describe, expect, it } from 'vitest';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

/** Usage statistics drawn from real `history:stats` over records logged through the real history service. */

const harness = useBrowserHarness();
let win: HarnessWindow | undefined;

describe('usage statistics', () => {
  it('charts dictations, minutes, outcomes and tokens per day from real stats; 7 / 14 / 30 days', async () => {
    win = await harness.open('history', { viewport: { width: 1000, height: 900 } });
    const w = win;
    const day = 86_400_000;
    const base = { asr_text: '今天的项目进度', enhanced_text: '今天的项目进度。', final_text: '今天的项目进度。', preview_enabled: true, stt_model: 'whisper-small', llm_model: 'qwen2.5:7b', user_corrected: false, language: 'zh', source: 'voice' as const };
    for (let i = 0; i < 12; i++) {
      await w.history.log({
        ...base,
        timestamp: new Date(Date.now() - (i % 10) * day - 60_000).toISOString(),
        enhance_mode: i % 3 === 0 ? 'translate_en' : 'proofread',
        audio_duration: 30,
        user_corrected: i % 4 === 0,
        outcome: i % 5 === 4 ? 'cancelled' : 'confirmed',
        usage: { prompt_tokens: 1000, completion_tokens: 50, cached_tokens: 600 },
      });
    }
    await w.page.getByRole('tab', { name: 'Usage' }).click();
    const real = await w.history.stats({ days: 7, tzOffsetMinutes: -new Date().getTimezoneOffset() });
    await w.page.getByTestId('stats-totals').waitFor();
    const totals = await w.page.getByTestId('stats-totals').textContent();
    expect(totals).toContain(`Dictations${real.totals.dictations}`);
    expect(totals).toContain(`Minutes spoken${real.totals.minutesSpoken.toFixed(1)}`);
    expect(totals).toContain('60% of prompt tokens cached');
    // One bar per day that had dictations, each with a tooltip naming its value.
    const bars = w.page.getByTestId('chart-dictations').locator('rect.bar');
    expect(await bars.count()).toBe(real.perDay.filter((d) => d.dictations > 0).length);
    expect(await w.page.getByTestId('chart-outcomes').locator('rect.c4').count()).toBe(real.perDay.filter((d) => d.cancelled > 0).length);
    expect(await w.page.getByTestId('mode-table').textContent()).toContain('translate_en');
    // Words (a Chinese character is one), words per minute and time saved, with how it is computed.
    const delivered = real.totals.confirmed;
    expect(real.totals.words).toBe(delivered * 7);
    expect(totals).toContain(`Words${delivered * 7}`);
    expect(totals).toContain(`Words per minute${Math.round((delivered * 7) / real.totals.minutesSpoken)}`);
    expect(totals).toContain('Time saved');
    await w.page.getByTestId('stats-how').getByText(/÷ 40 words a minute/).waitFor();
    // Count axes are labelled with whole numbers only, and each label is distinct.
    const ticks = await w.page.getByTestId('chart-dictations').locator('text.axis').allTextContents();
    const values = ticks.filter((x) => /^\d+$/.test(x));
    expect(values.length).toBeGreaterThanOrEqual(2);
    expect(new Set(values).size).toBe(values.length);
    await w.page.getByRole('radio', { name: '14 days' }).click();
    await expect.poll(() => w.page.getByTestId('chart-dictations').locator('rect.bar').count()).toBe(10);
    // The bars are SVG geometry attributes + CSS classes: nothing here needs a style attribute.
    expect(await w.page.locator('[style]').count()).toBe(0);
    await saveScreenshot(w.page, 'stats');
    // All time: from the first record's day.
    await w.page.getByRole('radio', { name: 'All time' }).click();
    await expect.poll(() => w.page.getByTestId('stats-totals').textContent()).toContain('Dictations12');
    expect(w.problems).toEqual([]);
  });

  it.each([
    ['en-US', 'en', 'light', 'No dictations yet', /hold your dictation key/],
    ['zh-CN', 'zh', 'dark', '还没有听写', /按住听写键/],
  ] as const)('%s: an empty history says how to make the first dictation, centred, with no empty axes (%s, %s)', async (locale, lang, scheme, title, how) => {
    win = await harness.open('history', { viewport: { width: 1000, height: 700 }, locale, colorScheme: scheme });
    const w = win;
    await w.page.getByRole('tab').nth(1).click();
    await w.page.getByRole('radio', { name: lang === 'zh' ? '全部' : 'All time' }).click();
    const empty = w.page.getByTestId('stats-empty');
    await empty.getByText(title).waitFor();
    await empty.getByText(how).waitFor();
    expect(await w.page.locator('svg.chart').count()).toBe(0);
    // Centred in the view, not flush left.
    const box = await empty.boundingBox();
    const view = await w.page.locator('.stats-view').boundingBox();
    expect(Math.abs((box?.x ?? 0) + (box?.width ?? 0) / 2 - ((view?.x ?? 0) + (view?.width ?? 0) / 2))).toBeLessThan(4);
    await saveScreenshot(w.page, `stats-empty-${lang}-${scheme}`);
    expect(w.problems).toEqual([]);
  });
});
