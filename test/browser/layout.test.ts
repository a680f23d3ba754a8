/**
 * The layout test: every window at its default and its minimum size (from window-policy.ts, so a size
 * change is tested at once), in Chinese and English, light and dark, in the states people meet — and
 * nothing may be clipped, spill out of its box, overlap its neighbour, or wrap a control's label (per
 * character least of all): see test/helpers/layout-check.ts for the exact checks. Screenshots in
 * docs/user come from here (TINGXIE_UPDATE_SCREENSHOTS=1 copies them into docs/screenshots).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { INDICATOR_LIVE_SIZE, INDICATOR_MESSAGE_SIZE, INDICATOR_SIZE } from '../../src/main/app/indicator-window.ts';
import { PANEL_MIN_SIZE, windowSpec, type WindowKind } from '../../src/main/app/window-policy.ts';
import type { DictationEvent } from '../../src/shared/ipc/dictation-types.ts';
import type { Notice } from '../../src/shared/notices/notice.ts';
import type { HarnessDictation } from '../helpers/browser-dictation.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { indexedHistoryDataset, type HistoryDataset } from '../helpers/browser-history-dataset.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { layoutProblems } from '../helpers/layout-check.ts';
import type { OpenAiTestServerOptions } from '../helpers/openai-test-server.ts';

const harness = useBrowserHarness();

interface Size {
  readonly name: 'default' | 'minimum';
  readonly width: number;
  readonly height: number;
}

/** A window's default and minimum size as the app creates it. */
function sizesOf(kind: WindowKind): readonly Size[] {
  const spec = windowSpec(kind, { preload: '/x/preload.cjs', devTools: false });
  const width = spec.width ?? 0;
  const height = spec.height ?? 0;
  const min = kind === 'panel' ? PANEL_MIN_SIZE : { width: spec.minWidth ?? width, height: spec.minHeight ?? height };
  return [
    { name: 'default', width, height },
    { name: 'minimum', width: min.width, height: min.height },
  ];
}

const LANGS = ['en', 'zh'] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * Runs the checks in every size × language × colour scheme of an open window; `settle` waits for the
 * window to show the state again after a change (language switches re-render). Returns the problems.
 */
async function everyVariant(w: HarnessWindow, sizes: readonly Size[], settle: (lang: 'en' | 'zh') => Promise<void>, what: string): Promise<string[]> {
  const found: string[] = [];
  for (const lang of LANGS) {
    await w.configStore.set('ui.language', lang);
    await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : 'en');
    for (const size of sizes) {
      await w.page.setViewportSize({ width: size.width, height: size.height });
      for (const scheme of SCHEMES) {
        await w.page.emulateMedia({ colorScheme: scheme });
        await settle(lang);
        // Two frames: the resize observers and the layout they trigger have run. A page headless Chromium
        // draws nothing new in (the transparent indicator) gets about one frame a second, so at most 150 ms:
        // the checks force layout themselves, the frames only let observers react.
        await w.page.evaluate(
          () =>
            new Promise<void>((resolve) => {
              requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
              setTimeout(resolve, 150);
            }),
        );
        const problems = await layoutProblems(w.page);
        for (const p of problems) found.push(`${what} · ${lang} · ${size.name} ${size.width}×${size.height} · ${scheme}: ${p}`);
        // A variant with problems is kept as a picture to look at (all of them with TINGXIE_LAYOUT_SHOTS=1).
        if (problems.length > 0 || process.env.TINGXIE_LAYOUT_SHOTS === '1') {
          const dir = path.resolve(import.meta.dirname, '../../test-results/layout');
          fs.mkdirSync(dir, { recursive: true });
          await w.page.screenshot({ path: path.join(dir, `${what.replace(/[^\p{L}\p{N}]+/gu, '-')}-${lang}-${size.name}-${scheme}.png`) });
        }
      }
    }
  }
  return found;
}

const ASR = 'hello world this is a dictation test';
const ENHANCED = '你好，世界：这是一次听写测试。Hello world, this is a dictation test.';

async function openPanel(script: OpenAiTestServerOptions): Promise<{ w: HarnessWindow; d: HarnessDictation }> {
  const [size] = sizesOf('panel');
  const w = await harness.open('panel', { dictation: script, viewport: { width: size?.width ?? 520, height: size?.height ?? 260 } });
  await w.page.getByTestId('panel').waitFor();
  await expect.poll(() => w.page.locator('[data-mode]').count()).toBeGreaterThan(2);
  if (w.dictation === null) throw new Error('no dictation behind the window');
  return { w, d: w.dictation };
}

