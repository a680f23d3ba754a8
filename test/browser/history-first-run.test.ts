/**
 * A new user's History: with nothing recorded, the list says how to make the first dictation (not "No
 * dictation matches these filters."), centred, in the UI language; once a filter is chosen and nothing
 * matches, it says so. At the window's default size (1000×700), zh and en, light and dark.
 */
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

const harness = useBrowserHarness();

describe('History on first run', () => {
  it.each([
    ['en-US', 'en', 'light', 'No dictations yet', /hold your dictation key/],
    ['zh-CN', 'zh', 'dark', '还没有听写', /按住听写键/],
  ] as const)('%s (%s, %s): how to make the first dictation; a search with no match says so', async (locale, lang, scheme, title, how) => {
    const w = await harness.open('history', { viewport: { width: 1000, height: 700 }, locale, colorScheme: scheme });
    const { page } = w;
    const empty = page.getByTestId('history-empty');
    await empty.getByText(title).waitFor();
    await empty.getByText(how).waitFor();
    expect(await empty.textContent()).not.toMatch(/No dictation matches|没有符合筛选条件/);
    // No "Corrected 0" pill: it could only find nothing.
    expect(await page.locator('.tags .pill').count()).toBe(0);
    await saveScreenshot(page, `history-first-run-${lang}-${scheme}`);
    // A record exists but the search finds nothing: the filters are what is empty.
    await w.history.log({ timestamp: new Date().toISOString(), asr_text: 'hello', enhanced_text: null, final_text: 'hello', enhance_mode: 'off', preview_enabled: false, stt_model: 'whisper-base', llm_model: '', user_corrected: false, audio_duration: 2, language: 'en', source: 'voice' });
    await page.getByRole('searchbox').fill('zzz-nothing');
    await expect.poll(() => empty.textContent(), { timeout: 10_000 }).toMatch(lang === 'zh' ? /没有符合筛选条件/ : /No dictation matches/);
    expect(w.problems).toEqual([]);
  });
});
