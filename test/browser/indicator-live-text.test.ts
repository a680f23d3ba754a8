import { describe, expect, it } from 'vitest';
import { INDICATOR_LIVE_SIZE, INDICATOR_SIZE } from '../../src/main/app/indicator-window.ts';
import type { DictationEvent } from '../../src/shared/ipc/dictation-types.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { layoutProblems } from '../helpers/layout-check.ts';

/**
 * The recording indicator's live text (`feedback.live_text`) in real Chromium, fed `dictation:event`s
 * through the real IPC broadcaster and preload bridge, at the size main gives the window for it: the tail
 * of the text so far is what shows, long mixed Chinese/English text never leaves its two lines or the
 * window, nothing around the text moves when it arrives, other sessions' text is ignored, a new session
 * starts empty, and with the setting off (or nothing to decode while speaking) it is not there at all.
 */

const harness = useBrowserHarness();

const send = (w: HarnessWindow, e: DictationEvent): void => w.broadcast('dictation:event', e);
const state = (sessionId: string, s: 'idle' | 'recording' | 'transcribing', previous: 'idle' | 'recording' | 'transcribing'): DictationEvent => ({
  kind: 'state',
  sessionId,
  state: s,
  previous,
  mode: 'proofread',
});
const partial = (sessionId: string, text: string): DictationEvent => ({ kind: 'partial', sessionId, text });

/** What a person sees of the live text: its visible characters, and where its lines are. */
async function liveView(w: HarnessWindow): Promise<{ shown: boolean; text: string; lines: number; box: DOMRect | null; inWindow: boolean }> {
  return w.page.evaluate(() => {
    const box = document.querySelector<HTMLElement>('.live');
    const line = document.querySelector<HTMLElement>('.live-text');
    if (box === null || line === null || getComputedStyle(box).display === 'none') return { shown: false, text: '', lines: 0, box: null, inWindow: true };
    // The fade-in finished by hand: headless Chromium without a GPU may never start it.
    for (const a of box.getAnimations({ subtree: true })) a.finish();
    const r = line.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const lh = parseFloat(getComputedStyle(line).lineHeight);
    return {
      shown: true,
      text: line.textContent ?? '',
      lines: Math.round(r.height / lh),
      box: b.toJSON() as DOMRect,
      // Inside its box and the window: nothing clipped, nothing spilling over the meter.
      inWindow: r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5 && r.left >= b.left - 0.5 && r.right <= b.right + 0.5 && r.right <= innerWidth && r.bottom <= innerHeight,
    };
  });
}

/** Where the indicator's fixed parts are (they must not move when text arrives). */
async function frame(w: HarnessWindow): Promise<Record<string, { x: number; y: number; w: number; h: number }>> {
  return w.page.evaluate(() => {
    const out: Record<string, { x: number; y: number; w: number; h: number }> = {};
    for (const sel of ['#root', '.dot', '.meter']) {
      const r = document.querySelector(sel)!.getBoundingClientRect();
      out[sel] = { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) };
    }
    return out;
  });
}

const LONG_ZH =
  '今天下午三点我们在会议室讨论一下 Q3 的 roadmap，主要是 onboarding 流程和 API rate limit 的问题，然后请 Alice 把 PRD 发到群里，' +
  '大家提前看一下，有问题直接在 Notion 里评论就可以了，最后记得把 staging 环境的 deploy 时间定下来';
const LONG_EN =
  'Let us meet at three this afternoon to go over the Q3 roadmap, mainly the onboarding flow and the API rate limits, ' +
  'then Alice will share the PRD in the group chat so everyone can read it before the meeting and comment in Notion';

