import { describe, expect, it } from 'vitest';
import { RuleStore } from '../../src/main/text-rules/rule-store.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

/**
 * Settings › Text rules in real Chromium over the real handlers and the real rules file: the switches
 * save to config.json (per mode too), a replacement rule and a snippet are added, edited and removed in
 * text-rules.json, and "Try" runs the dictation's own pipeline. Screenshots in zh and en at the
 * Settings window's default size (860 × 640, src/main/app/window-policy.ts).
 */

const harness = useBrowserHarness();

async function openRules(lang: 'en' | 'zh'): Promise<HarnessWindow> {
  const w = await harness.open('settings', { viewport: { width: 860, height: 640 } });
  if (lang === 'zh') {
    await w.configStore.set('ui.language', 'zh');
    await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
  }
  await w.page.getByRole('tab', { name: lang === 'zh' ? '文本规则' : 'Text rules' }).click();
  return w;
}

describe('Settings › Text rules', () => {
  it('switches save to config.json, per mode too', async () => {
    const w = await openRules('en');
    const fillers = w.page.getByRole('switch', { name: 'Remove fillers and stutters' });
    await expect.poll(() => fillers.isChecked()).toBe(true);
    await fillers.click();
    await expect.poll(() => w.configStore.get().text_rules.fillers).toBe(false);
    const mode = w.page.getByTestId('rules-modes').getByRole('switch', { name: 'Translate to English' });
    await mode.click();
    await expect.poll(() => w.configStore.get().text_rules.modes).toEqual({ translate_en: false });
    expect(w.problems).toEqual([]);
  });

  it('a rule and a snippet are added, edited, tried and removed; the file is the one dictation reads', async () => {
    const w = await openRules('en');
    const { page } = w;
    const store = new RuleStore(w.dataDir);
    const add = page.getByTestId('rule-form-new');
    await add.getByLabel('Heard').fill('平平');
    await add.getByLabel('Written').fill('萍萍');
    await add.getByLabel('Same pinyin').check();
    await add.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => store.read().replacements.map((r) => [r.heard, r.written, r.same_pinyin])).toEqual([['平平', '萍萍', true]]);
    await add.getByLabel('Heard').fill('cloud');
    await add.getByLabel('Written').fill('Cloud');
    await add.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('button', { name: 'Edit cloud' }).click();
    const edit = page.locator('[data-testid^="rule-form-r"]');
    await edit.getByLabel('Written').fill('Claude');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => store.read().replacements.find((r) => r.heard === 'cloud')?.written).toBe('Claude');
    const snip = page.getByTestId('snippet-form-new');
    await snip.getByLabel('Phrase').fill('我的邮箱');
    await snip.getByLabel('Text').fill('ping@example.com\n{date}');
    await snip.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => store.read().snippets.map((s) => s.trigger)).toEqual(['我的邮箱']);
    // Try: the dictation's pipeline on this text, with what it removed and which rules fired.
    await page.getByLabel('Text as recognized').fill('嗯，那个，我和苹苹明天三点，不对，四点用cloud开会。');
    await page.getByRole('button', { name: 'Try', exact: true }).click();
    const result = page.getByTestId('rules-try-result');
    await expect.poll(() => page.getByTestId('rules-try-output').innerText()).toBe('我和萍萍明天四点用Claude开会。');
    expect(await result.innerText()).toContain('Removed: “嗯，那个，”, “三点，不对，”');
    expect(await result.innerText()).toContain('苹苹 → 萍萍');
    await saveScreenshot(page, 'settings-text-rules-en');
    await page.getByRole('heading', { name: 'Text rules' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => document.scrollingElement?.scrollTo(0, 0));
    await saveScreenshot(page, 'settings-text-rules-top-en');
    await page.getByRole('button', { name: 'Delete cloud' }).click();
    await expect.poll(() => store.read().replacements.map((r) => r.heard)).toEqual(['平平']);
    expect(w.problems).toEqual([]);
  });

  it('in Chinese', async () => {
    const w = await openRules('zh');
    const store = new RuleStore(w.dataDir);
    store.addReplacementRule({ heard: '平平', written: '萍萍', samePinyin: true });
    store.addSnippet({ trigger: '签名', text: '张三\n听写团队' });
    await w.page.reload();
    await w.page.getByRole('tab', { name: '文本规则' }).click();
    await w.page.getByText('平平 → 萍萍').waitFor();
    await w.page.getByLabel('识别出的文字').fill('嗯，我我我想说，签名');
    await w.page.getByRole('button', { name: '试一试', exact: true }).click();
    await w.page.getByTestId('rules-try-result').waitFor();
    await saveScreenshot(w.page, 'settings-text-rules-zh');
    await w.page.evaluate(() => document.scrollingElement?.scrollTo(0, 0));
    await w.page.getByRole('heading', { name: '文本规则' }).scrollIntoViewIfNeeded();
    await saveScreenshot(w.page, 'settings-text-rules-top-zh');
    expect(w.problems).toEqual([]);
  });
});
