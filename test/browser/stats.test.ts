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
    await w.page.getByRole('radio', { name: '14 days' }).click();
    await expect.poll(() => w.page.getByTestId('chart-dictations').locator('rect.bar').count()).toBe(10);
    // The bars are SVG geometry attributes + CSS classes: nothing here needs a style attribute.
    expect(await w.page.locator('[style]').count()).toBe(0);
    await saveScreenshot(w.page, 'stats');
    expect(w.problems).toEqual([]);
  });
});
