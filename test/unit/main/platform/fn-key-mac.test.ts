/**
 * The macOS fn/Globe watcher at its seam: the pure per-event decision, the watcher over a fake
 * CGEventTap/run-loop binding (what macOS sends: flags-changed events, and "tap disabled" when it
 * times a tap out), and the real koffi on this OS checking the C declarations parse. Only a Mac runs
 * the tap itself.
 */
import { createRequire } from 'node:module';
import type * as KoffiModule from 'koffi';
import { describe, expect, it } from 'vitest';
import { fnChange, MAC, MAC_DECLARATIONS, startFnWatcher, watchFn, type MacEventTaps } from '../../../../src/main/platform/fn-key-mac.ts';

const FN = 0x3f;
const FLAGS_FN = MAC.FLAG_SECONDARY_FN;

describe('fnChange: what one tapped event means for fn', () => {
  it('fn down and up are flags-changed events of kVK_Function (or the Globe key) with SecondaryFn set / cleared', () => {
    expect(fnChange(MAC.FLAGS_CHANGED, FN, FLAGS_FN | 0x100n, false)).toBe('down');
    expect(fnChange(MAC.FLAGS_CHANGED, FN, 0x100n, true)).toBe('up');
    expect(fnChange(MAC.FLAGS_CHANGED, 0xb3, FLAGS_FN, false)).toBe('down');
  });

  it('no change, other modifiers, or other keys carrying the fn flag (arrows) are nothing', () => {
    expect(fnChange(MAC.FLAGS_CHANGED, FN, FLAGS_FN, true)).toBeNull();
    expect(fnChange(MAC.FLAGS_CHANGED, 0x3a /* Option */, 0x80000n | FLAGS_FN, false)).toBeNull();
    expect(fnChange(10 /* key down */, 0x7b, FLAGS_FN, false)).toBeNull();
  });

  it('a tap macOS disabled (slow callback, user input) is re-enabled', () => {
    expect(fnChange(MAC.TAP_DISABLED_BY_TIMEOUT, 0, 0n, false)).toBe('reenable');
    expect(fnChange(MAC.TAP_DISABLED_BY_USER_INPUT, 0, 0n, true)).toBe('reenable');
  });
});

function fakeTaps(opts: { refuse?: boolean } = {}) {
  let callback: ((type: number, event: bigint) => void) | null = null;
  const events = new Map<bigint, { keycode: number; flags: bigint }>();
  const calls: string[] = [];
  let next = 1000n;
  const taps: MacEventTaps = {
    createFlagsTap(cb) {
      if (opts.refuse) return null;
      callback = cb;
      return 1n;
    },
    keycodeOf: (e) => events.get(e)?.keycode ?? -1,
    flagsOf: (e) => events.get(e)?.flags ?? 0n,
    enable: (tap, on) => void calls.push(`enable(${tap},${on})`),
    addToMainRunLoop: (tap) => (calls.push(`add(${tap})`), 2n),
    remove: (tap, source) => void calls.push(`remove(${tap},${source})`),
  };
  const send = (type: number, keycode = 0, flags = 0n): void => {
    const id = next++;
    events.set(id, { keycode, flags });
    callback?.(type, id);
  };
  return { taps, calls, send };
}

describe('watchFn over the CGEventTap seam', () => {
  it('reports fn down and up once each, re-enables a timed-out tap, and removes the tap on stop', () => {
    const f = fakeTaps();
    const started = watchFn(f.taps);
    if (!started.ok) throw new Error(started.reason);
    const seen: boolean[] = [];
    started.watcher.onChange((d) => seen.push(d));
    expect(f.calls).toEqual(['add(1)', 'enable(1,true)']);
    f.send(MAC.FLAGS_CHANGED, FN, FLAGS_FN);
    f.send(MAC.FLAGS_CHANGED, FN, FLAGS_FN); // repeated flags: no second "down"
    f.send(MAC.TAP_DISABLED_BY_TIMEOUT);
    f.send(MAC.FLAGS_CHANGED, FN, 0n);
    expect(seen).toEqual([true, false]);
    expect(f.calls).toContain('enable(1,true)');
    started.watcher.stop();
    expect(f.calls.slice(-2)).toEqual(['enable(1,false)', 'remove(1,2)']);
  });

  it('a refused tap (no Accessibility / Input Monitoring permission) says what to allow', () => {
    expect(watchFn(fakeTaps({ refuse: true }).taps)).toEqual({ ok: false, reason: expect.stringMatching(/Accessibility and Input Monitoring/) });
  });

  it('elsewhere than macOS, or when the binding cannot load, fn is refused with the reason', () => {
    expect(startFnWatcher('linux')).toEqual({ ok: false, reason: expect.stringMatching(/only be watched on macOS/) });
    expect(startFnWatcher('darwin', () => {
      throw new Error('koffi missing');
    })).toEqual({ ok: false, reason: expect.stringMatching(/koffi missing/) });
  });

  it('every CoreGraphics/CoreFoundation declaration parses as a C prototype (checked with the real koffi)', () => {
    const koffi = createRequire(import.meta.url)('koffi') as typeof KoffiModule;
    koffi.proto(MAC_DECLARATIONS.callback);
    for (const [name, decl] of Object.entries(MAC_DECLARATIONS)) {
      if (name !== 'callback') expect(() => koffi.proto(decl), decl).not.toThrow();
    }
  });
});
