import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EDIT_LEARNING_FILE } from '../../src/main/enhance/edit-learning/edit-learner.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import type { HarnessDictation } from '../helpers/browser-dictation.ts';
import { layoutProblems } from '../helpers/layout-check.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import type { OpenAiTestServerOptions } from '../helpers/openai-test-server.ts';

/**
 * The vocabulary proposal learned from an edit in the preview panel, in real Chromium over the real
 * dictation controller, vocabulary and learner (ASR and LLM on the local OpenAI-compatible server), at the
 * panel's default size (520×260) in Chinese and English: correcting 平平 to 萍萍 (or cloud to Claude) offers
 * the pair, Add puts it in the vocabulary database, "Always replace" says whether a rule was written, and
 * Not now takes the offer away.
 */

const harness = useBrowserHarness();

const script = (asr: string): OpenAiTestServerOptions => ({
  transcription: () => ({ kind: 'text', text: asr, language: asr.match(/\p{Script=Han}/u) ? 'chinese' : 'english' }),
  chat: () => ({ kind: 'text', content: asr }),
});

async function openPanel(asr: string, lang: 'zh' | 'en'): Promise<{ w: HarnessWindow; d: HarnessDictation }> {
  const w = await harness.open('panel', {
    dictation: script(asr),
    viewport: { width: 520, height: 260 },
    ...(lang === 'zh' ? { locale: 'zh-CN', configText: '{"ui":{"language":"zh"}}' } : { configText: '{"ui":{"language":"en"}}' }),
  });
  await w.page.getByTestId('panel').waitFor();
  if (w.dictation === null) throw new Error('no dictation behind the window');
  const d = w.dictation;
  d.speak();
  await expect.poll(() => w.page.getByTestId('panel-final').inputValue(), { timeout: 10_000 }).toBe(asr);
  await expect.poll(() => d.controller.state.state).toBe('preview');
  return { w, d };
}

const pairs = (d: HarnessDictation): string[][] => (d.graph.vocabulary?.list() ?? []).map((e) => [e.wrong, e.right]);

describe('panel: the vocabulary proposal learned from an edit', () => {
  it('zh: correcting 平平 to 萍萍 proposes the pair; Add puts it in the vocabulary', async () => {
    const { w, d } = await openPanel('明天跟平平开会', 'zh');
    expect(await w.page.getByTestId('panel-proposal').count()).toBe(0);
    await w.page.getByTestId('panel-final').fill('明天跟萍萍开会');
    await expect.poll(() => w.page.getByTestId('panel-proposal-text').textContent()).toBe('把 平平 → 萍萍 加入词库？');
    expect(await layoutProblems(w.page)).toEqual([]);
    await saveScreenshot(w.page, 'panel-proposal-zh');
    expect(pairs(d)).toEqual([]);
    await w.page.getByTestId('panel-proposal-add').click();
    await expect.poll(() => w.page.getByTestId('panel-proposal-status').textContent()).toBe('已把 平平 → 萍萍 加入词库。');
    expect(pairs(d)).toEqual([['平平', '萍萍']]);
    expect(d.graph.vocabulary?.list()[0]?.note).toBe('learned from an edit');
    // A pair already in the vocabulary is not proposed again.
    await w.page.getByTestId('panel-final').fill('明天跟萍萍开会。');
    await new Promise((r) => setTimeout(r, 700));
    expect(await w.page.getByTestId('panel-proposal-text').count()).toBe(0);
    expect(w.problems).toEqual([]);
  });

  it('en: correcting cloud to Claude proposes the pair; "Always replace" adds it and says what became of the rule; Not now hides an offer', async () => {
    const { w, d } = await openPanel('ask cloud to review the get hub issue', 'en');
    await w.page.getByTestId('panel-final').fill('ask Claude to review the GitHub issue');
    await expect.poll(() => w.page.getByTestId('panel-proposal-text').textContent()).toBe('Add cloud → Claude to the vocabulary?');
    expect(await layoutProblems(w.page)).toEqual([]);
    await saveScreenshot(w.page, 'panel-proposal-en');
    await w.page.getByTestId('panel-proposal-always').click();
    // The second change is offered next.
    await expect.poll(() => w.page.getByTestId('panel-proposal-text').textContent()).toBe('Add get hub → GitHub to the vocabulary?');
    expect(pairs(d)).toEqual([['cloud', 'Claude']]);
    // "Always": a replacement rule in the data folder's text-rules.json (whole word, not by pinyin).
    const rules = JSON.parse(fs.readFileSync(path.join(w.dataDir, 'text-rules.json'), 'utf8')) as { replacements: { heard: string; written: string; same_pinyin: boolean }[] };
    expect(rules.replacements).toMatchObject([{ heard: 'cloud', written: 'Claude', same_pinyin: false }]);
    await w.page.getByTestId('panel-proposal-dismiss').click();
    expect(await w.page.getByTestId('panel-proposal').count()).toBe(0);
    expect(pairs(d)).toEqual([['cloud', 'Claude']]);
    expect(w.problems).toEqual([]);
  });

  it('a rewrite proposes nothing', async () => {
    const { w } = await openPanel('我今天很开心', 'zh');
    await w.page.getByTestId('panel-final').fill('我今天很高兴');
    await new Promise((r) => setTimeout(r, 800));
    expect(await w.page.getByTestId('panel-proposal').count()).toBe(0);
  });
});