describe('recording indicator: live text', () => {
  it('shows the tail of the text so far in two lines, without moving anything; other sessions are ignored; a new session starts empty', async () => {
    const w = await harness.open('indicator', { viewport: INDICATOR_LIVE_SIZE, configText: '{"feedback":{"live_text":true}}' });
    const root = w.page.locator('#root');
    await expect.poll(() => root.getAttribute('data-live')).toBe('');
    send(w, state('s1', 'recording', 'idle'));
    await expect.poll(() => root.getAttribute('data-state')).toBe('recording');
    // Before any words: the label, as without live text.
    expect(await w.page.locator('.label').isVisible()).toBe(true);
    expect((await liveView(w)).shown).toBe(false);
    const before = await frame(w);

    send(w, partial('s1', '你好'));
    await expect.poll(async () => (await liveView(w)).text).toBe('你好');
    expect(await root.getAttribute('data-text')).toBe('');
    // The label steps aside for the eye but stays for screen readers.
    expect(await w.page.locator('.label').getAttribute('class')).toContain('sr-only');
    expect(await w.page.locator('.label').textContent()).toBe('Listening');
    expect(await frame(w)).toEqual(before);
    // The first words fade in too (the box appearing does not cut the fade short).
    await w.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await w.page.locator('.live-new').getAttribute('class')).toBe('live-new live-fade');
    // The words a partial adds are set apart (they fade in, then stay brighter than the older ones).
    send(w, partial('s1', '你好，世界'));
    await expect.poll(async () => (await liveView(w)).text).toBe('你好，世界');
    expect(await w.page.locator('.live-new').textContent()).toBe('，世界');
    expect(await w.page.locator('.live-new').evaluate((el) => getComputedStyle(el).animationName)).toBe('live-in');
    const oneLine = await liveView(w);
    expect(oneLine.lines).toBe(1);
    // With reduced motion the words just appear.
    await w.page.emulateMedia({ reducedMotion: 'reduce' });
    send(w, partial('s1', '你好，世界。'));
    await expect.poll(() => w.page.locator('.live-new').textContent()).toBe('。');
    expect(await w.page.locator('.live-new').evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    await w.page.emulateMedia({ reducedMotion: 'no-preference' });

    // The text grows (whole text each time); the box does not move, and the latest words stay in view.
    send(w, partial('s1', LONG_ZH.slice(0, 40)));
    await expect.poll(async () => (await liveView(w)).text.endsWith(LONG_ZH.slice(30, 40))).toBe(true);
    send(w, partial('s1', LONG_ZH));
    await expect.poll(async () => (await liveView(w)).text.endsWith('deploy 时间定下来')).toBe(true);
    const long = await liveView(w);
    // Cut before a word, never before a comma or inside a word.
    expect(long.text).toMatch(/^…[\p{L}\p{N}]/u);
    expect(long.text.length).toBeLessThan(LONG_ZH.length);
    expect(long.lines).toBe(2);
    expect(long.inWindow).toBe(true);
    expect(long.box).toEqual(oneLine.box);
    expect(await frame(w)).toEqual(before);
    const fresh = (await w.page.locator('.live-new').textContent()) ?? '';
    expect(fresh.length).toBeGreaterThan(0);
    expect(LONG_ZH.slice(40).endsWith(fresh)).toBe(true);
    expect(await layoutProblems(w.page)).toEqual([]);

    // Another session's text is ignored.
    send(w, partial('other', 'not this one'));
    await w.page.waitForTimeout(100);
    expect((await liveView(w)).text).toBe(long.text);

    // The last stretch may finish while transcribing: still shown, still the tail.
    send(w, state('s1', 'transcribing', 'recording'));
    send(w, partial('s1', `${LONG_ZH}。好的`));
    await expect.poll(async () => (await liveView(w)).text.endsWith('定下来。好的')).toBe(true);
    expect((await liveView(w)).inWindow).toBe(true);

    // The session ends, a new one starts: empty, the label back until its first words.
    send(w, state('s1', 'idle', 'transcribing'));
    send(w, state('s2', 'recording', 'idle'));
    await expect.poll(async () => (await liveView(w)).shown).toBe(false);
    expect(await w.page.locator('.label').isVisible()).toBe(true);
    expect(await w.page.locator('.label').textContent()).toBe('Listening');
    send(w, partial('s1', 'late words of the old session'));
    await w.page.waitForTimeout(100);
    expect((await liveView(w)).shown).toBe(false);
    // A word revised as more audio came lights up whole.
    send(w, partial('s2', 'Let us me'));
    send(w, partial('s2', 'Let us meet at three'));
    await expect.poll(() => w.page.locator('.live-new').textContent()).toBe('meet at three');
    // Latin text is cut at a word, never inside one.
    send(w, partial('s2', LONG_EN));
    await expect.poll(async () => (await liveView(w)).text.endsWith('comment in Notion')).toBe(true);
    const en = await liveView(w);
    expect(en.lines).toBe(2);
    expect(en.inWindow).toBe(true);
    const tail = en.text.slice(1);
    expect(LONG_EN.endsWith(tail)).toBe(true);
    expect(LONG_EN.at(LONG_EN.length - tail.length - 1)).toBe(' ');
    // A single "word" longer than two lines (a URL) is cut by characters and still fits.
    send(w, partial('s2', `${LONG_EN} https://example.com/${'a'.repeat(120)}/end`));
    await expect.poll(async () => (await liveView(w)).text.endsWith('/end')).toBe(true);
    expect((await liveView(w)).inWindow).toBe(true);
    expect(await layoutProblems(w.page)).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  it('is not there when off, when the indicator is off, or when nothing decodes while speaking (remote engine, decoding off)', async () => {
    const w = await harness.open('indicator', { viewport: INDICATOR_SIZE });
    const root = w.page.locator('#root');
    send(w, state('s1', 'recording', 'idle'));
    await expect.poll(() => root.getAttribute('data-state')).toBe('recording');
    send(w, partial('s1', '你好 world'));
    await w.page.waitForTimeout(150);
    // Off (the default): exactly the indicator as before — dot, label, meter; no live attribute.
    expect(await root.getAttribute('data-live')).toBeNull();
    expect((await liveView(w)).shown).toBe(false);
    expect(await w.page.locator('.label').textContent()).toBe('Listening');
    expect(await w.page.locator('.label').isVisible()).toBe(true);

    // On: the text that came is shown (the setting can change mid-dictation).
    await w.configStore.set('feedback.live_text', true);
    await expect.poll(async () => (await liveView(w)).text).toBe('你好 world');
    // Even in the small window (main gives the live size at the next dictation), and refitted when it grows.
    expect((await liveView(w)).inWindow).toBe(true);
    send(w, partial('s1', `你好 world ${'再说一句很长的话'.repeat(6)}结束`));
    await expect.poll(async () => (await liveView(w)).text.endsWith('结束')).toBe(true);
    expect((await liveView(w)).inWindow).toBe(true);
    const small = (await liveView(w)).text;
    await w.page.setViewportSize(INDICATOR_LIVE_SIZE);
    await expect.poll(async () => (await liveView(w)).text.length).toBeGreaterThan(small.length);
    expect((await liveView(w)).inWindow).toBe(true);
    for (const [key, value] of [
      ['asr.engine', 'remote'],
      ['asr.local.decode_while_speaking', false],
      ['feedback.visual_indicator', false],
    ] as const) {
      await w.configStore.set(key, value);
      await expect.poll(() => root.getAttribute('data-live')).toBeNull();
      expect((await liveView(w)).shown).toBe(false);
      expect(await w.page.locator('.label').isVisible()).toBe(true);
      await w.configStore.set(key, key === 'asr.engine' ? 'local' : true);
      await expect.poll(async () => (await liveView(w)).shown).toBe(true);
    }
    expect(w.problems).toEqual([]);
  });

  it('screenshots at its default size, Chinese and English, light and dark: readable, nothing clipped', async () => {
    const w = await harness.open('indicator', { viewport: INDICATOR_LIVE_SIZE, configText: '{"feedback":{"live_text":true}}' });
    const root = w.page.locator('#root');
    await expect.poll(() => root.getAttribute('data-live')).toBe('');
    for (const [lang, text] of [
      ['zh', LONG_ZH],
      ['en', LONG_EN],
    ] as const) {
      await w.configStore.set('ui.language', lang);
      await expect.poll(() => w.page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : 'en');
      send(w, state(`s-${lang}`, 'recording', 'idle'));
      send(w, { kind: 'level', sessionId: `s-${lang}`, level: 0.6 });
      send(w, partial(`s-${lang}`, text.slice(0, text.length - 12)));
      send(w, partial(`s-${lang}`, text));
      await expect.poll(async () => (await liveView(w)).text.endsWith(text.slice(-8))).toBe(true);
      for (const scheme of ['light', 'dark'] as const) {
        await w.page.emulateMedia({ colorScheme: scheme });
        await w.page.evaluate(() => {
          // The fade-in and the meter's transitions, finished by hand (headless Chromium may never run them).
          for (const a of document.getAnimations()) if (a.effect?.getComputedTiming().endTime !== Infinity) a.finish();
        });
        expect(await layoutProblems(w.page)).toEqual([]);
        await saveScreenshot(w.page, scheme === 'light' ? `indicator-live-text-${lang}` : `indicator-live-text-${lang}-${scheme}`);
      }
      send(w, state(`s-${lang}`, 'idle', 'recording'));
    }
    expect(w.problems).toEqual([]);
  });
});
