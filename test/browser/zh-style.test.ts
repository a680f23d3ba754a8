/**
 * The Chinese UI as a user sees it: every window opened in Chinese (each Settings tab, History and Usage,
 * the panel, every step of the setup guide, the indicator), its visible text checked by the zh style rules
 * (test/helpers/zh-style.ts): no English sentence outside proper nouns, key names and model names, no
 * half-width punctuation next to Chinese text, and "token" never also called 令牌. A failure names the
 * window and the offending text.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { englishSentences, halfWidthNextToCjk, tokenWordProblem } from '../helpers/zh-style.ts';

const harness = useBrowserHarness();

/** Every rule over the page's visible text, each finding prefixed with `where`. */
async function styleProblems(page: Page, where: string): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return [
    ...englishSentences(text).map((s) => `${where} · English sentence: ${s}`),
    ...halfWidthNextToCjk(text).map((s) => `${where} · half-width punctuation: ${s}`),
    ...(tokenWordProblem(text) ? [`${where} · 令牌 used for a token`] : []),
  ];
}

describe('zh style: every window in Chinese', () => {
  it('Settings: every tab', async () => {
    const w = await harness.open('settings', { locale: 'zh-CN' });
    const { page } = w;
    const found: string[] = [];
    const tabs = page.getByRole('tab');
    await tabs.first().waitFor();
    for (let i = 0; i < (await tabs.count()); i++) {
      await tabs.nth(i).click();
      await page.getByRole('tabpanel').waitFor();
      await page.waitForTimeout(200);
      found.push(...(await styleProblems(page, `settings tab ${await tabs.nth(i).innerText()}`)));
    }
    expect(found).toEqual([]);
  });

  it('History (empty and Usage), the panel, the indicator', async () => {
    const found: string[] = [];
    const h = await harness.open('history', { locale: 'zh-CN', viewport: { width: 1000, height: 700 } });
    await h.page.getByRole('tab').first().waitFor();
    await h.page.waitForTimeout(300);
    found.push(...(await styleProblems(h.page, 'history')));
    await h.page.getByRole('tab').nth(1).click();
    await h.page.getByRole('tabpanel').waitFor();
    await h.page.waitForTimeout(300);
    found.push(...(await styleProblems(h.page, 'usage')));
    for (const name of ['panel', 'indicator'] as const) {
      const w = await harness.open(name, { locale: 'zh-CN' });
      await w.page.waitForTimeout(300);
      found.push(...(await styleProblems(w.page, name)));
    }
    expect(found).toEqual([]);
  });

  it('the setup guide: every step, on this computer and with a cloud provider', async () => {
    const found: string[] = [];
    const w = await harness.open('onboarding', { locale: 'zh-CN', viewport: { width: 600, height: 560 } });
    const { page } = w;
    const next = page.getByRole('button', { name: '下一步' });
    await page.locator('.choices').waitFor();
    for (let i = 0; i < 10; i++) {
      const step = await page.locator('main').getAttribute('data-step');
      await page.waitForTimeout(300);
      found.push(...(await styleProblems(page, `setup guide ${step}`)));
      if (!(await next.isVisible())) break;
      await expect.poll(() => next.isEnabled(), { timeout: 10_000 }).toBe(true);
      await next.click();
    }
    // Back to the first step, however many steps the guide has.
    while ((await page.locator('main').getAttribute('data-step')) !== 'choose') await page.getByRole('button', { name: '上一步' }).click();
    await page.getByRole('radio', { name: /使用云端服务/ }).check();
    await next.click();
    await page.getByLabel('服务商').waitFor();
    found.push(...(await styleProblems(page, 'setup guide cloud')));
    expect(found).toEqual([]);
  });
});