describe('settings: the switches of learning from edits', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`${lang}: Vocabulary shows both switches at the default size; turning one off is saved to config.json`, async () => {
      const w = await harness.open('settings', { viewport: { width: 860, height: 640 }, ...(lang === 'zh' ? { locale: 'zh-CN', configText: '{"ui":{"language":"zh"}}' } : { configText: '{"ui":{"language":"en"}}' }) });
      await w.page.getByRole('switch', { name: /preview|预览/i }).waitFor();
      await w.page.getByRole('tab', { name: lang === 'zh' ? '词库' : 'Vocabulary' }).click();
      const auto = w.page.getByRole('switch', { name: lang === 'zh' ? '同一处修改做过两次后自动加入' : 'Add a correction automatically once I have made it twice' });
      await auto.waitFor();
      expect(await auto.isChecked()).toBe(true);
      expect(await layoutProblems(w.page)).toEqual([]);
      await saveScreenshot(w.page, `settings-learning-${lang}`);
      await auto.click();
      await expect.poll(() => (w.readConfigFile() as { ai_enhance?: { vocabulary?: { auto_add_learned?: boolean } } }).ai_enhance?.vocabulary?.auto_add_learned).toBe(false);
      // Learning off: the second switch has nothing to act on and is disabled.
      await w.page.getByRole('switch', { name: lang === 'zh' ? '从我的修改中学习' : 'Learn from my edits' }).click();
      await expect.poll(() => auto.isDisabled()).toBe(true);
      expect(w.problems).toEqual([]);
    });
  }
});

describe('History: the same proposal while correcting a record', () => {
  it('correcting 平平 to 萍萍 in a record proposes the pair; Add stores it; saving counts the correction', async () => {
    const w = await harness.open('history', { viewport: { width: 1000, height: 700 } });
    await w.history.log({ asr_text: '明天跟平平开会', enhanced_text: '明天跟平平开会。', final_text: '明天跟平平开会。', enhance_mode: 'proofread', preview_enabled: true, stt_model: 'whisper-small', llm_model: 'test-model', user_corrected: false, audio_duration: 2, language: 'zh', source: 'voice', outcome: 'confirmed' });
    await w.history.settled();
    await w.page.getByRole('listbox', { name: 'Dictations' }).getByRole('option').first().click();
    const final = w.page.locator('#detail-final');
    await final.fill('明天跟萍萍开会。');
    await expect.poll(() => w.page.getByTestId('panel-proposal-text').textContent()).toBe('Add 平平 → 萍萍 to the vocabulary?');
    expect(await layoutProblems(w.page)).toEqual([]);
    await saveScreenshot(w.page, 'history-proposal-en');
    await w.page.getByTestId('panel-proposal-add').click();
    await expect.poll(() => w.vocabulary.list().map((e) => [e.wrong, e.right])).toEqual([['平平', '萍萍']]);
    // Saved: the History edit path counts the correction towards adding it without asking.
    await final.press('Control+s');
    await expect.poll(() => (fs.existsSync(path.join(w.dataDir, EDIT_LEARNING_FILE)) ? fs.readFileSync(path.join(w.dataDir, EDIT_LEARNING_FILE), 'utf8') : '')).toContain('"n":1');
    expect(w.problems).toEqual([]);
  });
});

