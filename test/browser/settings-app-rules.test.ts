import { describe, expect, it } from 'vitest';
import type { DictationEvent } from '../../src/shared/ipc/dictation-types.ts';
import { INDICATOR_MESSAGE_SIZE } from '../../src/main/app/indicator-window.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { newRecord } from '../helpers/history-fixtures.ts';

/**
 * Settings › Apps in real Chromium over the real handlers and config store: a rule made from a recent app
 * (read from the real history's input context) with a mode and "paste + Enter", a typed title rule,
 * reordering, switching off and removing, the key pressed after every paste, the last-dictation
 * shortcuts — and screenshots in English and Chinese at the window's default size (860×640).
 */

const harness = useBrowserHarness();

async function openApps(lang: 'en' | 'zh'): Promise<HarnessWindow> {
  const w = await harness.open('settings', { viewport: { width: 860, height: 640 } });
  // Two apps the user dictated into (newest last): the editor offers them.
  await w.history.log(newRecord({ input_context: { app_name: 'Slack', bundle_id: 'slack' } }));
  await w.history.log(newRecord({ input_context: { app_name: 'WeChat', bundle_id: 'wechat' } }));
  await w.history.log(newRecord({ input_context: { app_name: 'WeChat', bundle_id: 'wechat' } }));
  if (lang === 'zh') {
    await w.configStore.set('ui.language', 'zh');
    await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
  }
  await w.page.getByRole('tab', { name: lang === 'zh' ? '按应用' : 'Apps' }).click();
  return w;
}

describe('Settings › Apps: rules by app, the key after a paste, the last dictation', () => {
  it('“WeChat → Translate + Enter” from the recent apps, without touching config.json; then a title rule, moved, switched off, removed', async () => {
    const w = await openApps('en');
    const { page } = w;
    // Recent apps, newest first.
    const chips = page.getByRole('button', { name: /^Use / });
    await expect.poll(() => chips.allTextContents(), { timeout: 10_000 }).toEqual(['WeChat', 'Slack']);
    await page.getByRole('button', { name: 'Use WeChat' }).click();
    const add = page.getByRole('form', { name: 'New rule' });
    await expect.poll(() => add.getByLabel('App').inputValue()).toBe('WeChat');
    await add.getByLabel('Mode').selectOption({ label: 'Translate to English' });
    await add.getByLabel('Output').selectOption({ label: 'Paste + Enter' });
    await add.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => w.configStore.get().app_rules).toEqual([{ label: '', app: 'WeChat', title: '', domain: '', mode: 'translate_en', method: 'paste', submit: 'enter', enabled: true }]);
    // The form is cleared once the save has answered (the config store sees the rule a moment before).
    await expect.poll(() => add.getByLabel('App').inputValue()).toBe('');

    // A typed one: VS Code with README in the title → Command line master, copy only.
    await add.getByLabel('App').fill('Code');
    await add.getByLabel('Mode').selectOption({ label: 'Command line master' });
    await add.getByLabel('Output').selectOption({ label: 'Copy only' });
    await add.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => w.configStore.get().app_rules.length).toBe(2);
    const second = page.getByRole('listitem', { name: 'Rule 2: Code' });
    await second.getByLabel('Window title contains').fill('README');
    await second.getByLabel('Window title contains').press('Enter');
    await expect.poll(() => w.configStore.get().app_rules[1]?.title).toBe('README');
    // Narrow rules go first: moved up, it is rule 1.
    await page.getByRole('listitem', { name: 'Rule 2: Code' }).getByRole('button', { name: 'Move up' }).click();
    await expect.poll(() => w.configStore.get().app_rules.map((r) => r.app)).toEqual(['Code', 'WeChat']);
    await page.getByRole('listitem', { name: 'Rule 2: WeChat' }).getByLabel('Shown as').fill('微信');
    await page.getByRole('listitem', { name: 'Rule 2: WeChat' }).getByLabel('Shown as').blur();
    await expect.poll(() => w.configStore.get().app_rules[1]?.label).toBe('微信');
    // The key after every paste, for apps without a rule.
    await page.getByLabel('After pasting, press').selectOption({ label: 'Ctrl+Enter' });
    await expect.poll(() => w.configStore.get().output.submit_key).toBe('mod+enter');
    await page.getByTestId('app-rules').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, 'settings-app-rules-en');

    await page.getByRole('listitem', { name: 'Rule 1: Code' }).getByLabel('On', { exact: true }).click();
    await expect.poll(() => w.configStore.get().app_rules[0]?.enabled).toBe(false);
    await page.getByRole('listitem', { name: 'Rule 1: Code' }).getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => w.configStore.get().app_rules.map((r) => r.label || r.app)).toEqual(['微信']);
    expect(w.problems).toEqual([]);
  });

  it('中文：规则、粘贴后按键与“上一次听写”的快捷键', async () => {
    const w = await openApps('zh');
    const { page } = w;
    await w.configStore.set('app_rules', [
      { label: '微信', app: 'WeChat', mode: 'translate_en', submit: 'enter' },
      { app: 'Slack', mode: 'proofread', method: 'paste', submit: 'shift+enter' },
      { app: 'Terminal', mode: 'commandline_master', method: 'paste', submit: 'none' },
    ]);
    await expect.poll(() => page.getByTestId('app-rule').count(), { timeout: 10_000 }).toBe(3);
    const first = page.getByRole('listitem', { name: '规则 1：微信' });
    expect(await first.getByLabel('输出').locator('option:checked').textContent()).toBe('粘贴后按 Enter');
    expect(await page.getByRole('listitem', { name: '规则 2：Slack' }).getByLabel('输出').locator('option:checked').textContent()).toBe('粘贴后按 Shift+Enter');
    await expect.poll(() => page.getByRole('button', { name: /^使用 / }).allTextContents()).toEqual(['WeChat', 'Slack']);
    expect(await page.getByText('粘贴上一次听写', { exact: true }).count()).toBeGreaterThan(0);
    await saveScreenshot(page, 'settings-app-rules-zh');
    // The rest of the tab: the key after a paste and the last-dictation shortcuts.
    await page.getByText('重新打开上一次预览', { exact: true }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'settings-app-rules-keys-zh');
    expect(w.problems).toEqual([]);
  });
});

