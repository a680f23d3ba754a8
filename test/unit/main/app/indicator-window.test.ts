import { describe, expect, it } from 'vitest';
import {
  INDICATOR_LIVE_SIZE,
  INDICATOR_MESSAGE_MS,
  INDICATOR_MESSAGE_SIZE,
  INDICATOR_RETRY_MS,
  INDICATOR_SIZE,
  IndicatorWindow,
  indicatorPosition,
  type IndicatorSettings,
  type IndicatorWindowPort,
} from '../../../../src/main/app/indicator-window.ts';

/** A window that records what the rules did to it. */
function fakeWindow(): IndicatorWindowPort & { readonly calls: string[]; size: [number, number]; at: [number, number]; visible: boolean } {
  const w = {
    calls: [] as string[],
    size: [0, 0] as [number, number],
    at: [0, 0] as [number, number],
    visible: false,
    isVisible: () => w.visible,
    getSize: () => [...w.size],
    setSize: (width: number, height: number) => {
      w.size = [width, height];
      w.calls.push(`size ${width}×${height}`);
    },
    setPosition: (x: number, y: number) => {
      w.at = [x, y];
      w.calls.push(`at ${x},${y}`);
    },
    showInactive: () => {
      w.visible = true;
      w.calls.push('show');
    },
    hide: () => {
      w.visible = false;
      w.calls.push('hide');
    },
    setIgnoreMouseEvents: (ignore: boolean) => {
      w.calls.push(ignore ? 'click-through' : 'clickable');
    },
  };
  return w;
}

function setup(settings: Partial<IndicatorSettings>) {
  const w = fakeWindow();
  const timers: { fn: () => void; ms: number }[] = [];
  let s: IndicatorSettings = { visual_indicator: true, preview: true, preview_on_failure: false, live_text: false, ...settings };
  const indicator = new IndicatorWindow({
    window: () => w,
    settings: () => s,
    // The app's placement (src/main/app/dictation-app.ts passes it the pointer's work area), on a 1000×800 one.
    place: (size) => indicatorPosition({ x: 0, y: 0, width: 1000, height: 800 }, size),
    timers: {
      setTimeout: (fn, ms) => timers.push({ fn, ms }),
      clearTimeout: () => undefined,
    },
  });
  return { w, timers, indicator, set: (next: Partial<IndicatorSettings>) => (s = { ...s, ...next }) };
}

/** The bottom edge and the horizontal centre of the window as the rules left it. */
const anchorOf = (w: ReturnType<typeof fakeWindow>): { bottom: number; centre: number } => ({ bottom: w.at[1] + w.size[1], centre: w.at[0] + w.size[0] / 2 });

describe('indicatorPosition: bottom centre of the work area', () => {
  it('every size the indicator takes keeps the same bottom edge and centre, 48 DIPs up, on any display', () => {
    for (const area of [
      { x: 0, y: 0, width: 1000, height: 800 },
      { x: -1920, y: 0, width: 1920, height: 1040 }, // a display left of the primary one
      { x: 1280, y: 25.5, width: 1365.33, height: 742.67 }, // scaled: fractional DIPs
    ]) {
      const anchors = [INDICATOR_SIZE, INDICATOR_LIVE_SIZE, INDICATOR_MESSAGE_SIZE].map((size) => {
        const at = indicatorPosition(area, size);
        expect(Number.isInteger(at.x) && Number.isInteger(at.y), JSON.stringify(at)).toBe(true);
        return { bottom: at.y + size.height, centre: at.x + size.width / 2 };
      });
      // Within the half DIP that rounding to whole DIPs moves it.
      for (const a of anchors) {
        expect(Math.abs(a.bottom - (area.y + area.height - 48))).toBeLessThanOrEqual(0.5);
        expect(Math.abs(a.centre - (area.x + area.width / 2))).toBeLessThanOrEqual(0.5);
      }
      expect(new Set(anchors.map((a) => a.bottom)).size).toBe(1);
    }
  });
});

describe('indicator window: size and place', () => {
  it('live text off: the small pill while recording, exactly as before', () => {
    const { w, indicator } = setup({});
    indicator.stateChanged('recording');
    expect(w.calls).toEqual([`size ${INDICATOR_SIZE.width}×${INDICATOR_SIZE.height}`, 'at 416,712', 'show']);
  });

  it('live text on: the two-line size from the start of recording, kept while transcribing (nothing moves when text comes), bottom edge where it was', () => {
    const { w, indicator } = setup({ live_text: true });
    indicator.stateChanged('recording');
    expect(w.calls).toEqual([`size ${INDICATOR_LIVE_SIZE.width}×${INDICATOR_LIVE_SIZE.height}`, 'at 300,688', 'show']);
    // Where the small pill of a session without live text sits: the window is placed for the size it is given.
    const pill = setup({});
    pill.indicator.stateChanged('recording');
    expect(pill.w.size).toEqual([INDICATOR_SIZE.width, INDICATOR_SIZE.height]);
    expect(anchorOf(w)).toEqual(anchorOf(pill.w));
    indicator.stateChanged('transcribing');
    expect(w.calls).toHaveLength(3);
    indicator.stateChanged('idle');
    expect(w.calls.at(-1)).toBe('hide');
  });

  it('a message after a live session uses the message size, then the live size comes back if still recording', () => {
    const { w, timers, indicator } = setup({ live_text: true, preview: false });
    indicator.stateChanged('recording');
    indicator.notice({ code: 'asr-failed', reason: 'HTTP 503' });
    expect(w.size).toEqual([INDICATOR_MESSAGE_SIZE.width, INDICATOR_MESSAGE_SIZE.height]);
    // A failed transcription without the panel: the message has a Retry button, so it stays longer.
    expect(timers[0]?.ms).toBe(INDICATOR_RETRY_MS);
    timers[0]?.fn();
    expect(w.size).toEqual([INDICATOR_LIVE_SIZE.width, INDICATOR_LIVE_SIZE.height]);
  });

  it('takes clicks only while a message with Retry shows (a failed transcription, no panel), click-through again after', () => {
    const { w, timers, indicator } = setup({ preview: false });
    indicator.notice({ code: 'asr-failed', reason: 'HTTP 503' });
    expect(w.calls.filter((c) => c === 'clickable' || c === 'click-through')).toEqual(['clickable']);
    timers[0]?.fn();
    expect(w.calls.at(-2)).toBe('click-through');
    expect(w.calls.at(-1)).toBe('hide');
    // A message without Retry (paste failed) keeps the window click-through and the usual time.
    const before = w.calls.length;
    indicator.notice({ code: 'paste-failed', reason: 'no focus', app: null });
    expect(w.calls.slice(before)).not.toContain('clickable');
    expect(timers[1]?.ms).toBe(INDICATOR_MESSAGE_MS);
  });

  it('with the panel showing failures (preview on) the indicator offers no Retry and stays click-through', () => {
    const { w, timers, indicator } = setup({ preview: true });
    indicator.notice({ code: 'asr-failed', reason: 'HTTP 503' });
    expect(w.calls).not.toContain('clickable');
    expect(timers[0]?.ms ?? INDICATOR_MESSAGE_MS).toBe(INDICATOR_MESSAGE_MS);
  });

  it('follows a change of the setting at the next dictation', () => {
    const { w, indicator, set } = setup({ live_text: true });
    indicator.stateChanged('recording');
    indicator.stateChanged('idle');
    set({ live_text: false });
    indicator.stateChanged('recording');
    expect(w.size).toEqual([INDICATOR_SIZE.width, INDICATOR_SIZE.height]);
  });
});
