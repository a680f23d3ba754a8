import { describe, expect, it } from 'vitest';
import {
  INDICATOR_LIVE_SIZE,
  INDICATOR_MESSAGE_MS,
  INDICATOR_MESSAGE_SIZE,
  INDICATOR_SIZE,
  IndicatorWindow,
  type IndicatorSettings,
  type IndicatorWindowPort,
} from '../../../../src/main/app/indicator-window.ts';

/** A window that records what the rules did to it. */
function fakeWindow(): IndicatorWindowPort & { readonly calls: string[]; size: [number, number]; visible: boolean } {
  const w = {
    calls: [] as string[],
    size: [0, 0] as [number, number],
    visible: false,
    isVisible: () => w.visible,
    getSize: () => [...w.size],
    setSize: (width: number, height: number) => {
      w.size = [width, height];
      w.calls.push(`size ${width}×${height}`);
    },
    setPosition: (x: number, y: number) => w.calls.push(`at ${x},${y}`),
    showInactive: () => {
      w.visible = true;
      w.calls.push('show');
    },
    hide: () => {
      w.visible = false;
      w.calls.push('hide');
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
    // Bottom centre of a 1000×800 work area, 48 px up: a taller window grows upwards.
    place: ({ width, height }) => ({ x: (1000 - width) / 2, y: 800 - height - 48 }),
    timers: {
      setTimeout: (fn, ms) => timers.push({ fn, ms }),
      clearTimeout: () => undefined,
    },
  });
  return { w, timers, indicator, set: (next: Partial<IndicatorSettings>) => (s = { ...s, ...next }) };
}

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
    expect(688 + INDICATOR_LIVE_SIZE.height).toBe(712 + INDICATOR_SIZE.height);
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
    expect(timers[0]?.ms).toBe(INDICATOR_MESSAGE_MS);
    timers[0]?.fn();
    expect(w.size).toEqual([INDICATOR_LIVE_SIZE.width, INDICATOR_LIVE_SIZE.height]);
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
