import { describe, expect, it } from 'vitest';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import type { HarnessDictation } from '../helpers/browser-dictation.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { dictationChats, type OpenAiTestServerOptions } from '../helpers/openai-test-server.ts';

/**
 * The preview panel in real Chromium over the REAL dictation controller, enhancer, history and
 * vocabulary (ASR and LLM on the local OpenAI-compatible server): every key path is checked on the main
 * side — the record in the JSONL file and what the output sink received.
 */

const harness = useBrowserHarness();

const ASR = 'hello world this is a dictation test';
const ENHANCED = 'Hello world, this is a dictation test.';
const script = (over: Partial<OpenAiTestServerOptions> = {}): OpenAiTestServerOptions => ({
  transcription: () => ({ kind: 'text', text: ASR, language: 'english' }),
  chat: (call) => ({ kind: 'text', content: call.messages.at(-1)?.content.includes(ASR) && call.chatIndex === 0 ? ENHANCED : 'Hello World: this is a dictation test!', reasoningContent: 'The user wants punctuation.' }),
  ...over,
});

async function openPanel(opts: { dictation?: OpenAiTestServerOptions; locale?: string; configText?: string } = {}): Promise<{ w: HarnessWindow; d: HarnessDictation }> {
  const w = await harness.open('panel', { dictation: opts.dictation ?? script(), viewport: { width: 560, height: 420 }, ...(opts.locale ? { locale: opts.locale } : {}), ...(opts.configText ? { configText: opts.configText } : {}) });
  await w.page.getByTestId('panel').waitFor();
  await expect.poll(() => w.page.locator('[data-mode]').count()).toBeGreaterThan(2);
  if (w.dictation === null) throw new Error('no dictation behind the window');
  return { w, d: w.dictation };
}

async function untilIdle(d: HarnessDictation): Promise<void> {
  await expect.poll(async () => (await d.controller.settled(), d.controller.state.state), { timeout: 10_000 }).toBe('idle');
  await d.graph.history.settled();
}

const final = (w: HarnessWindow) => w.page.getByTestId('panel-final');

