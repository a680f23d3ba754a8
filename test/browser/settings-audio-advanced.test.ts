/**
 * Settings › Audio in plain words: the microphone and the longest recording in view, the tuning (silence
 * level, audio kept from before the key press, pause removal) under a closed "Advanced" disclosure, each
 * with a one-line explanation that names the technical unit. Saving works from inside it. zh and en.
 */
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

const harness = useBrowserHarness();

describe('Settings › Audio: the tuning under Advanced', () => {
  it.each([
    ['en-US', 'en', 'light', 'Audio', 'Advanced', 'Ignore recordings quieter than'],
    ['zh-CN', 'zh', 'dark', '音频', '高级', '忽略比这更安静的录音'],
  ] as const)('%s (%s): closed by default, no "RMS" or "Pre-roll" in view; opened, the fields save', async (locale, lang, scheme, tab, advanced, silence) => {
    const w = await harness.open('settings', { locale, colorScheme: scheme });
    const { page } = w;
    await page.getByRole('tab', { name: tab }).click();
    await page.getByTestId('audio-advanced').waitFor();
    expect(await page.getByLabel(silence).isVisible()).toBe(false);
    expect(await page.locator('.content').innerText()).not.toMatch(/RMS|Pre-roll|预录/);
    await saveScreenshot(page, `settings-audio-${lang}-${scheme}`);
    await page.getByText(advanced, { exact: true }).click();
    await page.getByLabel(silence).fill('40');
    await page.getByLabel(silence).press('Enter');
    await expect.poll(() => w.configStore.get().audio.silence_rms).toBe(40);
    await page.getByTestId('audio-advanced').getByText(/RMS/).waitFor();
    await saveScreenshot(page, `settings-audio-advanced-${lang}-${scheme}`);
    expect(w.problems).toEqual([]);
  });
});
