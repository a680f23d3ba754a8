import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MODEL_CATALOG } from '../../src/main/asr/model-catalog.ts';
import { parseModeText } from '../../src/main/enhance/modes.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

/**
 * Modes and names in Settings, in real Chromium over the real handlers: every mode in the default-mode picker
 * (chains and the user's own), modes edited as a form with the file's format kept, validation in the UI
 * language, duplicate vocabulary pairs said, and no internal ids (language codes, model file names) in
 * the Speech tab or the panel.
 */

const harness = useBrowserHarness();

/** A user's own mode, with a comment and keys Tingxie does not know: the form must keep them. */
const MEETING = ['---', '# written by hand', 'label: Meeting notes', 'order: 40', 'x_color: teal', 'guard: length', '---', 'Turn the text into meeting notes.', ''].join('\n');
const seed = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-modes-seed-'));
fs.mkdirSync(path.join(seed, 'enhance_modes'), { recursive: true });
fs.writeFileSync(path.join(seed, 'enhance_modes', 'meeting.md'), MEETING);
afterAll(() => fs.rmSync(seed, { recursive: true, force: true }));

async function openSettings(tab: string, lang: 'en' | 'zh' = 'en'): Promise<HarnessWindow> {
  const w = await harness.open('settings', { viewport: { width: 900, height: 760 }, seedDir: seed });
  if (lang === 'zh') {
    await w.configStore.set('ui.language', 'zh');
    await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
  }
  await w.page.getByRole('tab', { name: tab }).click();
  return w;
}

const optionTexts = (w: HarnessWindow, selector: string) => w.page.locator(selector).locator('option').evaluateAll((os) => os.map((o) => o.textContent ?? ''));

describe('Settings › AI: every mode in the picker, modes as a form', () => {
  it('the default-mode picker lists the chain and the user’s own mode by label; choosing one saves it', async () => {
    const w = await openSettings('AI');
    await expect.poll(() => optionTexts(w, '#ai-mode'), { timeout: 10_000 }).toEqual(['Proofread', 'Translate to English', 'Proofread, then translate', 'Command line master', 'Meeting notes']);
    await w.page.getByLabel('Default mode').selectOption('meeting');
    await expect.poll(() => w.configStore.get().ai_enhance.mode).toBe('meeting');
    await w.page.getByLabel('Default mode').selectOption('proofread_translate_en');
    await expect.poll(() => w.configStore.get().ai_enhance.mode).toBe('proofread_translate_en');
    expect(w.problems).toEqual([]);
  });

  it('the form edits name, position and prompt; the file keeps its format, comment and unknown keys', async () => {
    const w = await openSettings('AI');
    const { page } = w;
    const file = path.join(w.dataDir, 'enhance_modes', 'meeting.md');
    await page.getByLabel('Mode', { exact: true }).selectOption('meeting');
    await expect.poll(() => page.locator('#mode-label').inputValue(), { timeout: 10_000 }).toBe('Meeting notes');
    expect(await page.getByLabel('Position in the menu').inputValue()).toBe('40');
    expect(await page.getByLabel('Instructions for the AI').inputValue()).toBe('Turn the text into meeting notes.');
    await page.locator('#mode-label').fill('会议纪要');
    await page.getByLabel('Position in the menu').fill('5');
    await page.getByLabel('Instructions for the AI').fill('Turn the text into meeting notes.\nKeep every name.');
    await page.getByTestId('mode-form').getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved “会议纪要”.').waitFor();
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toBe(['---', '# written by hand', 'label: 会议纪要', 'order: 5', 'x_color: teal', 'guard: length', '---', 'Turn the text into meeting notes.', 'Keep every name.', ''].join('\n'));
    expect(parseModeText('meeting', text)).toMatchObject({ label: '会议纪要', order: 5, guard: 'length' });
    // The new label and position show in the picker at once (order 5: first).
    await expect.poll(() => optionTexts(w, '#ai-mode').then((o) => o[0])).toBe('会议纪要');
    await saveScreenshot(page, 'settings-mode-form-en');
    expect(w.problems).toEqual([]);
  });

  it('a chain’s steps are edited in the form (add, move, remove) and saved in the file’s own list style', async () => {
    const w = await openSettings('AI');
    const { page } = w;
    const file = path.join(w.dataDir, 'enhance_modes', 'proofread_translate_en.md');
    await page.getByLabel('Mode', { exact: true }).selectOption('proofread_translate_en');
    const steps = page.getByTestId('chain-steps');
    await expect.poll(() => steps.locator('select').evaluateAll((s) => s.map((e) => (e as HTMLSelectElement).value)), { timeout: 10_000 }).toEqual(['proofread', 'translate_en']);
    await steps.getByRole('button', { name: 'Add a step' }).click();
    await steps.getByLabel('Step 3').selectOption('meeting');
    await steps.getByRole('button', { name: 'Move “Meeting notes” up' }).click();
    await steps.getByRole('button', { name: 'Remove “Translate to English” from the steps' }).click();
    await page.getByTestId('mode-form').getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved “Proofread, then translate”.').waitFor();
    expect(fs.readFileSync(file, 'utf8')).toContain('\nsteps: [proofread, meeting]\n');
    // One step is not a chain: said in words, nothing written.
    await steps.getByRole('button', { name: 'Remove “Meeting notes” from the steps' }).click();
    await page.getByTestId('mode-form').getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByTestId('mode-status').textContent()).toBe('A chain needs at least two steps.');
    expect(fs.readFileSync(file, 'utf8')).toContain('\nsteps: [proofread, meeting]\n');
    expect(w.problems).toEqual([]);
  });

  it('in Chinese: the picker and form by label, and an out-of-range number refused in a Chinese sentence naming the field', async () => {
    const w = await openSettings('AI', 'zh');
    const { page } = w;
    await expect.poll(() => optionTexts(w, '#ai-mode'), { timeout: 10_000 }).toContain('纠错后翻译');
    expect(await optionTexts(w, '#ai-mode')).toContain('Meeting notes');
    await page.getByTestId('ai-history-advanced').locator('summary').click();
    const field = page.getByLabel('重建后的条数');
    await field.fill('0');
    await field.press('Enter');
    await expect.poll(() => page.getByTestId('history-max-entries-error').textContent()).toBe('“重建后的条数”不能小于 1。');
    await field.fill('5000');
    await field.press('Enter');
    await expect.poll(() => page.getByTestId('history-max-entries-error').textContent()).toBe('“重建后的条数”不能大于 1000。');
    expect(w.configStore.get().ai_enhance.conversation_history.max_entries).toBe(10);
    await page.getByLabel('模式', { exact: true }).selectOption('proofread_translate_en');
    await page.getByTestId('chain-steps').waitFor();
    await page.getByTestId('modes-editor').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'settings-mode-form-zh');
    expect(w.problems).toEqual([]);
  });
});

