/**
 * Settings › AI › Modes: "New mode" writes a mode from the template into the real modes folder and opens
 * it in the form; the user's mode can be deleted (asked once more; the file is gone and the mode leaves
 * the pickers); a built-in mode offers no Delete and says why (it would be re-created). zh and en, at
 * the Settings window's default size, with screenshots and axe.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModeText } from '../../src/main/enhance/modes.ts';
import { windowSpec } from '../../src/main/app/window-policy.ts';
import { axeBothSchemes } from '../helpers/axe-run.ts';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { layoutProblems } from '../helpers/layout-check.ts';

const harness = useBrowserHarness();
const spec = windowSpec('settings', { preload: '/x/preload.cjs', devTools: false });
const SIZE = { width: spec.width ?? 860, height: spec.height ?? 640 };

const WORDS = {
  en: { tab: 'AI', mode: 'Mode', fresh: 'My mode', neu: 'New mode', del: 'Delete mode', yes: 'Delete', prompt: 'Instructions for the AI', save: 'Save', builtin: /re-creates it/ },
  zh: { tab: 'AI', mode: '模式', fresh: '我的模式', neu: '新建模式', del: '删除模式', yes: '删除', prompt: '给 AI 的指示', save: '保存', builtin: /重新创建/ },
} as const;

describe('Settings › AI: add and delete modes', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`${lang}: New mode from the template, edited and saved; deleted after a second ask; a built-in one explains why it has no Delete`, async () => {
      const w = await harness.open('settings', { viewport: SIZE, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      const { page } = w;
      const word = WORDS[lang];
      await page.getByRole('tab', { name: word.tab, exact: true }).click();
      const editor = page.getByTestId('modes-editor');
      await editor.scrollIntoViewIfNeeded();
      // A built-in mode is picked first: no Delete, and why.
      await editor.getByTestId('mode-builtin-note').getByText(word.builtin).waitFor({ timeout: 10_000 });
      expect(await editor.getByRole('button', { name: word.del }).count()).toBe(0);

      await editor.getByTestId('mode-new').click();
      const file = path.join(w.dataDir, 'enhance_modes', 'my-mode.md');
      await expect.poll(() => page.locator('#mode-label').inputValue(), { timeout: 10_000 }).toBe(word.fresh);
      const written = parseModeText('my-mode', fs.readFileSync(file, 'utf8'));
      expect(written).toMatchObject({ label: word.fresh, order: 60, steps: null });
      expect(written.prompt.length).toBeGreaterThan(40);
      // Edited in the form and saved: the file follows.
      await editor.getByLabel(word.prompt).fill('Turn the text into a polite email.');
      await editor.getByTestId('mode-form').getByRole('button', { name: word.save, exact: true }).click();
      await expect.poll(() => fs.readFileSync(file, 'utf8')).toContain('Turn the text into a polite email.');
      // It is offered as the default mode too.
      await expect.poll(() => page.locator('#ai-mode option[value="my-mode"]').count()).toBe(1);
      await editor.getByRole('button', { name: word.del }).scrollIntoViewIfNeeded();
      expect(await layoutProblems(page)).toEqual([]);
      await saveScreenshot(page, `settings-modes-new-${lang}`);
      const a11y = await axeBothSchemes(page, `modes, new mode ${lang}`);

      await editor.getByRole('button', { name: word.del }).click();
      const ask = editor.getByRole('alertdialog');
      await ask.waitFor();
      await saveScreenshot(page, `settings-modes-delete-${lang}`);
      a11y.push(...(await axeBothSchemes(page, `modes, delete asked ${lang}`)));
      await ask.getByRole('button', { name: word.yes, exact: true }).click();
      await expect.poll(() => fs.existsSync(file)).toBe(false);
      await expect.poll(() => page.locator('#mode-select option[value="my-mode"]').count()).toBe(0);
      await expect.poll(() => page.locator('#ai-mode option[value="my-mode"]').count()).toBe(0);
      // A second "New mode" after a first one is kept gets the next free id.
      await editor.getByTestId('mode-new').click();
      await expect.poll(() => fs.existsSync(file)).toBe(true);
      await editor.getByTestId('mode-new').click();
      await expect.poll(() => fs.existsSync(path.join(w.dataDir, 'enhance_modes', 'my-mode-2.md'))).toBe(true);
      expect(a11y).toEqual([]);
      expect(w.problems).toEqual([]);
    });
  }
});
