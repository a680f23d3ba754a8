/**
 * Accessibility basics of every window, in real Chromium: axe-core's WCAG 2 A/AA rules find no
 * violation, every enabled control can be reached with Tab, and a focused control shows a visible focus
 * indicator that stands out from what surrounds it (3:1, WCAG 1.4.11). Every state the other browser tests
 * drive is checked in light and dark mode (and in both UI languages where the text length differs): the
 * panel idle, recording, with notices and Retry, after a failed transcription; the indicator recording and
 * showing an error; the History Browser with a selection; each Settings tab; each onboarding step. axe is
 * evaluated through the DevTools protocol, which the page's strict CSP does not block.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { INDICATOR_LIVE_SIZE, INDICATOR_MESSAGE_SIZE, INDICATOR_SIZE } from '../../src/main/app/indicator-window.ts';
import type { DictationEvent } from '../../src/shared/ipc/dictation-types.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const harness = useBrowserHarness();
let win: HarnessWindow | undefined;

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** axe-core's WCAG 2 A/AA violations on the page as it is now, as readable lines. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations;
  });
  return violations.map((v) => `${v.id} (${v.impact ?? '?'}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

/** Tabs through the page and checks every enabled, visible control was reached and showed a focus ring. */
async function checkKeyboardReach(page: Page): Promise<{ unreached: string[]; noFocusRing: string[]; faintRing: string[] }> {
  // Number the controls once (a data attribute), so a control is recognised however its markup changes.
  const count = await page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])')]
      // checkVisibility: a closed <details> keeps its content laid out but hidden (content-visibility), out of the Tab order.
      .filter((el) => !(el as HTMLButtonElement).disabled && el.offsetParent !== null && el.checkVisibility() && el.getAttribute('aria-hidden') !== 'true');
    controls.forEach((el, i) => el.setAttribute('data-a11y-idx', String(i)));
    (document.activeElement as HTMLElement | null)?.blur();
    return controls.length;
  });
  const reached = new Set<number>();
  const noFocusRing = new Set<number>();
  const faintRing = new Map<number, number>();
  for (let i = 0; i < count * 2 + 5; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const idx = el?.closest('[data-a11y-idx]')?.getAttribute('data-a11y-idx');
      if (el === null || idx === null || idx === undefined) return null;
      const style = getComputedStyle(el);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      const ring = outline || style.boxShadow !== 'none';
      // The ring's colour against the background around the control (the ring is drawn outside it).
      type Rgba = [number, number, number, number];
      const parse = (c: string): Rgba | null => {
        const m = /rgba?\(([^)]+)\)/.exec(c);
        if (m === null) return null;
        const [r = 0, g = 0, b = 0, a = 1] = (m[1] ?? '').split(/[\s,/]+/).filter(Boolean).map(Number);
        return [r, g, b, a];
      };
      const over = (top: Rgba, under: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + under[i]! * (1 - top[3])).concat(1) as Rgba;
      const backgroundAround = (from: Element | null): Rgba => {
        const layers: Rgba[] = [];
        for (let e = from; e !== null; e = e.parentElement) {
          const c = parse(getComputedStyle(e).backgroundColor);
          if (c !== null && c[3] > 0) layers.push(c);
          if (c !== null && c[3] >= 1) break;
        }
        let base: Rgba = matchMedia('(prefers-color-scheme: dark)').matches ? [18, 18, 18, 1] : [255, 255, 255, 1];
        for (const l of layers.reverse()) base = over(l, base);
        return base;
      };
      const lum = (c: Rgba): number => {
        const ch = c.slice(0, 3).map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * ch[0]! + 0.7152 * ch[1]! + 0.0722 * ch[2]!;
      };
      let contrast = 21;
      // Of several shadows the one spreading furthest is the ring people see around the control.
      const outermost = (shadows: string): string =>
        shadows
          .split(/,(?![^(]*\))/)
          .map((sh) => ({ sh, spread: Number(/(-?[\d.]+)px\s*(inset)?\s*$/.exec(sh.trim())?.[1] ?? 0) }))
          .reduce((a, b) => (b.spread > a.spread ? b : a)).sh;
      const ringColor = parse(outline ? style.outlineColor : outermost(style.boxShadow));
      if (ring && ringColor !== null) {
        const around = backgroundAround(el.parentElement);
        const [a, b] = [lum(over(ringColor, around)), lum(around)];
        contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      }
      return { idx: Number(idx), ring, contrast };
    });
    if (focused === null) continue;
    reached.add(focused.idx);
    if (!focused.ring) noFocusRing.add(focused.idx);
    else if (focused.contrast < 3) faintRing.set(focused.idx, focused.contrast);
  }
  // Members of a roving group (tabs, a listbox's options) are reached with the arrow keys once the group is.
  const result = await page.evaluate(
    ({ reachedList, ringless }) => {
      const describe = (el: Element): string => el.outerHTML.slice(0, 120);
      const all = [...document.querySelectorAll<HTMLElement>('[data-a11y-idx]')];
      const unreached = all
        .filter((el) => !reachedList.includes(Number(el.dataset.a11yIdx)))
        .filter((el) => el.parentElement?.closest('[role="tablist"], [role="listbox"], [role="radiogroup"], [role="toolbar"], [role="grid"]') === null)
        .map(describe);
      const noRing = all.filter((el) => ringless.includes(Number(el.dataset.a11yIdx))).map(describe);
      return { unreached, noFocusRing: noRing };
    },
    { reachedList: [...reached], ringless: [...noFocusRing] },
  );
  const faint = await page.evaluate(
    (list) => list.map(([idx, c]) => `${document.querySelector(`[data-a11y-idx="${idx}"]`)?.outerHTML.slice(0, 80) ?? idx} (focus ring ${c.toFixed(2)}:1)`),
    [...faintRing],
  );
  return { ...result, faintRing: faint };
}

