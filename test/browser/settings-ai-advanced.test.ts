/**
 * Settings › AI in plain words: the history-injection limits, the prompt-cache report and the token
 * budget, and a provider's extra_body, are under "Advanced" disclosures, closed by default; opened, each
 * limit has a one-line explanation. zh and en at the window's default size, with screenshots and axe.
 */
import { describe, expect, it } from 'vitest';
import { windowSpec } from '../../src/main/app/window-policy.ts';
import { axeBothSchemes } from '../helpers/axe-run.ts';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { layoutProblems } from '../helpers/layout-check.ts';

const harness = useBrowserHarness();
const spec = windowSpec('settings', { preload: '/x/preload.cjs', devTools: false });
const SIZE = { width: spec.width ?? 860, height: spec.height ?? 640 };

describe('Settings › AI: tuning under "Advanced"', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`${lang}: limits, cache report and extra_body hidden until opened; each limit explained in one line`, async () => {
      const w = await harness.open('settings', {
        viewport: SIZE,
        configText: JSON.stringify({ ui: { language: lang }, ai_enhance: { enabled: true, providers: { deepseek: { kind: 'deepseek', base_url: 'http://127.0.0.1:9/v1', models: ['deepseek-chat'] } }, default_provider: 'deepseek', default_model: 'deepseek-chat' } }),
      });
      const { page } = w;
      await page.getByRole('tab', { name: 'AI', exact: true }).click();
      const history = page.getByTestId('ai-history-advanced');
      await history.waitFor();
      expect(await page.locator('#history-max-entries').isVisible()).toBe(false);
      expect(await page.getByTestId('cache-report').isVisible()).toBe(false);
      expect(await page.locator('#provider-extra-body').isVisible()).toBe(false);
      await history.locator('summary').click();
      for (const id of ['history-max-entries', 'history-refresh-threshold', 'history-max-chars']) {
        const help = await page.locator(`#${id}-help`).textContent();
        expect(help?.length ?? 0).toBeGreaterThan(10);
      }
      expect(await page.locator('#history-refresh-threshold-help').textContent()).not.toMatch(/five times|五倍/);
      await page.getByTestId('cache-report').waitFor();
      await page.getByTestId('provider-advanced').locator('summary').click();
      await page.locator('#provider-extra-body').waitFor();
      await history.scrollIntoViewIfNeeded();
      expect(await layoutProblems(page)).toEqual([]);
      await saveScreenshot(page, `settings-ai-advanced-${lang}`);
      expect(await axeBothSchemes(page, `AI advanced ${lang}`)).toEqual([]);
      expect(w.problems).toEqual([]);
    });
  }
});
