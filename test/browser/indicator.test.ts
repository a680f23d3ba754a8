import { describe, expect, it } from 'vitest';
import type { DictationEvent } from '../../src/shared/ipc/dictation-types.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';

/**
 * The built recording indicator (out/renderer/indicator) in real Chromium, fed `dictation:event`s through
 * the real IPC broadcaster and preload bridge, as main feeds it during a dictation.
 */

const harness = useBrowserHarness();
let win: HarnessWindow | undefined;

const send = (w: HarnessWindow, e: DictationEvent): void => w.broadcast('dictation:event', e);
const state = (s: 'idle' | 'recording' | 'transcribing', previous: 'idle' | 'recording'): DictationEvent => ({ kind: 'state', sessionId: 's1', state: s, previous, mode: 'proofread' });

/**
 * Rendered heights (px) of the meter's bars once their 60 ms transitions have ended. The transitions
 * are finished by hand: headless Chromium without a GPU never gives a composited transform animation
 * its start time, so it would stay at its first frame forever.
 */
async function barHeights(w: HarnessWindow): Promise<number[]> {
  return w.page.$$eval('.meter .bar', (bars) =>
    bars.map((b) => {
      for (const a of b.getAnimations()) a.finish();
      return b.getBoundingClientRect().height;
    }),
  );
}

describe('recording indicator', () => {
  it('shows the state, and the level meter follows the level events (up fast, down slower)', async () => {
    win = await harness.open('indicator', { viewport: { width: 168, height: 40 } });
    const w = win;
    const root = w.page.locator('#root');
    await expect.poll(() => root.getAttribute('data-state')).toBe('idle');
    expect(await w.page.locator('.meter .bar').count()).toBe(9);
    const quiet = await barHeights(w);

    send(w, state('recording', 'idle'));
    await expect.poll(() => root.getAttribute('data-state')).toBe('recording');
    expect(await w.page.locator('.label').textContent()).toBe('Listening');

    send(w, { kind: 'level', sessionId: 's1', level: 0.8 });
    await expect.poll(() => w.page.locator('.meter').getAttribute('aria-valuenow')).toBe('0.80');
    // The middle bar grows on screen, well past its resting height.
    await expect.poll(async () => (await barHeights(w))[4]).toBeGreaterThan(quiet[4]! * 4);
    const loud = await barHeights(w);
    expect(loud[4]).toBeGreaterThan(loud[0]!); // middle bars tallest

    // Release: the meter falls back, smoothed rather than at once.
    send(w, { kind: 'level', sessionId: 's1', level: 0 });
    await expect.poll(() => w.page.locator('.meter').getAttribute('aria-valuenow')).toBe('0.56');
    for (let i = 0; i < 12; i++) send(w, { kind: 'level', sessionId: 's1', level: 0 });
    await expect.poll(() => w.page.locator('.meter').getAttribute('aria-valuenow')).toBe('0.01');
    await expect.poll(async () => (await barHeights(w))[4]).toBeLessThan(loud[4]! / 2);

    // Out of range levels are clamped; leaving recording resets the meter for the next session.
    send(w, { kind: 'level', sessionId: 's1', level: 7 });
    await expect.poll(() => w.page.locator('.meter').getAttribute('aria-valuenow')).toBe('1.00');
    send(w, state('transcribing', 'recording'));
    await expect.poll(() => root.getAttribute('data-state')).toBe('transcribing');
    expect(await w.page.locator('.label').textContent()).toBe('Transcribing');
    send(w, { kind: 'level', sessionId: 's1', level: 0.1 });
    await expect.poll(() => w.page.locator('.meter').getAttribute('aria-valuenow')).toBe('0.10');

    // A start sound request plays the bundled WAV (media-src 'self'): no CSP violation, no error.
    w.broadcast('dictation:sound', { which: 'start', volume: 0.5 });
    await w.page.waitForTimeout(200);
    expect(w.problems).toEqual([]);
  });

  it('speaks the UI language (system zh-CN here) and follows a change of the setting', async () => {
    win = await harness.open('indicator', { viewport: { width: 168, height: 40 }, locale: 'zh-CN' });
    const w = win;
    const label = w.page.locator('.label');
    send(w, state('recording', 'idle'));
    await expect.poll(() => label.textContent()).toBe('正在聆听');
    send(w, state('transcribing', 'recording'));
    await expect.poll(() => label.textContent()).toBe('正在识别');
    await w.configStore.set('ui.language', 'en');
    await expect.poll(() => label.textContent()).toBe('Transcribing');
    expect(w.problems).toEqual([]);
  });
});