const CLEAN = { unreached: [], noFocusRing: [], faintRing: [] };
const SCHEMES = ['light', 'dark'] as const;

/** axe's violations in light and dark mode (the page is left in light mode), each line prefixed with its scheme. */
async function axeBothSchemes(page: Page, what: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const v of await axeViolations(page)) found.push(`${what} · ${scheme}: ${v}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** Keyboard reach and focus rings in light and dark mode. */
async function keyboardBothSchemes(page: Page, what: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    const r = await checkKeyboardReach(page);
    for (const [k, list] of Object.entries(r)) for (const item of list) found.push(`${what} · ${scheme} · ${k}: ${item}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** Switches the UI language through the real settings store and waits for the page to follow. */
async function setLanguage(w: HarnessWindow, lang: 'en' | 'zh'): Promise<void> {
  await w.configStore.set('ui.language', lang);
  await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : 'en');
}

describe('accessibility basics', () => {
  for (const section of ['General', 'Audio', 'Speech', 'AI', 'Apps', 'Vocabulary', 'Text rules', 'History & privacy']) {
    it(`settings › ${section}: no WCAG A/AA violation in light and dark, zh and en; every control reachable by Tab with a visible focus ring`, async () => {
      win = await harness.open('settings');
      const w = win;
      const found: string[] = [];
      for (const lang of ['en', 'zh'] as const) {
        await setLanguage(w, lang);
        // The tabs are in the same order in both languages.
        await w.page.getByRole('tab').nth(['General', 'Audio', 'Speech', 'AI', 'Apps', 'Vocabulary', 'Text rules', 'History & privacy'].indexOf(section)).click();
        await w.page.getByRole('tabpanel').waitFor();
        found.push(...(await axeBothSchemes(w.page, `${section} · ${lang}`)));
      }
      await setLanguage(w, 'en');
      found.push(...(await keyboardBothSchemes(w.page, section)));
      expect(found).toEqual([]);
      expect(w.problems).toEqual([]);
    });
  }

  it('history browser with a long record selected (list focused), and the usage view: no violation in light and dark, zh and en; keyboard reach, focus rings', async () => {
    win = await harness.open('history');
    const w = win;
    for (let i = 0; i < 3; i++) {
      await w.history.log({
        asr_text: `果果今天在公园里遇到了平平 ${i}`, enhanced_text: null, final_text: `果果今天在公园里遇到了萍萍 ${i}`,
        enhance_mode: 'proofread', preview_enabled: true, stt_model: 'whisper-base', llm_model: 'qwen2.5:7b',
        user_corrected: true, audio_duration: 2.5, language: 'zh', source: 'voice', timestamp: new Date().toISOString(),
      });
    }
    const long = '萍萍说下周三上午十点在三楼会议室开项目进度评审会，请大家提前把各自负责的模块整理好，尤其是 Figma 设计稿和 API 文档。'.repeat(8);
    await w.history.log({
      asr_text: long, enhanced_text: `${long}\nPingping: the review is next Wednesday.`, final_text: long, enhance_mode: 'proofread', preview_enabled: true,
      stt_model: 'whisper-base', llm_model: 'deepseek-chat', user_corrected: true, audio_duration: 41.3, language: 'zh', source: 'voice',
    });
    await w.page.locator('li[role="option"]').first().waitFor();
    expect(await axeViolations(w.page)).toEqual([]);
    expect(await checkKeyboardReach(w.page)).toEqual(CLEAN);
    // A selection shown two ways: the focused list (keyboard, accent fill) and the detail pane.
    await w.page.locator('li[role="option"]').first().click();
    await w.page.getByTestId('detail-asr').waitFor();
    const found: string[] = [];
    for (const lang of ['en', 'zh'] as const) {
      await setLanguage(w, lang);
      await w.page.locator('li[role="option"][aria-selected="true"]').waitFor();
      await w.page.getByRole('listbox').focus();
      await w.page.keyboard.press('ArrowDown');
      await w.page.keyboard.press('ArrowUp');
      await w.page.getByTestId('detail-asr').waitFor();
      found.push(...(await axeBothSchemes(w.page, `history selection · ${lang}`)));
    }
    await setLanguage(w, 'en');
    found.push(...(await keyboardBothSchemes(w.page, 'history selection')));
    await w.page.getByRole('tab', { name: 'Usage' }).click();
    await w.page.getByRole('tabpanel').waitFor();
    found.push(...(await axeBothSchemes(w.page, 'usage')));
    expect(found).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`onboarding (${scheme}): every step has no violation; controls reachable with a focus ring`, async () => {
      win = await harness.open('onboarding', { speechModelInstalled: false, colorScheme: scheme, viewport: { width: 600, height: 560 } });
      const { page } = win;
      await page.getByRole('radio', { name: /On this computer/ }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkKeyboardReach(page)).toEqual(CLEAN);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.locator('.model-card').first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkKeyboardReach(page)).toEqual(CLEAN);
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('radio', { name: /With a cloud provider/ }).check();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Provider').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkKeyboardReach(page)).toEqual(CLEAN);
      expect(win.problems).toEqual([]);
    });
  }

  for (const scheme of ['light', 'dark'] as const) {
    it(`setup guide microphone, permissions (macOS, not allowed) and hotkey (questioned key, key down) (${scheme}): no violation, reachable`, async () => {
      win = await harness.open('onboarding', { colorScheme: scheme, viewport: { width: 600, height: 560 } });
      const { page } = win;
      win.onboarding.os.platform = 'darwin';
      win.onboarding.os.session = null;
      win.onboarding.os.trusted = false;
      const next = async (heading: string) => {
        await page.locator('.onboarding-footer .primary:not([disabled])').click();
        await page.getByRole('heading', { name: heading }).waitFor();
      };
      await page.locator('.choices').waitFor();
      await next('Download a speech model');
      await next('Tidy the text and learn from your corrections');
      await next('Check your microphone');
      await page.getByRole('button', { name: 'Test', exact: true }).click();
      await page.getByTestId('mic-status').getByText(/Did you hear yourself/).waitFor({ timeout: 8000 });
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkKeyboardReach(page)).toEqual(CLEAN);
      await next('Allow what Tingxie needs');
      await page.getByTestId('perm-accessibility').getByRole('button').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkKeyboardReach(page)).toEqual(CLEAN);
      await next('Choose your dictation key');
      await page.getByRole('button', { name: /Dictation key/ }).click();
      await page.keyboard.down('ShiftLeft');
      await page.keyboard.up('ShiftLeft');
      await page.getByTestId('key-verdict').waitFor();
      win.broadcast('onboarding:key', { kind: 'down', key: 'alt_r' });
      await page.getByTestId('key-test').getByText(/down/).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkKeyboardReach(page)).toEqual(CLEAN);
      expect(win.problems).toEqual([]);
    });
  }

  it('preview panel idle, recording, with notices and Retry (collapsed and expanded), and after a failed transcription: no violation in light and dark, zh and en', async () => {
    const found: string[] = [];
    const sweep = async (w: HarnessWindow, what: string, settle: () => Promise<unknown>): Promise<void> => {
      for (const lang of ['en', 'zh'] as const) {
        await setLanguage(w, lang);
        await settle();
        found.push(...(await axeBothSchemes(w.page, `${what} · ${lang}`)));
      }
      await setLanguage(w, 'en');
    };
    // The LLM fails: the preview keeps the transcript, with a notice and Retry.
    win = await harness.open('panel', {
      viewport: { width: 520, height: 260 },
      dictation: {
        transcription: () => ({ kind: 'text', text: 'hello world this is a dictation test', language: 'english' }),
        chat: () => ({ kind: 'fault', fault: { kind: 'http', status: 500, message: 'model crashed' } }),
      },
    });
    let w = win;
    await w.page.getByTestId('panel-state').waitFor();
    await sweep(w, 'panel idle', () => w.page.getByTestId('panel-state').waitFor());
    let d = w.dictation!;
    d.speak();
    await w.page.getByTestId('panel-retry').waitFor({ timeout: 10_000 });
    d.controller.press('hold');
    d.controller.release();
    d.controller.press('hold');
    d.controller.release();
    await expect.poll(() => w.page.getByTestId('panel-notices-toggle').textContent()).toBe('All 2');
    await sweep(w, 'panel preview with notices', () => w.page.getByTestId('panel-retry').waitFor());
    await w.page.getByTestId('panel-notices-toggle').click();
    await expect.poll(() => w.page.getByTestId('panel-notices-toggle').getAttribute('aria-expanded')).toBe('true');
    await sweep(w, 'panel preview, notices expanded', () => w.page.getByTestId('panel-retry').waitFor());
    found.push(...(await keyboardBothSchemes(w.page, 'panel preview')));
    expect(w.problems).toEqual([]);
    await w.close();

    // The transcription fails: error + Retry; then recording.
    win = await harness.open('panel', {
      viewport: { width: 520, height: 260 },
      dictation: {
        transcription: () => ({ kind: 'fault', fault: { kind: 'http', status: 503, message: 'speech server down' } }),
        chat: () => ({ kind: 'text', content: 'unused' }),
      },
    });
    w = win;
    d = w.dictation!;
    await w.page.getByTestId('panel-state').waitFor();
    d.speak();
    await w.page.getByTestId('panel-retry').waitFor({ timeout: 10_000 });
    await sweep(w, 'panel failed transcription', () => w.page.getByTestId('panel-retry').waitFor());
    found.push(...(await keyboardBothSchemes(w.page, 'panel failed transcription')));
    await w.page.getByTestId('panel-notices-dismiss').click();
    d.controller.press('hold');
    await expect.poll(() => w.page.getByTestId('panel').getAttribute('data-state')).toBe('recording');
    await sweep(w, 'panel recording', async () => undefined);
    d.controller.cancel();
    expect(found).toEqual([]);
    expect(w.problems).toEqual([]);
  }, 60_000);

  it('recording indicator while recording and showing an error: no violation in light and dark, zh and en', async () => {
    win = await harness.open('indicator', { viewport: INDICATOR_SIZE });
    const w = win;
    const send = (e: DictationEvent): void => w.broadcast('dictation:event', e);
    const found: string[] = [];
    send({ kind: 'state', sessionId: 's1', state: 'recording', previous: 'idle', mode: 'proofread' });
    await expect.poll(() => w.page.locator('#root').getAttribute('data-state')).toBe('recording');
    for (const lang of ['en', 'zh'] as const) {
      await setLanguage(w, lang);
      found.push(...(await axeBothSchemes(w.page, `indicator recording · ${lang}`)));
    }
    send({ kind: 'state', sessionId: 's1', state: 'idle', previous: 'recording', mode: 'proofread' });
    await w.page.setViewportSize(INDICATOR_MESSAGE_SIZE);
    send({ kind: 'notice', sessionId: 's1', level: 'error', notice: { code: 'asr-failed', reason: 'HTTP 503' } });
    await expect.poll(() => w.page.locator('#root').getAttribute('data-state')).toBe('notice');
    for (const lang of ['en', 'zh'] as const) {
      await setLanguage(w, lang);
      await expect.poll(() => w.page.locator('#root').getAttribute('data-state')).toBe('notice');
      found.push(...(await axeBothSchemes(w.page, `indicator error · ${lang}`)));
    }
    expect(found).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  it('recording indicator with live text, and the live-text switch disabled in Settings: no violation in light and dark, zh and en', async () => {
    win = await harness.open('indicator', { viewport: INDICATOR_LIVE_SIZE, configText: '{"feedback":{"live_text":true}}' });
    const w = win;
    const send = (e: DictationEvent): void => w.broadcast('dictation:event', e);
    const found: string[] = [];
    await expect.poll(() => w.page.locator('#root').getAttribute('data-live')).toBe('');
    send({ kind: 'state', sessionId: 's1', state: 'recording', previous: 'idle', mode: 'proofread' });
    send({ kind: 'partial', sessionId: 's1', text: '今天下午三点在会议室讨论 Q3 的 roadmap，然后请 Alice 把 PRD 发到群里，大家提前看一下 the onboarding flow' });
    await expect.poll(() => w.page.locator('#root').getAttribute('data-text')).toBe('');
    for (const lang of ['en', 'zh'] as const) {
      await setLanguage(w, lang);
      // The newest words fade in (200 ms): contrast is what they settle at, not a frame of the fade.
      await w.page.waitForFunction(() => document.getAnimations().every((a) => (a as CSSAnimation).animationName !== 'live-in' || a.playState === 'finished'));
      found.push(...(await axeBothSchemes(w.page, `indicator live text · ${lang}`)));
    }
    const settings = await harness.open('settings', { configText: '{"feedback":{"live_text":true},"asr":{"engine":"remote"}}' });
    for (const lang of ['en', 'zh'] as const) {
      await setLanguage(settings, lang);
      await expect.poll(() => settings.page.locator('#rec-live-text').isDisabled()).toBe(true);
      found.push(...(await axeBothSchemes(settings.page, `settings live text disabled · ${lang}`)));
    }
    expect(found).toEqual([]);
    expect(w.problems).toEqual([]);
    expect(settings.problems).toEqual([]);
  });
});