describe('History: the app each dictation went into is a filter', () => {
  it('the App tag group lists the apps with counts; choosing one keeps its records (zh and en screenshots)', async () => {
    const w = await harness.open('history', { viewport: { width: 1000, height: 700 } });
    const { page } = w;
    await w.history.log(newRecord({ final_text: 'see you at five', input_context: { app_name: 'WeChat', bundle_id: 'wechat' } }));
    await w.history.log(newRecord({ final_text: 'git status', input_context: { app_name: 'Terminal', bundle_id: 'gnome-terminal-server' } }));
    await w.history.log(newRecord({ final_text: 'ok see you', input_context: { app_name: 'WeChat', bundle_id: 'wechat' } }));
    const rows = page.locator('li[role="option"]');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    const apps = page.getByRole('group', { name: 'App' });
    await apps.getByRole('button', { name: /^WeChat 2/ }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.allTextContents()).toEqual([expect.stringContaining('ok see you'), expect.stringContaining('see you at five')]);
    await saveScreenshot(page, 'history-app-filter-en');
    await w.configStore.set('ui.language', 'zh');
    await expect.poll(() => page.getByRole('group', { name: '应用' }).count()).toBe(1);
    await saveScreenshot(page, 'history-app-filter-zh');
    expect(w.problems).toEqual([]);
  });
});

describe('the indicator names the rule that chose the mode', () => {
  it.each([
    ['en', 'WeChat → Translate to English'],
    ['zh', '微信 → 翻译为英文'],
  ] as const)('%s: "%s" while recording', async (lang, text) => {
    const w = await harness.open('indicator', { viewport: INDICATOR_MESSAGE_SIZE, ...(lang === 'zh' ? { locale: 'zh-CN' } : {}) });
    const send = (e: DictationEvent): void => w.broadcast('dictation:event', e);
    send({ kind: 'state', sessionId: 's1', state: 'recording', previous: 'idle', mode: 'proofread' });
    const [rule, label] = text.split(' → ') as [string, string];
    send({ kind: 'notice', sessionId: 's1', level: 'info', notice: { code: 'mode-by-rule', rule, mode: 'translate_en', label } });
    await expect.poll(() => w.page.locator('.label').textContent()).toBe(text);
    await saveScreenshot(w.page, `indicator-app-rule-${lang}`);
    // The next step of the dictation shows its own state again.
    send({ kind: 'state', sessionId: 's1', state: 'transcribing', previous: 'recording', mode: 'translate_en' });
    await expect.poll(() => w.page.locator('.label').textContent()).toBe(lang === 'zh' ? '正在识别' : 'Transcribing');
    expect(w.problems).toEqual([]);
  });
});