/** The final text field is on screen with room for a few lines, and can be typed in. */
async function finalTextUsable(w: HarnessWindow): Promise<{ visible: boolean; height: number; editable: boolean }> {
  return w.page.getByTestId('panel-final').evaluate((el: HTMLTextAreaElement) => {
    const r = el.getBoundingClientRect();
    return { visible: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth, height: Math.round(r.height), editable: !el.disabled && !el.readOnly };
  });
}

describe('layout: the preview panel', () => {
  it('preview with merged notices (collapsed and expanded) and Retry, at its default and minimum size: nothing clipped, the final text in view', async () => {
    const { w, d } = await openPanel({
      transcription: () => ({ kind: 'text', text: ASR, language: 'english' }),
      chat: () => ({ kind: 'fault', fault: { kind: 'http', status: 500, message: 'model crashed' } }),
    });
    d.speak();
    await w.page.getByTestId('panel-retry').waitFor({ timeout: 10_000 });
    // A hotkey pressed twice while the preview waits: one notice, ×2.
    d.controller.press('hold');
    d.controller.release();
    d.controller.press('hold');
    d.controller.release();
    await expect.poll(() => w.page.getByTestId('panel-notices-toggle').textContent()).toBe('All 2');
    const problems: string[] = [];
    for (const expanded of [false, true]) {
      const toggle = w.page.getByTestId('panel-notices-toggle');
      if ((await toggle.getAttribute('aria-expanded')) !== String(expanded)) await toggle.click();
      problems.push(
        ...(await everyVariant(w, sizesOf('panel'), async () => {
          await w.page.getByTestId('panel-retry').waitFor();
          const f = await finalTextUsable(w);
          if (!f.visible || f.height < 44 || !f.editable) problems.push(`final text not usable (${JSON.stringify(f)}) with notices ${expanded ? 'expanded' : 'collapsed'}`);
        }, `panel preview, notices ${expanded ? 'expanded' : 'collapsed'}`)),
      );
    }
    expect(problems).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  it('a failed transcription (error + Retry), recording and idle: nothing clipped at either size', async () => {
    const { w, d } = await openPanel({
      transcription: () => ({ kind: 'fault', fault: { kind: 'http', status: 503, message: 'speech server down' } }),
      chat: () => ({ kind: 'text', content: ENHANCED }),
    });
    d.speak();
    await w.page.getByTestId('panel-retry').waitFor({ timeout: 10_000 });
    const problems = await everyVariant(w, sizesOf('panel'), () => w.page.getByTestId('panel-retry').waitFor(), 'panel failed transcription');
    // Recording: the hotkey is down.
    await w.page.getByTestId('panel-notices-dismiss').click();
    d.controller.press('hold');
    await expect.poll(() => w.page.getByTestId('panel').getAttribute('data-state')).toBe('recording');
    problems.push(...(await everyVariant(w, sizesOf('panel'), async () => undefined, 'panel recording')));
    d.controller.cancel();
    await expect.poll(() => w.page.getByTestId('panel').getAttribute('data-state')).toBe('idle');
    problems.push(...(await everyVariant(w, sizesOf('panel'), async () => undefined, 'panel idle')));
    expect(problems).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  it('a long enhanced text with the diff open: the text area keeps its room, the section scrolls', async () => {
    const sentences = [
      'the quarterly review moves to thursday afternoon in the large meeting room',
      'please bring the figma designs and the api documentation for the new search',
      'pingping will present the numbers from the last three months of testing',
      'after that we decide whether the release goes out before the holidays',
      'send me your slides by wednesday evening so i can put them together',
      'and remember that the customers from shanghai join us by video at four',
    ];
    const longAsr = sentences.join(' ');
    const long = sentences.map((s) => `${s[0]?.toUpperCase() ?? ''}${s.slice(1)}.`).join(' ');
    const { w, d } = await openPanel({
      transcription: () => ({ kind: 'text', text: longAsr, language: 'english' }),
      chat: () => ({ kind: 'text', content: long }),
    });
    d.speak();
    await expect.poll(() => w.page.getByTestId('panel-final').inputValue(), { timeout: 10_000 }).toBe(long);
    await w.page.getByTestId('panel-show-diff').click();
    const problems: string[] = [];
    problems.push(
      ...(await everyVariant(w, sizesOf('panel'), async () => {
        const f = await finalTextUsable(w);
        if (!f.visible || f.height < 44) problems.push(`final text squeezed by the diff (${JSON.stringify(f)})`);
      }, 'panel with diff')),
    );
    await w.page.getByTestId('panel-show-diff').click();
    expect(problems).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  it('docs screenshot: a Chinese dictation in the panel at its default size, in the Chinese UI', async () => {
    const heard = '萍萍说下周三上午十点在三楼会议室开项目进度评审会请大家把设计稿和接口文档准备好';
    const enhanced = '萍萍说：下周三上午 10 点在三楼会议室开项目进度评审会，请大家把设计稿和接口文档准备好。';
    const [def] = sizesOf('panel');
    const { w, d } = await openPanel({ transcription: () => ({ kind: 'text', text: heard, language: 'chinese' }), chat: () => ({ kind: 'text', content: enhanced }) });
    await w.configStore.set('ui.language', 'zh');
    await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    d.speak();
    await expect.poll(() => w.page.getByTestId('panel-final').inputValue(), { timeout: 10_000 }).toBe(enhanced);
    await w.page.setViewportSize({ width: def?.width ?? 520, height: def?.height ?? 260 });
    await w.page.emulateMedia({ colorScheme: 'light' });
    expect(await layoutProblems(w.page)).toEqual([]);
    await saveScreenshot(w.page, 'panel-zh-default');
    expect(w.problems).toEqual([]);
  });
});

describe('layout: the History Browser', () => {
  let dataset: HistoryDataset;
  beforeAll(async () => {
    dataset = await indexedHistoryDataset(4000);
  }, 120_000);

  const LONG_ASR = '萍萍说下周三上午十点在三楼会议室开项目进度评审会，请大家提前把各自负责的模块整理好，尤其是 Figma 设计稿和 API 文档。'.repeat(6);
  const LONG_FINAL = `${'萍萍说：下周三上午 10 点在三楼会议室开项目进度评审会。请大家提前把各自负责的模块整理好，尤其是 Figma 设计稿和 API 文档。'.repeat(6)}\nPingping: the project review is next Wednesday at 10 am in the third-floor meeting room; please bring the Figma designs and the API docs.`;

  it('a long record selected, and the usage view, at 1000×700 and 640×480: full texts (the pane scrolls), nothing clipped; docs screenshot at 800×600', async () => {
    const w = await harness.open('history', { seedDir: dataset.dataDir, viewport: { width: 1000, height: 700 } });
    const { page } = w;
    await w.history.log({
      asr_text: LONG_ASR, enhanced_text: LONG_FINAL, final_text: LONG_FINAL, enhance_mode: 'proofread', preview_enabled: true,
      stt_model: 'sensevoice-small-int8', llm_model: 'deepseek-chat', user_corrected: true, audio_duration: 41.3, language: 'zh', source: 'voice', outcome: 'confirmed',
    });
    await page.locator('li[role="option"]').first().waitFor({ timeout: 10_000 });
    await page.locator('li[role="option"]').first().click();
    await page.getByTestId('detail-asr').waitFor();
    const problems: string[] = [];
    const checks = await everyVariant(w, sizesOf('history'), async () => {
      await page.getByTestId('detail-asr').waitFor();
      // The texts are shown whole: their boxes hold all of them (the pane scrolls instead).
      for (const id of ['detail-asr', 'detail-enhanced']) {
        const box = await page.getByTestId(id).evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
        if (box.scroll > box.client + 1) problems.push(`${id} clips its text (${box.scroll} > ${box.client})`);
      }
      const final = await page.locator('#detail-final').evaluate((el: HTMLTextAreaElement) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
      if (final.scroll > final.client + 1) problems.push(`the final text field hides part of the text (${final.scroll} > ${final.client})`);
      // The list still shows each row's text.
      const rowText = await page.locator('li[role="option"] .record-text').first().evaluate((el) => el.getBoundingClientRect().width);
      if (rowText < 120) problems.push(`row text only ${Math.round(rowText)} px wide`);
    }, 'history with a long record selected');
    problems.push(...checks);
    await page.getByRole('tab').nth(1).click();
    await page.getByTestId('mode-table').or(page.getByText(/No dictations in this period|这段时间没有听写/)).first().waitFor();
    problems.push(...(await everyVariant(w, sizesOf('history'), async () => undefined, 'usage view')));
    expect(problems).toEqual([]);

    // The History Browser of docs/user/history.md: 800×600, English, light, the long record selected.
    await page.getByRole('tab').nth(0).click();
    await w.configStore.set('ui.language', 'en');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.setViewportSize({ width: 800, height: 600 });
    await page.emulateMedia({ colorScheme: 'light' });
    // All time, so the list is full; the long record is the newest, first.
    await page.getByLabel('Time range').selectOption('all');
    await expect.poll(() => page.getByTestId('page-label').textContent()).toBe('Page 1 / 41');
    await page.locator('li[role="option"]').first().click();
    await page.getByTestId('detail-asr').waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await saveScreenshot(page, 'history-800x600');
    expect(w.problems).toEqual([]);
  });
});

describe('layout: Settings', () => {
  it('every tab at its default and minimum size: nothing clipped, no label wrapping per character', async () => {
    const w = await harness.open('settings', { viewport: { width: 860, height: 640 } });
    const { page } = w;
    await page.getByRole('tabpanel').waitFor();
    const tabs = await page.getByRole('tab').count();
    expect(tabs).toBeGreaterThanOrEqual(6);
    const problems: string[] = [];
    for (let i = 0; i < tabs; i++) {
      await page.getByRole('tab').nth(i).click();
      await page.getByRole('tabpanel').waitFor();
      const name = (await page.getByRole('tab').nth(i).textContent()) ?? String(i);
      problems.push(
        ...(await everyVariant(w, sizesOf('settings'), async () => {
          await page.getByRole('tab').nth(i).click();
          await page.getByRole('tabpanel').waitFor();
        }, `settings tab ${i + 1} (${name})`)),
      );
    }
    expect(problems).toEqual([]);
    expect(w.problems.filter((p) => !/favicon/.test(p.text))).toEqual([]);
  });
});

describe('layout: Settings › AI, a chain mode in the mode form', () => {
  it('the steps list and the form fit at the default and minimum size', async () => {
    const w = await harness.open('settings', { viewport: { width: 860, height: 640 } });
    const { page } = w;
    await page.getByRole('tab').nth(3).click();
    const settle = async () => {
      await page.locator('#mode-select').selectOption('proofread_translate_en');
      await page.getByTestId('chain-steps').scrollIntoViewIfNeeded();
    };
    await settle();
    expect(await everyVariant(w, sizesOf('settings'), settle, 'settings mode form (chain)')).toEqual([]);
    expect(w.problems.filter((p) => !/favicon/.test(p.text))).toEqual([]);
  });
});

describe('layout: the onboarding window', () => {
  it('every step (choice, model cards mid-download, cloud with a failed test, try-out) at its default and minimum size', async () => {
    const w = await harness.open('onboarding', { speechModelInstalled: false, viewport: { width: 600, height: 560 } });
    const { page } = w;
    const next = () => page.locator('.onboarding-footer .primary').click();
    await page.locator('.choices').waitFor();
    const problems = await everyVariant(w, sizesOf('onboarding'), () => page.locator('.choices').waitFor(), 'onboarding choice');
    await next();
    await page.locator('.model-card').first().waitFor();
    // A failed download shows its reason on the card: the longest card state.
    await page.locator('.model-card-actions .primary').first().click();
    problems.push(...(await everyVariant(w, sizesOf('onboarding'), () => page.locator('.model-card').first().waitFor(), 'onboarding local')));
    await page.locator('.onboarding-footer button:not(.primary):not(.text-button)').click();
    await page.locator('input[name="speech-path"][value="cloud"]').check();
    await next();
    await page.locator('#onboarding-provider').waitFor();
    await page.locator('#onboarding-url').fill('http://127.0.0.1:9/v1');
    await page.locator('#onboarding-url').press('Enter');
    await page.locator('.step-group .row .primary').click();
    await page.getByTestId('speech-check').waitFor({ timeout: 20_000 });
    problems.push(...(await everyVariant(w, sizesOf('onboarding'), () => page.getByTestId('speech-check').waitFor(), 'onboarding cloud')));
    expect(problems).toEqual([]);
    expect(w.problems).toEqual([]);
  }, 120_000);
});

describe('layout: the setup guide\'s microphone, permissions and hotkey steps', () => {
  it('microphone after a test, macOS permissions not yet allowed, a questioned hotkey with the readout, at default and minimum size', async () => {
    const w = await harness.open('onboarding', { viewport: { width: 600, height: 560 } });
    const { page } = w;
    w.onboarding.os.platform = 'darwin';
    w.onboarding.os.session = null;
    w.onboarding.os.trusted = false;
    w.onboarding.os.microphone = 'not-determined';
    // By step id: the variants below switch the language.
    const next = async (step: string) => {
      await page.locator('.onboarding-footer .primary:not([disabled])').click();
      await page.locator(`main[data-step="${step}"]`).waitFor();
    };
    await page.locator('.choices').waitFor();
    await next('speech');
    await next('ai');
    await next('microphone');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.getByTestId('mic-status').getByText(/Did you hear yourself/).waitFor({ timeout: 8000 });
    const problems = await everyVariant(w, sizesOf('onboarding'), () => page.getByTestId('mic-status').waitFor(), 'onboarding microphone');
    await next('permissions');
    await page.getByTestId('perm-accessibility').waitFor();
    problems.push(...(await everyVariant(w, sizesOf('onboarding'), () => page.getByTestId('perm-accessibility').waitFor(), 'onboarding permissions (macOS)')));
    await next('hotkey');
    await page.locator('.onboarding-body .shortcut').click();
    await page.keyboard.down('ShiftLeft');
    await page.keyboard.up('ShiftLeft');
    await page.getByTestId('key-verdict').waitFor();
    w.broadcast('onboarding:key', { kind: 'down', key: 'alt_r' });
    await page.locator('.key-readout.key-down').waitFor();
    problems.push(...(await everyVariant(w, sizesOf('onboarding'), () => page.getByTestId('key-verdict').waitFor(), 'onboarding hotkey')));
    expect(problems).toEqual([]);
    expect(w.problems).toEqual([]);
  }, 120_000);
});

describe('layout: the recording indicator', () => {
  const send = (w: HarnessWindow, e: DictationEvent): void => w.broadcast('dictation:event', e);
  const failures: readonly Notice[] = [
    { code: 'asr-failed', reason: 'HTTP 503' },
    { code: 'asr-timeout' },
    { code: 'speech-model-missing', model: 'large-v3-turbo-q5_0' },
    { code: 'llm-fallback', reason: 'timeout', refusal: null },
    { code: 'llm-guarded', reason: 'answered the question' },
    { code: 'paste-failed', reason: 'xdotool missing', app: 'Visual Studio Code' },
    { code: 'paste-timeout' },
    { code: 'copy-failed', reason: 'x' },
    { code: 'microphone-error', reason: 'NotReadableError' },
    { code: 'nothing-recognized' },
    { code: 'silence-discarded', reason: 'below-threshold' },
    { code: 'step-failed', reason: 'ENOSPC' },
    { code: 'history-save-failed', reason: 'EROFS' },
  ];

  it('recording at its size, and every failure message at the message size, in both languages, whether the panel shows failures or not', async () => {
    const w = await harness.open('indicator', { viewport: INDICATOR_SIZE, configText: '{"output":{"preview":false}}' });
    const recording = [{ name: 'default' as const, ...INDICATOR_SIZE }];
    send(w, { kind: 'state', sessionId: 's1', state: 'recording', previous: 'idle', mode: 'proofread' });
    await expect.poll(() => w.page.locator('#root').getAttribute('data-state')).toBe('recording');
    const problems = await everyVariant(w, recording, async () => undefined, 'indicator recording');
    send(w, { kind: 'state', sessionId: 's1', state: 'idle', previous: 'recording', mode: 'proofread' });
    const message = [{ name: 'default' as const, ...INDICATOR_MESSAGE_SIZE }];
    for (const panel of [false, true]) {
      await w.configStore.set('output.preview', panel);
      for (const notice of failures) {
        send(w, { kind: 'notice', sessionId: 's1', level: 'error', notice });
        problems.push(
          ...(await everyVariant(w, message, async () => {
            await expect.poll(() => w.page.locator('#root').getAttribute('data-state')).toBe('notice');
          }, `indicator message ${notice.code} (panel ${panel ? 'on' : 'off'})`)),
        );
      }
    }
    expect(problems).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  it('live text at its size: a long mixed Chinese/English text keeps to its two lines, in both languages', async () => {
    const w = await harness.open('indicator', { viewport: INDICATOR_LIVE_SIZE, configText: '{"feedback":{"live_text":true}}' });
    await expect.poll(() => w.page.locator('#root').getAttribute('data-live')).toBe('');
    send(w, { kind: 'state', sessionId: 's1', state: 'recording', previous: 'idle', mode: 'proofread' });
    const live = [{ name: 'default' as const, ...INDICATOR_LIVE_SIZE }];
    const problems = await everyVariant(w, live, async () => undefined, 'indicator listening (live text on)');
    send(w, { kind: 'partial', sessionId: 's1', text: `${ENHANCED} 然后把 https://example.com/a/very/long/path/that/does/not/break/anywhere 发给我。${ASR}` });
    await expect.poll(() => w.page.locator('#root').getAttribute('data-text')).toBe('');
    problems.push(...(await everyVariant(w, live, async () => undefined, 'indicator live text')));
    expect(problems).toEqual([]);
    expect(w.problems).toEqual([]);
  });
});
