import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness, type BrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { SERVED_MODEL } from '../helpers/browser-settings-services.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

/**
 * The Settings sections beyond config switches, over the real services in the harness: vocabulary
 * (SQLite), model manager (real download over local HTTP, SHA-1 checked), mode files, history export
 * through the (recorded) save dialog, delete-all with confirmation, and the shortcut recorder.
 */

const harness = useBrowserHarness();
let win: HarnessWindow | undefined;

async function openTab(tab: string, options?: Parameters<BrowserHarness['open']>[1]): Promise<HarnessWindow> {
  win = await harness.open('settings', { viewport: { width: 900, height: 760 }, ...options });
  await win.page.getByRole('switch', { name: /preview|预览/i }).waitFor();
  await win.page.getByRole('tab', { name: tab }).click();
  return win;
}

describe('settings sections', () => {
  it('general: a hotkey that does not work is said next to the hotkey settings, and clears once fixed', async () => {
    const w = await openTab('General', { dictation: {} });
    const d = w.dictation;
    if (d === null) throw new Error('the dictation service should be running');
    await w.page.getByLabel('Toggle shortcut').waitFor();
    expect(await w.page.getByTestId('hotkey-status').count()).toBe(0);
    // What main reports when the key hook cannot start and another app owns the shortcut.
    d.setHotkeyStatus({
      hook: 'failed',
      hookError: 'no X display',
      toggle: { accelerator: 'CommandOrControl+Shift+Space', registered: false, error: 'taken by another app' },
      problems: [],
    });
    w.broadcast('app:notice', { level: 'warning', notice: { code: 'toggle-failed', accelerator: 'CommandOrControl+Shift+Space', cause: 'taken', reason: null } });
    const banner = w.page.getByTestId('hotkey-status');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Hold-to-talk and the recording keys are unavailable (no X display)');
    expect(await banner.textContent()).toContain('CommandOrControl+Shift+Space (taken by another app)');
    // A new shortcut is saved → main re-registers → the window asks again.
    d.setHotkeyStatus({ hook: 'running', hookError: null, toggle: { accelerator: 'CommandOrControl+Alt+D', registered: true, error: null }, problems: [] });
    await w.configStore.set('recording.toggle_shortcut', 'CommandOrControl+Alt+D');
    await expect.poll(() => w.page.getByTestId('hotkey-status').count()).toBe(0);
    expect(w.problems).toEqual([]);
  });

  it('general: keys are shown by their OS names; the recording keys are recorded by pressing them, Clear removes one', async () => {
    const w = await openTab('General');
    const { page } = w;
    // Linux names (the harness's platform): Right Alt, not alt_r.
    expect(await page.getByLabel('Hold-to-talk key').locator('option:checked').textContent()).toBe('Right Alt');
    const cancel = page.getByRole('button', { name: 'Cancel key', exact: true });
    expect(await cancel.textContent()).toBe('Space');
    await cancel.click();
    await page.keyboard.press('Escape');
    await expect.poll(() => w.configStore.get().feedback.cancel_key).toBe('esc');
    await expect.poll(() => cancel.textContent()).toBe('Esc');
    // No restart key by default on Linux (cmd would be the Super key).
    const restart = page.getByRole('button', { name: 'Restart key', exact: true });
    expect(await restart.textContent()).toBe('None');
    await restart.click();
    await page.keyboard.down('AltRight');
    await page.keyboard.up('AltRight');
    await expect.poll(() => w.configStore.get().feedback.restart_key).toBe('alt_r');
    await expect.poll(() => restart.textContent()).toBe('Right Alt');
    await restart.click();
    await page.keyboard.press('Control+KeyR');
    await expect.poll(() => w.configStore.get().feedback.restart_key).toBe('ctrl+r');
    await expect.poll(() => restart.textContent()).toBe('Ctrl + R');
    await page.getByRole('button', { name: 'Clear: Restart key' }).click();
    await expect.poll(() => w.configStore.get().feedback.restart_key).toBe('');
    await expect.poll(() => restart.textContent()).toBe('None');
    expect(await page.getByRole('button', { name: 'Previous mode key', exact: true }).textContent()).toBe('←');
    expect(w.problems).toEqual([]);
  });

  it('vocabulary: add, edit, delete (confirmed) land in vocabulary.db; counters show', async () => {
    const w = await openTab('Vocabulary');
    const { page } = w;
    await page.getByLabel('Heard as').fill('平平');
    await page.getByLabel('Should be').fill('萍萍');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => w.vocabulary.list().map((e) => `${e.wrong}→${e.right}`)).toEqual(['平平→萍萍']);
    await page.getByLabel('Heard as').fill('闻子');
    await page.getByLabel('Should be').fill('WenZi');
    await page.getByLabel('Should be').press('Enter');
    await expect.poll(() => w.vocabulary.list().length).toBe(2);
    await expect.poll(() => page.getByTestId('vocab-table').locator('tbody tr').count()).toBe(2);
    expect(await page.getByTestId('vocab-table').textContent()).toContain('Not in a dictation yet');

    await page.getByRole('button', { name: 'Edit 闻子 → WenZi' }).click();
    await page.getByRole('textbox', { name: 'Should be' }).nth(1).fill('WenZi 闻字');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => w.vocabulary.list().find((e) => e.wrong === '闻子')?.right).toBe('WenZi 闻字');

    await page.getByLabel('Search vocabulary').fill('萍');
    await expect.poll(() => page.getByTestId('vocab-table').locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Delete 平平 → 萍萍' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => w.vocabulary.list().map((e) => e.wrong)).toEqual(['闻子']);

    // Export goes through main's save dialog (recorded here); the file is written by main.
    const out = path.join(w.dataDir, 'vocab-export.json');
    w.dialogs.answerNext(out);
    await page.getByRole('button', { name: 'Export…' }).click();
    await page.getByText(`Exported 1 pairs to ${out}.`).waitFor();
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toMatchObject({ version: 1, entries: [{ wrong: '闻子', right: 'WenZi 闻字' }] });
    // An empty pair is refused by the button; a duplicate-free list stays.
    expect(await page.getByRole('button', { name: 'Add', exact: true }).isDisabled()).toBe(true);
    await saveScreenshot(page, 'settings-vocabulary');
    expect(w.problems).toEqual([]);
  });

  it('speech: downloads a model with a progress bar over real HTTP, then deletes it; the warm-up switch saves', async () => {
    const w = await openTab('Speech');
    const { page } = w;
    await page.getByRole('button', { name: `Download ${SERVED_MODEL}` }).click();
    await page.getByRole('progressbar', { name: `Downloading ${SERVED_MODEL}` }).waitFor();
    const file = path.join(w.dataDir, 'models', `ggml-${SERVED_MODEL}.bin`);
    await expect.poll(async () => fs.existsSync(file) || (await page.getByTestId('models').textContent()), { timeout: 15_000 }).toBe(true);
    expect(fs.statSync(file).size).toBeGreaterThan(1_000_000);
    // The recommended card says what it is and that it is installed; choosing it is one click.
    const card = page.getByTestId(`model-${SERVED_MODEL}`);
    await card.getByText('Installed', { exact: true }).waitFor();
    await card.getByText(/^\d+ MB · Fastest · Chinese, English and 97 more languages$/).waitFor();
    await page.getByRole('button', { name: `Use ${SERVED_MODEL}` }).click();
    await expect.poll(() => w.configStore.get().asr.local.model).toBe(SERVED_MODEL);
    await card.getByText('In use').waitFor();
    // The rest of the catalog is in closed groups (Chinese, English, …); a model the mirror does not have fails with a reason in words.
    expect(await page.getByTestId('model-missing-test').isVisible()).toBe(false);
    for (const group of await page.locator('.model-group > summary').all()) await group.click();
    await page.getByTestId('model-sense-voice-test').getByText(/· Chinese \(Mandarin\), English, Japanese, Korean, Cantonese$/).waitFor();
    await page.getByRole('button', { name: 'Download missing-test' }).click();
    await page.getByText('The download site does not have this model. Check the download address.').waitFor();
    await page.getByRole('button', { name: `Delete ${SERVED_MODEL}` }).click();
    await expect.poll(() => fs.existsSync(file)).toBe(false);
    // Warm-up is on by default; the switch saves it (off: the first dictation loads the model).
    const warmUp = page.getByRole('switch', { name: 'Load the model in advance' });
    expect(await warmUp.isChecked()).toBe(true);
    await warmUp.click();
    await expect.poll(() => w.configStore.get().asr.local.warm_up).toBe(false);
    await page.getByLabel('Base URL').fill('not a url');
    await page.getByLabel('Base URL').press('Enter');
    await page.getByTestId('asr-remote-url-error').waitFor();
    expect(w.configStore.get().asr.remote.base_url).toBe('https://api.openai.com/v1');
    await saveScreenshot(page, 'settings-speech');
    expect(w.problems).toEqual([]);
  });

  it('AI: thinking switch, mode form (a bad position refused in words, the file kept), provider verify', async () => {
    const w = await openTab('AI');
    const { page } = w;
    await page.getByRole('switch', { name: 'Let the model think first' }).click();
    await expect.poll(() => w.configStore.get().ai_enhance.thinking).toBe(true);
    await page.getByLabel('Mode', { exact: true }).selectOption('proofread');
    const prompt = page.getByLabel('Instructions for the AI');
    await expect.poll(() => prompt.inputValue()).toContain('proofread');
    const modeFile = path.join(w.dataDir, 'enhance_modes', 'proofread.md');
    await prompt.fill(`${await prompt.inputValue()}\nAlways keep names as the user wrote them.`);
    await page.getByTestId('mode-form').getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved “Proofread”.').waitFor();
    expect(fs.readFileSync(modeFile, 'utf8')).toContain('Always keep names as the user wrote them.');
    // The saved mode is read back into the form once the save lands (later on a loaded machine): clear the
    // position after that, so the form is dirty and Save can be pressed.
    const save = page.getByTestId('mode-form').getByRole('button', { name: 'Save', exact: true });
    await expect
      .poll(async () => {
        await page.getByLabel('Position in the menu').fill('');
        return save.isEnabled();
      })
      .toBe(true);
    await save.click();
    await expect.poll(() => page.getByTestId('mode-status').textContent()).toBe('The position must be a number.');
    expect(fs.readFileSync(modeFile, 'utf8')).toContain('Always keep names');
    // Verify against the default provider (Ollama at localhost:11434, not running here): a clear failure.
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByTestId('verify-result').textContent(), { timeout: 15_000 }).toMatch(/^Failed: /);
    await saveScreenshot(page, 'settings-ai');
    expect(w.problems).toEqual([]);
  });

  it('general: the shortcut recorder saves an accelerator and warns about a clash', async () => {
    const w = await openTab('General');
    const { page } = w;
    const rec = page.getByRole('button', { name: 'Toggle shortcut' });
    expect(await rec.textContent()).toBe('Ctrl+Shift+Space');
    await rec.click();
    await page.keyboard.press('Control+Alt+KeyD');
    await expect.poll(() => w.configStore.get().recording.toggle_shortcut).toBe('CommandOrControl+Alt+D');
    // The store is written before the page hears back; the recorder shows the saved value once it does.
    await expect.poll(() => rec.textContent()).toBe('Ctrl+Alt+D');
    await rec.click();
    await page.keyboard.press('KeyK');
    await page.getByText(/Use at least one modifier/).waitFor();
    await page.keyboard.press('Control+KeyV');
    await expect.poll(() => w.configStore.get().recording.toggle_shortcut).toBe('CommandOrControl+V');
    await page.getByText(/Ctrl\+V is a common system or editing shortcut/).waitFor();
    await page.getByLabel('Recording mode').selectOption('toggle');
    await expect.poll(() => w.configStore.get().recording.mode).toBe('toggle');
    await saveScreenshot(page, 'settings-general');
    expect(w.problems).toEqual([]);
  });

  it('general: the enhance-selection shortcut is unset by default, recorded, and removed with Backspace', async () => {
    const w = await openTab('General');
    const { page } = w;
    const rec = page.getByRole('button', { name: 'Enhance selected text' });
    expect(await rec.textContent()).toBe('None');
    await rec.click();
    await page.keyboard.press('Control+Alt+KeyE');
    await expect.poll(() => w.configStore.get().recording.enhance_selection_shortcut).toBe('CommandOrControl+Alt+E');
    await expect.poll(() => rec.textContent()).toBe('Ctrl+Alt+E');
    await rec.click();
    await page.keyboard.press('Backspace');
    await expect.poll(() => w.configStore.get().recording.enhance_selection_shortcut).toBe('');
    await expect.poll(() => rec.textContent()).toBe('None');
    expect(w.problems).toEqual([]);
  });

  it('speech and AI: the Chinese-script and input-context choices save', async () => {
    const speech = await openTab('Speech');
    await speech.page.getByLabel('Chinese characters').selectOption('traditional');
    await expect.poll(() => speech.configStore.get().asr.chinese_script).toBe('traditional');
    expect(speech.problems).toEqual([]);
    const ai = await openTab('AI');
    await ai.page.getByLabel('Tell the model which app you dictate into').selectOption('detailed');
    await expect.poll(() => ai.configStore.get().ai_enhance.input_context).toBe('detailed');
    expect(ai.problems).toEqual([]);
  });

  it('live text: "Show text while speaking" and "Decode while speaking" save; the first is disabled, saying why, when it cannot work', async () => {
    const w = await openTab('General');
    const { page } = w;
    const live = page.getByRole('switch', { name: 'Show text while speaking' });
    const help = page.locator('#rec-live-text-help');
    expect(await live.isChecked()).toBe(false);
    expect(await live.isEnabled()).toBe(true);
    expect(await help.textContent()).toBe('The indicator shows the latest words as you pause, before you release the key.');
    await live.click();
    await expect.poll(() => w.configStore.get().feedback.live_text).toBe(true);
    // Without the indicator there is nowhere to show it.
    await page.getByRole('switch', { name: 'Show the recording indicator' }).click();
    await expect.poll(() => live.isDisabled()).toBe(true);
    expect(await help.textContent()).toBe('Needs the recording indicator (above).');
    await page.getByRole('switch', { name: 'Show the recording indicator' }).click();
    await expect.poll(() => live.isEnabled()).toBe(true);
    // A remote engine transcribes only at key-up.
    await w.configStore.set('asr.engine', 'remote');
    await expect.poll(() => live.isDisabled()).toBe(true);
    expect(await help.textContent()).toBe('Needs the local speech engine: a remote API only transcribes after you release the key.');
    await w.configStore.set('asr.engine', 'local');
    await expect.poll(() => live.isEnabled()).toBe(true);
    // Decoding while speaking is on by default and switched in the Speech tab, with its one-line hint.
    await page.getByRole('tab', { name: 'Speech' }).click();
    const decode = page.getByRole('switch', { name: 'Decode while speaking' });
    expect(await decode.isChecked()).toBe(true);
    expect(await page.locator('#asr-decode-while-speaking-help').textContent()).toContain('waits only for the last phrase');
    await decode.click();
    await expect.poll(() => w.configStore.get().asr.local.decode_while_speaking).toBe(false);
    await page.getByRole('tab', { name: 'General' }).click();
    await expect.poll(() => live.isDisabled()).toBe(true);
    expect(await help.textContent()).toBe('Needs “Decode while speaking” (Speech tab).');
    // The setting itself is kept while it cannot act.
    expect(await live.isChecked()).toBe(true);
    // In Chinese.
    await w.configStore.set('ui.language', 'zh');
    await page.getByRole('switch', { name: '说话时显示文字' }).waitFor();
    expect(await help.textContent()).toBe('需要打开“边说边识别”（语音识别页）。');
    await page.getByRole('tab', { name: '语音识别' }).click();
    await page.getByRole('switch', { name: '边说边识别' }).click();
    await expect.poll(() => w.configStore.get().asr.local.decode_while_speaking).toBe(true);
    expect(w.problems).toEqual([]);
  });

  it('speech: the recognition language follows the app language by default; picking Chinese + English saves zh-en; auto warns', async () => {
    const w = await openTab('Speech');
    const { page } = w;
    const select = page.locator('#asr-language');
    expect(w.configStore.get().asr.language).toBe('follow-ui');
    await expect.poll(() => select.locator('option:checked').textContent()).toBe('Same as the app language (now: English)');
    expect(await select.locator('option').allTextContents()).toEqual([
      'Same as the app language (now: English)',
      'Chinese + English',
      'Chinese (Mandarin)',
      'English',
      'Cantonese',
      'Japanese',
      'Korean',
      'Detect automatically',
    ]);
    expect(await page.locator('#asr-language-help').count()).toBe(0);
    await select.selectOption({ label: 'Chinese + English' });
    await expect.poll(() => w.configStore.get().asr.language).toBe('zh-en');
    expect((JSON.parse(fs.readFileSync(w.configStore.path, 'utf8')) as { asr: { language: string } }).asr.language).toBe('zh-en');
    // Detection is an explicit choice, with the reason it is not the default next to it.
    await select.selectOption('auto');
    await expect.poll(() => w.configStore.get().asr.language).toBe('auto');
    await expect.poll(() => page.locator('#asr-language-help').textContent()).toContain('guesses wrong on short clips');
    // The label is live: back on "follow", a Chinese UI names the mix it stands for.
    await select.selectOption('follow-ui');
    await w.configStore.set('ui.language', 'zh');
    await expect.poll(() => page.locator('#asr-language option:checked').textContent()).toBe('跟随应用语言（当前：中英混合）');
    expect(w.configStore.get().asr.language).toBe('follow-ui');
    expect(w.problems).toEqual([]);
  });

  it('history & privacy: export through the save dialog, delete all only after confirming', async () => {
    const w = await openTab('History & privacy');
    const { page } = w;
    await w.history.log({ asr_text: '果果今天在公园里遇到了平平', enhanced_text: null, final_text: '果果今天在公园里遇到了萍萍。', enhance_mode: 'proofread', preview_enabled: true, stt_model: 'whisper-small', llm_model: '', user_corrected: true, audio_duration: 3.2, language: 'zh', source: 'voice', outcome: 'confirmed' });
    const csv = path.join(w.dataDir, 'out.csv');
    w.dialogs.answerNext(csv);
    await page.getByRole('button', { name: 'Export CSV…' }).click();
    await page.getByText(`Exported 1 records to ${csv}.`).waitFor();
    expect(fs.readFileSync(csv, 'utf8')).toContain('果果今天在公园里遇到了萍萍。');
    expect(w.dialogs.calls.at(-1)).toMatchObject({ kind: 'save', defaultName: 'tingxie-history.csv' });
    // A cancelled dialog does nothing and says nothing.
    await page.getByRole('button', { name: 'Export JSONL…' }).click();
    await page.getByRole('button', { name: 'Delete all history…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await w.history.countMatches({ includeArchived: true })).total).toBe(1);
    await page.getByRole('button', { name: 'Delete all history…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('All history was deleted.').waitFor();
    expect((await w.history.countMatches({ includeArchived: true })).total).toBe(0);
    expect(w.problems).toEqual([]);
  });
});
