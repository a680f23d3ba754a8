/**
 * Accessibility basics of every window, in real Chromium: axe-core's WCAG 2 A/AA rules find no
 * violation, every enabled control can be reached with Tab, and a focused control shows a visible focus
 * indicator. axe is evaluated through the DevTools protocol, which the page's strict CSP does not block.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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
async function checkKeyboardReach(page: Page): Promise<{ unreached: string[]; noFocusRing: string[] }> {
  // Number the controls once (a data attribute), so a control is recognised however its markup changes.
  const count = await page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])')]
      .filter((el) => !(el as HTMLButtonElement).disabled && el.offsetParent !== null && el.getAttribute('aria-hidden') !== 'true');
    controls.forEach((el, i) => el.setAttribute('data-a11y-idx', String(i)));
    (document.activeElement as HTMLElement | null)?.blur();
    return controls.length;
  });
  const reached = new Set<number>();
  const noFocusRing = new Set<number>();
  for (let i = 0; i < count * 2 + 5; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const idx = el?.closest('[data-a11y-idx]')?.getAttribute('data-a11y-idx');
      if (el === null || idx === null || idx === undefined) return null;
      const style = getComputedStyle(el);
      const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      return { idx: Number(idx), ring };
    });
    if (focused === null) continue;
    reached.add(focused.idx);
    if (!focused.ring) noFocusRing.add(focused.idx);
  }
  // Members of a roving group (tabs, a listbox's options) are reached with the arrow keys once the group is.
  return page.evaluate(
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
}

describe('accessibility basics', () => {
  for (const section of ['General', 'Audio', 'Speech', 'AI', 'Vocabulary', 'History & privacy']) {
    it(`settings › ${section}: no WCAG A/AA violation, every control reachable by Tab with a visible focus ring`, async () => {
      win = await harness.open('settings');
      await win.page.getByRole('tab', { name: section }).click();
      await win.page.getByRole('tabpanel').waitFor();
      expect(await axeViolations(win.page)).toEqual([]);
      expect(await checkKeyboardReach(win.page)).toEqual({ unreached: [], noFocusRing: [] });
      expect(win.problems).toEqual([]);
    });
  }

  it('history browser with records, and the usage view: no violation, keyboard reach, focus rings', async () => {
    win = await harness.open('history');
    for (let i = 0; i < 3; i++) {
      await win.history.log({
        asr_text: `果果今天在公园里遇到了平平 ${i}`, enhanced_text: null, final_text: `果果今天在公园里遇到了萍萍 ${i}`,
        enhance_mode: 'proofread', preview_enabled: true, stt_model: 'whisper-base', llm_model: 'qwen2.5:7b',
        user_corrected: true, audio_duration: 2.5, language: 'zh', source: 'voice', timestamp: new Date().toISOString(),
      });
    }
    await win.page.getByText('果果今天在公园里遇到了萍萍 2').first().waitFor();
    expect(await axeViolations(win.page)).toEqual([]);
    expect(await checkKeyboardReach(win.page)).toEqual({ unreached: [], noFocusRing: [] });
    await win.page.getByRole('tab', { name: 'Usage' }).click();
    await win.page.getByRole('tabpanel').waitFor();
    expect(await axeViolations(win.page)).toEqual([]);
    expect(win.problems).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`onboarding (${scheme}): every step has no violation; controls reachable with a focus ring`, async () => {
      win = await harness.open('onboarding', { speechModelInstalled: false, colorScheme: scheme, viewport: { width: 600, height: 560 } });
      const { page } = win;
      await page.getByRole('radio', { name: /On this computer/ }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkKeyboardReach(page)).toEqual({ unreached: [], noFocusRing: [] });
      await page.getByRole('button', { name: 'Next' }).click();
      await page.locator('.model-card').first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkKeyboardReach(page)).toEqual({ unreached: [], noFocusRing: [] });
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('radio', { name: /With a cloud provider/ }).check();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Provider').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkKeyboardReach(page)).toEqual({ unreached: [], noFocusRing: [] });
      expect(win.problems).toEqual([]);
    });
  }

  it('preview panel (idle): no violation', async () => {
    win = await harness.open('panel');
    await win.page.getByTestId('panel-state').waitFor();
    expect(await axeViolations(win.page)).toEqual([]);
    expect(win.problems).toEqual([]);
  });
});