describe('preview panel', () => {
  it('streams the enhanced text, shows usage and timing, and Enter pastes it: record and output on the main side', async () => {
    const { w, d } = await openPanel();
    d.speak();
    await expect.poll(() => final(w).inputValue(), { timeout: 10_000 }).toBe(ENHANCED);
    await expect.poll(() => w.page.getByTestId('panel-state').textContent()).toBe('Review and confirm');
    expect(await w.page.getByTestId('panel-asr').textContent()).toBe(ASR);
    // Plain words on the line (the total, and the reused share only when there is one); the tooltip spells it out.
    expect(await w.page.getByTestId('panel-usage').textContent()).toMatch(/^\d+ tokens(, \d+% reused)?$/);
    expect(await w.page.getByTestId('panel-info').getAttribute('title')).toMatch(/The AI read \d+ tokens \(\d+ of them reused from an earlier request, which is cheaper and faster\) and wrote \d+\./);
    expect(await w.page.getByTestId('panel-timing').textContent()).toMatch(/^\d+\.\d s$/);
    // Focus is in the text with the cursor at the end.
    expect(await final(w).evaluate((el: HTMLTextAreaElement) => [document.activeElement === el, el.selectionStart, el.value.length])).toEqual([true, ENHANCED.length, ENHANCED.length]);
    // Thinking and the system prompt on demand.
    await w.page.getByTestId('panel-show-thinking').click();
    expect(await w.page.getByTestId('panel-thinking').textContent()).toContain('The user wants punctuation.');
    await w.page.getByTestId('panel-show-prompt').click();
    await expect.poll(() => w.page.getByTestId('panel-prompt').locator('pre').textContent()).toMatch(/proofread text produced by speech recognition/);
    await saveScreenshot(w.page, 'panel-en');
    await final(w).focus();
    await w.page.keyboard.press('Enter');
    await untilIdle(d);
    expect(d.output.delivered).toEqual([{ text: ENHANCED, action: 'paste' }]);
    expect(d.records()).toMatchObject([{ asr_text: ASR, enhanced_text: ENHANCED, final_text: ENHANCED, outcome: 'confirmed', preview_enabled: true, user_corrected: false, enhance_mode: 'proofread', llm_model: 'test-model' }]);
    expect(d.records()[0]?.usage).toMatchObject({ prompt_tokens: expect.any(Number) as number, cached_tokens: expect.any(Number) as number });
    // The finished preview can be reopened and copied again (no second record).
    await w.page.getByTestId('panel-show-recent').click();
    await w.page.getByTestId('panel-recent').getByRole('button').first().click();
    await w.page.getByTestId('panel-reopened').waitFor();
    expect(await final(w).inputValue()).toBe(ENHANCED);
    await final(w).focus();
    await w.page.keyboard.press('Control+Enter');
    await expect.poll(() => d.output.delivered.length).toBe(2);
    expect(d.output.delivered[1]).toEqual({ text: ENHANCED, action: 'copy' });
    await d.graph.history.settled();
    expect(d.records()).toHaveLength(1);
    expect(d.records()[0]).not.toHaveProperty('edited_at');
    // Reopened again, edited and pasted: that same record is updated on disk (edited_at set), no new one.
    await w.page.getByTestId('panel-show-recent').click();
    await w.page.getByTestId('panel-recent').getByRole('button').first().click();
    await w.page.getByTestId('panel-reopened').waitFor();
    await final(w).focus();
    await w.page.keyboard.press('End');
    await w.page.keyboard.type(' Edited.');
    expect(await final(w).inputValue()).toBe(`${ENHANCED} Edited.`);
    await w.page.keyboard.press('Enter');
    await expect.poll(() => d.output.delivered.length).toBe(3);
    expect(d.output.delivered[2]).toEqual({ text: `${ENHANCED} Edited.`, action: 'paste' });
    await expect.poll(async () => (await d.graph.history.settled(), d.records()[0]?.final_text)).toBe(`${ENHANCED} Edited.`);
    expect(d.records()).toHaveLength(1);
    expect(d.records()[0]).toMatchObject({ user_corrected: true, edited_at: expect.any(String) as string });
    // Esc on the idle panel puts it away.
    const hides = d.panel.filter((v) => !v).length;
    await final(w).focus();
    await w.page.keyboard.press('Escape');
    await expect.poll(() => d.panel.filter((v) => !v).length).toBe(hides + 1);
    expect(w.problems).toEqual([]);
  });

  it('Ctrl+Enter copies instead of pasting; Esc cancels (logged as cancelled, nothing delivered)', async () => {
    const { w, d } = await openPanel();
    d.speak();
    await expect.poll(() => final(w).inputValue(), { timeout: 10_000 }).toBe(ENHANCED);
    await w.page.keyboard.press('Control+Enter');
    await untilIdle(d);
    expect(d.output.delivered).toEqual([{ text: ENHANCED, action: 'copy' }]);
    expect(d.records()).toMatchObject([{ outcome: 'copied', final_text: ENHANCED }]);

    d.speak();
    await expect.poll(() => w.page.getByTestId('panel-state').textContent(), { timeout: 10_000 }).toBe('Review and confirm');
    await w.page.keyboard.press('Escape');
    await untilIdle(d);
    expect(d.output.delivered).toHaveLength(1);
    expect(d.records().map((r) => r.outcome)).toEqual(['copied', 'cancelled']);
    expect(w.problems).toEqual([]);
  });

  it('Ctrl+2 re-runs another mode, Ctrl+1 brings the first back from the cache (no model call), and the record has the mode on screen', async () => {
    const { w, d } = await openPanel();
    const id = d.speak();
    await expect.poll(() => final(w).inputValue(), { timeout: 10_000 }).toBe(ENHANCED);
    const modes = await w.page.locator('[data-mode]').evaluateAll((els) => els.map((e) => e.getAttribute('data-mode')));
    const second = modes[1] ?? '';
    const chats = () => dictationChats(d.server.requests).length;
    expect(chats()).toBe(1);
    await w.page.keyboard.press('Control+2');
    await expect.poll(() => final(w).inputValue(), { timeout: 10_000 }).toBe('Hello World: this is a dictation test!');
    expect(d.controller.snapshot()).toMatchObject({ sessionId: id, mode: second });
    expect(chats()).toBe(2);
    await w.page.keyboard.press('Control+1');
    await expect.poll(() => final(w).inputValue()).toBe(ENHANCED);
    await w.page.getByTestId('panel-cached').waitFor();
    expect(await w.page.locator(`[data-mode="${modes[0] ?? ''}"] .mode-cached`).count()).toBe(1);
    expect(chats()).toBe(2);
    await w.page.keyboard.press('Enter');
    await untilIdle(d);
    expect(d.records()).toMatchObject([{ enhance_mode: modes[0], final_text: ENHANCED, outcome: 'confirmed' }]);
    expect(w.problems).toEqual([]);
  });

  it('an edit made while the model is still answering is not overwritten by the late result', async () => {
    const { w, d } = await openPanel({ dictation: script({ chat: () => ({ kind: 'text', content: ENHANCED, delayMs: 1200 }) }) });
    d.speak();
    await expect.poll(() => w.page.getByTestId('panel-state').textContent(), { timeout: 10_000 }).toBe('Enhancing…');
    await expect.poll(() => final(w).inputValue()).toBe(ASR);
    await final(w).press('End');
    await w.page.keyboard.type(' by me');
    // The late result arrives (status line) but the text stays the user's.
    await expect.poll(() => w.page.getByTestId('panel-status').textContent(), { timeout: 10_000 }).toBe('Enhanced');
    expect(await final(w).inputValue()).toBe(`${ASR} by me`);
    await w.page.keyboard.press('Enter');
    await untilIdle(d);
    expect(d.output.delivered).toEqual([{ text: `${ASR} by me`, action: 'paste' }]);
    expect(d.records()).toMatchObject([{ enhanced_text: ENHANCED, final_text: `${ASR} by me`, user_corrected: true, outcome: 'confirmed' }]);
    expect(w.problems).toEqual([]);
  });

  it('keys are ignored while an IME is composing (CDP Input.imeSetComposition); the diff adds a vocabulary pair', async () => {
    const { w, d } = await openPanel({ locale: 'zh-CN', configText: '{"ui":{"language":"zh"}}' });
    d.speak();
    await expect.poll(() => final(w).inputValue(), { timeout: 10_000 }).toBe(ENHANCED);
    await final(w).press('End');
    const cdp = await w.page.context().newCDPSession(w.page);
    await cdp.send('Input.imeSetComposition', { text: '你好', selectionStart: 2, selectionEnd: 2 });
    // Enter and Esc while composing belong to the input method: nothing is confirmed or cancelled.
    await w.page.keyboard.press('Enter');
    await w.page.keyboard.press('Escape');
    await new Promise((r) => setTimeout(r, 200));
    expect(d.controller.state.state).toBe('preview');
    expect(d.output.delivered).toEqual([]);
    await cdp.send('Input.insertText', { text: '你好' });
    await expect.poll(() => final(w).inputValue()).toContain('你好');
    const text = await final(w).inputValue();
    // The diff view: a word the user corrected becomes a clickable `wrong → right` pair.
    await final(w).fill(text.replace('dictation', '听写'));
    await w.page.getByTestId('panel-show-diff').click();
    await w.page.getByTestId('panel-diff').getByTitle('把“dictation → 听写”加入词库').click();
    await expect.poll(() => w.page.getByTestId('panel-diff-status').textContent()).toBe('已把“dictation → 听写”加入词库。');
    expect(d.graph.vocabulary?.list().map((e) => [e.wrong, e.right])).toEqual([['dictation', '听写']]);
    await saveScreenshot(w.page, 'panel-zh');
    await final(w).focus();
    await w.page.keyboard.press('Enter');
    await untilIdle(d);
    expect(d.output.delivered).toHaveLength(1);
    expect(d.output.delivered[0]?.text).toContain('你好');
    expect(d.records()).toMatchObject([{ outcome: 'confirmed', user_corrected: true }]);
    expect(w.problems).toEqual([]);
  });
});
