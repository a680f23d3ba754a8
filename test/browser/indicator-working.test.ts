/**
 * The indicator while the app works on a recording (transcribing, enhancing): it must not look frozen. The
 * bars run a wave and the dot pulses; after about a second the elapsed seconds take the meter's place and
 * count up, in the UI language; leaving the working state (or a message) stops the count. At the window's
 * default size (168×40), zh and en; the pill is the same in light and dark (it is always dark).
 */
import { describe, expect, it } from 'vitest';
import type { DictationEvent } from '../../src/shared/ipc/dictation-types.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

const harness = useBrowserHarness();
const send = (w: HarnessWindow, e: DictationEvent): void => w.broadcast('dictation:event', e);
const to = (state: 'recording' | 'transcribing' | 'enhancing' | 'preview', previous: 'idle' | 'recording' | 'transcribing' | 'enhancing'): DictationEvent => ({ kind: 'state', sessionId: 's1', state, previous, mode: 'proofread' });

describe('recording indicator: the working state', () => {
  it.each([
    ['en-US', 'en', 'Transcribing', 'Enhancing', /^\d+ s$/],
    ['zh-CN', 'zh', '正在识别', '正在润色', /^\d+ 秒$/],
  ] as const)('%s: a wave and a pulse at once, the elapsed seconds after ~1 s, stopped by the next state', async (locale, lang, transcribing, enhancing, seconds) => {
    const w = await harness.open('indicator', { viewport: { width: 168, height: 40 }, locale });
    const { page } = w;
    const root = page.locator('#root');
    send(w, to('recording', 'idle'));
    send(w, to('transcribing', 'recording'));
    await expect.poll(() => page.locator('.label').textContent()).toBe(transcribing);
    // Moving at once: every bar runs the wave, the dot pulses.
    const animations = (selector: string) => page.$$eval(selector, (els) => els.map((e) => e.getAnimations().map((a) => (a as CSSAnimation).animationName).join(',')));
    expect(await animations('.meter .bar')).toEqual(Array(9).fill('wave'));
    expect(await animations('.dot')).toEqual(['pulse']);
    expect(await root.getAttribute('data-elapsed')).toBeNull();
    await saveScreenshot(page, `indicator-working-${lang}`);
    // After a second the count replaces the meter.
    await expect.poll(() => root.getAttribute('data-elapsed'), { timeout: 2500 }).toBe('');
    await expect.poll(() => page.locator('.elapsed').textContent()).toMatch(seconds);
    expect(await page.locator('.meter').isVisible()).toBe(false);
    await expect.poll(() => page.locator('.elapsed').textContent(), { timeout: 3000 }).toMatch(/^2/);
    await saveScreenshot(page, `indicator-working-elapsed-${lang}`);
    // Enhancing starts its own count.
    send(w, to('enhancing', 'transcribing'));
    await expect.poll(() => page.locator('.label').textContent()).toBe(enhancing);
    await expect.poll(() => root.getAttribute('data-elapsed')).toBeNull();
    // The preview is not work: no count, no wave.
    send(w, to('preview', 'enhancing'));
    await expect.poll(() => root.getAttribute('data-state')).toBe('preview');
    await page.waitForTimeout(1300);
    expect(await root.getAttribute('data-elapsed')).toBeNull();
    expect(await page.$$eval('.meter .bar', (bars) => bars.flatMap((b) => b.getAnimations()).length)).toBe(0);
    // Nothing is cut at the default size.
    const fits = await page.$eval('.indicator', (el) => el.scrollWidth <= el.clientWidth);
    expect(fits).toBe(true);
    expect(w.problems).toEqual([]);
  });
});
