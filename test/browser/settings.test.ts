import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness, type BrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';

/**
 * The settings window in real Chromium, over the real IPC stack and real ConfigStore/SecretStore on a
 * temp folder (see test/helpers/browser-harness.ts): what the UI does must land in config.json.
 */

const harness = useBrowserHarness();
let win: HarnessWindow | undefined;

async function openSettings(options?: Parameters<BrowserHarness['open']>[1]): Promise<HarnessWindow> {
  win = await harness.open('settings', options);
  // The first field appears once config:get has answered (on General; without a speech model Settings
  // opens on Speech instead, whose engine field says the same).
  const ready = options?.speechModelInstalled === false ? win.page.getByLabel('Speech engine') : win.page.getByRole('switch', { name: /preview|预览/i });
  await ready.waitFor();
  return win;
}

function configAt(w: HarnessWindow, keyPath: string): unknown {
  return keyPath.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], w.readConfigFile());
}

describe('settings window', () => {
  it('loads with no console error, page error or CSP violation and shows the current config', async () => {
    const w = await openSettings({
      configText: '{ // JSONC is fine\n "output": { "preview": false, "method": "copy" }, "ai_enhance": { "conversation_history": { "max_entries": 12 } } }',
    });
    const { page } = w;
    await expect.poll(() => page.title()).toBe('Tingxie Settings');
    expect(await page.getByRole('switch', { name: 'Show preview before output' }).isChecked()).toBe(false);
    expect(await page.getByLabel('Output', { exact: true }).inputValue()).toBe('copy');
    await page.getByRole('tab', { name: 'AI' }).click();
    expect(await page.getByLabel('Entries after a rebuild').inputValue()).toBe('12');
    // refresh_threshold 50 > 12, so it stays; the schema's defaults fill the rest.
    expect(await page.getByLabel('Rebuild after this many entries').inputValue()).toBe('50');
    expect(await page.getByLabel('Maximum history characters').inputValue()).toBe('6000');
    await page.getByRole('tab', { name: 'History & privacy' }).click();
    expect(await page.getByRole('switch', { name: 'Keep a history of dictations' }).isChecked()).toBe(true);
    expect(w.problems).toEqual([]);
    // A clean file has no load issues, so no banner.
    expect(await page.getByTestId('config-issues').count()).toBe(0);
  });

  it('toggling a switch and choosing an option write config.json', async () => {
    const w = await openSettings();
    expect(configAt(w, 'output.preview')).toBe(true);
    const preview = w.page.getByRole('switch', { name: 'Show preview before output' });
    await preview.click();
    await expect.poll(() => configAt(w, 'output.preview')).toBe(false);
    await expect.poll(() => preview.isChecked()).toBe(false);
    await w.page.getByLabel('Output', { exact: true }).selectOption('copy');
    await expect.poll(() => configAt(w, 'output.method')).toBe('copy');
    await w.page.getByRole('switch', { name: 'Launch at login' }).press('Space');
    await expect.poll(() => configAt(w, 'app.launch_at_login')).toBe(true);
    expect(w.configStore.get().output.preview).toBe(false);
    expect(w.problems).toEqual([]);
  });

  it('editing a number writes config.json on Enter and on blur', async () => {
    const w = await openSettings();
    await w.page.getByRole('tab', { name: 'AI' }).click();
    // The history limits sit under "Advanced".
    await w.page.getByTestId('ai-history-advanced').locator('summary').click();
    const maxEntries = w.page.getByLabel('Entries after a rebuild');
    await maxEntries.fill('15');
    await maxEntries.press('Enter');
    await expect.poll(() => configAt(w, 'ai_enhance.conversation_history.max_entries')).toBe(15);
    const maxChars = w.page.getByLabel('Maximum history characters');
    await maxChars.fill('8000');
    await maxChars.blur();
    await expect.poll(() => configAt(w, 'ai_enhance.conversation_history.max_history_chars')).toBe(8000);
    // WenZi's rule, applied by the store: refresh_threshold <= max_entries becomes max_entries × 5, and the UI shows it.
    const threshold = w.page.getByLabel('Rebuild after this many entries');
    await threshold.fill('10');
    await threshold.press('Enter');
    await expect.poll(() => threshold.inputValue()).toBe('75');
    await w.page.getByRole('tab', { name: 'History & privacy' }).click();
    const retention = w.page.getByLabel('Keep history for (days)');
    await retention.fill('30');
    await retention.press('Enter');
    await expect.poll(() => configAt(w, 'history.retention_days')).toBe(30);
    expect(w.problems).toEqual([]);
  });

  it('the AI tab saves the enhancement switch, default mode and context note', async () => {
    const w = await openSettings();
    await w.page.getByRole('tab', { name: 'AI' }).click();
    await w.page.getByRole('switch', { name: 'Enhance text with an AI model' }).click();
    await expect.poll(() => configAt(w, 'ai_enhance.enabled')).toBe(true);
    await w.page.getByLabel('Default mode').selectOption('translate_en');
    await expect.poll(() => configAt(w, 'ai_enhance.mode')).toBe('translate_en');
    await w.page.getByRole('switch', { name: 'Inject recent confirmed dictations' }).click();
    await expect.poll(() => configAt(w, 'ai_enhance.conversation_history.enabled')).toBe(true);
    const note = w.page.getByLabel('Context note');
    await note.fill('我叫萍萍，写 TypeScript。');
    await note.blur();
    await expect.poll(() => configAt(w, 'ai_enhance.context_note')).toBe('我叫萍萍，写 TypeScript。');
    expect(w.problems).toEqual([]);
  });

  it('an invalid number shows the error at the field and leaves config.json unchanged', async () => {
    const w = await openSettings();
    await w.page.getByRole('tab', { name: 'AI' }).click();
    const before = fs.readFileSync(w.configStore.path);
    await w.page.getByTestId('ai-history-advanced').locator('summary').click();
    const field = w.page.getByLabel('Entries after a rebuild');
    await field.fill('0');
    await field.press('Enter');
    const error = w.page.getByTestId('history-max-entries-error');
    await error.waitFor();
    // The schema's issue said as a sentence naming the field, not the validation library's words.
    expect(await error.textContent()).toBe('“Entries after a rebuild” must be at least 1.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    // The rejected value stays in the field so the user can correct it.
    expect(await field.inputValue()).toBe('0');
    await field.fill('5000');
    await field.press('Enter');
    await expect.poll(() => error.textContent()).toBe('“Entries after a rebuild” must be at most 1000.');
    expect(fs.readFileSync(w.configStore.path)).toEqual(before);
    expect(w.configStore.get().ai_enhance.conversation_history.max_entries).toBe(10);
    // A valid value clears the error and is saved.
    await field.fill('20');
    await field.press('Enter');
    await expect.poll(() => configAt(w, 'ai_enhance.conversation_history.max_entries')).toBe(20);
    await expect.poll(() => error.count()).toBe(0);
    // A rejected call is an expected outcome, not a page error: the window stays clean.
    expect(w.problems).toEqual([]);
  });

  it('the API key is write-only: never shown, stored in the secret store, status reflects it', async () => {
    const w = await openSettings();
    const key = 'sk-test-4f9c2a7e1b3d5f60';
    await w.page.getByRole('tab', { name: 'AI' }).click();
    const status = w.page.getByTestId('api-key-status');
    await expect.poll(() => status.textContent()).toBe('Not set');
    const input = w.page.getByLabel('API key for provider “ollama”');
    expect(await input.getAttribute('type')).toBe('password');
    await input.fill(key);
    await w.page.locator('form').filter({ has: w.page.locator('#api-key') }).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => status.textContent()).toBe('Set');
    expect(await input.inputValue()).toBe('');
    expect(w.secretStore.get('provider:ollama')).toBe(key);
    // Persisted encrypted (through the safeStorage stand-in), never in config.json.
    expect(w.readSecretsFile()).not.toBe('');
    expect(w.readSecretsFile()).not.toContain(key);
    expect(fs.readFileSync(w.configStore.path, 'utf8')).not.toContain(key);
    // Nothing in the DOM or any input holds the key after saving.
    expect(await w.page.content()).not.toContain(key);
    const values = await w.page.locator('input, textarea').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(values.join('\n')).not.toContain(key);
    // A reload learns only that a key is set.
    await w.page.reload();
    await w.page.getByRole('tab', { name: 'AI' }).click();
    await expect.poll(() => status.textContent()).toBe('Set');
    expect(await w.page.content()).not.toContain(key);
    await w.page.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => status.textContent()).toBe('Not set');
    expect(w.secretStore.has('provider:ollama')).toBe(false);
    expect(w.problems).toEqual([]);
  });

  it('a change made on the main side (ConfigStore.set) appears in the page', async () => {
    const w = await openSettings();
    const preview = w.page.getByRole('switch', { name: 'Show preview before output' });
    expect(await preview.isChecked()).toBe(true);
    await w.configStore.set('output.preview', false);
    await expect.poll(() => preview.isChecked()).toBe(false);
    await w.page.getByRole('tab', { name: 'AI' }).click();
    await w.configStore.set('ai_enhance.conversation_history.max_entries', 33);
    await expect.poll(() => w.page.getByLabel('Entries after a rebuild').inputValue()).toBe('33');
    await w.configStore.set('ui.language', 'zh');
    await expect.poll(() => w.page.locator('h1').textContent()).toBe('听写设置');
    expect(w.problems).toEqual([]);
  });

  it('the language setting switches the UI between English and Chinese', async () => {
    const w = await openSettings();
    const { page } = w;
    expect(await page.locator('h1').textContent()).toBe('Tingxie Settings');
    await page.getByLabel('Interface language').selectOption('zh');
    await expect.poll(() => page.locator('h1').textContent()).toBe('听写设置');
    expect(configAt(w, 'ui.language')).toBe('zh');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    expect(await page.title()).toBe('听写设置');
    expect(await page.getByRole('tab', { name: '历史与隐私' }).count()).toBe(1);
    await page.getByLabel('界面语言').selectOption('en');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Tingxie Settings');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(w.problems).toEqual([]);
  });

  it("'system' follows the browser language (navigator.language)", async () => {
    const w = await openSettings({ locale: 'zh-CN' });
    expect(await w.page.locator('h1').textContent()).toBe('听写设置');
    expect(configAt(w, 'ui.language')).toBe('system');
    expect(w.problems).toEqual([]);
  });

  it('lists config fields that were reset to defaults at load', async () => {
    const w = await openSettings({
      configText: JSON.stringify({ output: { preview: 'yes please' }, ai_enhance: { conversation_history: { max_entries: -3 } } }),
    });
    const banner = w.page.getByTestId('config-issues');
    await banner.waitFor();
    const text = (await banner.textContent()) ?? '';
    expect(text).toContain('output.preview');
    expect(text).toContain('ai_enhance.conversation_history.max_entries');
    if (w.configStore.backupPath) expect(text).toContain(path.basename(w.configStore.backupPath));
    // The bad fields show their defaults.
    expect(await w.page.getByRole('switch', { name: 'Show preview before output' }).isChecked()).toBe(true);
    expect(w.problems).toEqual([]);
  });

  it('is keyboard navigable: arrow keys move between sections', async () => {
    const w = await openSettings();
    await w.page.getByRole('tab', { name: 'General' }).focus();
    await w.page.keyboard.press('ArrowDown');
    expect(await w.page.getByRole('tab', { name: 'Audio' }).getAttribute('aria-selected')).toBe('true');
    await w.page.keyboard.press('ArrowDown');
    await w.page.keyboard.press('ArrowDown');
    expect(await w.page.getByRole('tab', { name: 'AI' }).getAttribute('aria-selected')).toBe('true');
    await w.page.getByTestId('ai-history-advanced').waitFor();
    await w.page.keyboard.press('End');
    expect(await w.page.getByRole('tab', { name: 'History & privacy' }).getAttribute('aria-selected')).toBe('true');
    const focused = await w.page.evaluate(() => document.activeElement?.textContent);
    expect(focused).toBe('History & privacy');
  });

  it('renders well enough to screenshot (light and dark)', async () => {
    const out = path.resolve(import.meta.dirname, '../../test-results/screenshots');
    fs.mkdirSync(out, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      const w = await openSettings({ colorScheme: scheme, viewport: { width: 860, height: 760 } });
      await w.page.getByRole('tab', { name: 'AI' }).click();
      await w.page.getByTestId('ai-history-advanced').waitFor();
      const file = path.join(out, `settings-ai-${scheme}.png`);
      await w.page.screenshot({ path: file });
      expect(fs.statSync(file).size).toBeGreaterThan(10_000);
      if (scheme === 'light' && process.env.TINGXIE_UPDATE_SCREENSHOTS === '1') {
        // Doc screenshots (docs/user/settings.md) are refreshed on request only, so a test run never dirties the tree.
        const docs = path.resolve(import.meta.dirname, '../../docs/screenshots');
        fs.mkdirSync(docs, { recursive: true });
        fs.copyFileSync(file, path.join(docs, 'settings.png'));
      }
      expect(w.problems).toEqual([]);
      await w.close();
      win = undefined;
    }
  });

  it('first start (no speech model): opens on Speech, says which model to download, and the banner goes once it is installed', async () => {
    const w = await openSettings({ speechModelInstalled: false });
    await expect.poll(() => w.page.getByRole('tab', { selected: true }).innerText()).toBe('Speech');
    await expect.poll(() => w.page.getByTestId('model-missing').innerText()).toContain('“Whisper Base” is not installed');
    // Choosing the remote engine needs no model: the banner goes.
    await w.page.getByLabel('Speech engine').selectOption('remote');
    await expect.poll(() => w.page.getByTestId('model-missing').count()).toBe(0);
    expect(w.problems).toEqual([]);
  });
});