describe('Settings › Vocabulary: duplicates are said', () => {
  it('adding or editing into an existing pair names it; an import lists the pairs already there', async () => {
    const w = await openSettings('Vocabulary');
    const { page } = w;
    const add = async (wrong: string, right: string) => {
      await page.getByLabel('Heard as').fill(wrong);
      await page.getByLabel('Should be').fill(right);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
    };
    await add('平平', '萍萍');
    await expect.poll(() => w.vocabulary.list().length).toBe(1);
    await add(' 平平', '萍萍 ');
    await expect.poll(() => page.getByTestId('vocab-error').textContent()).toBe('“平平 → 萍萍” is already in the vocabulary.');
    expect(w.vocabulary.list().length).toBe(1);
    await add('闻子', 'WenZi');
    await expect.poll(() => w.vocabulary.list().length).toBe(2);
    await page.getByRole('button', { name: 'Edit 闻子 → WenZi' }).click();
    await page.getByRole('textbox', { name: 'Heard as' }).nth(1).fill('平平');
    await page.getByRole('textbox', { name: 'Should be' }).nth(1).fill('萍萍');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByTestId('vocab-error').textContent()).toBe('“平平 → 萍萍” is already in the vocabulary.');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const doc = path.join(w.dataDir, 'import.json');
    fs.writeFileSync(doc, JSON.stringify({ version: 1, entries: [{ wrong: '平平', right: '萍萍' }, { wrong: '果果', right: '国国' }] }));
    w.dialogs.answerNext(doc);
    await page.getByRole('button', { name: 'Import…' }).click();
    await page.getByText(`Imported 1 pairs from ${doc}. 1 were already there (kept once): “平平 → 萍萍”.`).waitFor();
    expect(w.vocabulary.list().length).toBe(3);
    expect(w.problems).toEqual([]);
  });
});

/** Words that are internal ids, not names: language codes, a mode id, whisper.cpp model file names. */
const ID_WORDS = ['zh', 'yue', 'auto', 'proofread', 'translate_en', ...MODEL_CATALOG.map((m) => m.name)];
const idsIn = (text: string): string[] => ID_WORDS.filter((id) => new RegExp(`(^|[^A-Za-z0-9_.-])${id.replace(/\./g, '\\.')}($|[^A-Za-z0-9_.-])`).test(text));

describe('no internal ids in the Chinese UI', () => {
  it('Speech tab: languages and models by name (options and every card, the catalog included)', async () => {
    const w = await openSettings('语音识别', 'zh');
    const { page } = w;
    await page.getByTestId('models').locator('.model-card').first().waitFor();
    for (const group of await page.locator('.model-group > summary').all()) await group.click();
    await page.locator('.model-group .model-card').first().waitFor();
    const langs = await optionTexts(w, '#asr-language');
    expect(langs).toContain('自动检测');
    expect(langs).toContain('粤语');
    // The harness serves a small test catalog; the configured model is whisper.cpp's base.
    expect(await optionTexts(w, '#asr-model')).toContain('Whisper Base（已安装）');
    const text = [await page.locator('.content').innerText(), ...langs, ...(await optionTexts(w, '#asr-model'))].join('\n');
    expect(idsIn(text)).toEqual([]);
    await page.getByTestId('models').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'settings-speech-names-zh');
    expect(w.problems).toEqual([]);
  });

  it('the panel: a Chinese dictation shows modes by label and no language code or model file name', async () => {
    const enhanced = '萍萍说下周三开会。';
    const w = await harness.open('panel', {
      dictation: { transcription: () => ({ kind: 'text', text: '平平说下周三开会', language: 'yue' }), chat: () => ({ kind: 'text', content: enhanced }) },
      viewport: { width: 520, height: 260 },
    });
    await w.configStore.set('ui.language', 'zh');
    await w.configStore.set('asr.language', 'yue');
    await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    if (w.dictation === null) throw new Error('no dictation behind the window');
    w.dictation.speak();
    await expect.poll(() => w.page.getByTestId('panel-final').inputValue(), { timeout: 10_000 }).not.toBe('');
    const text = await w.page.getByTestId('panel').innerText();
    const titles = await w.page.locator('[title], [aria-label]').evaluateAll((es) => es.map((e) => `${e.getAttribute('title') ?? ''} ${e.getAttribute('aria-label') ?? ''}`));
    expect(idsIn([text, ...titles].join('\n'))).toEqual([]);
    expect(text).toContain('纠错润色');
    await saveScreenshot(w.page, 'panel-names-zh');
    expect(w.problems).toEqual([]);
  });
});
