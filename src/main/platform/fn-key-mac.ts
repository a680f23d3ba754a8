/**
 * The macOS fn/Globe key as a hold key. It sends no key-down/key-up: macOS reports it only as a
 * flags-changed event (keycode kVK_Function, the SecondaryFn flag set while it is down), and uiohook's
 * macOS hook ignores that keycode. So a listen-only CGEventTap for flags-changed events is created here
 * through koffi (CoreGraphics and CoreFoundation are plain C) and added to the main run loop, which
 * Electron's main thread runs. It needs the same Accessibility / Input Monitoring permission as the
 * hook; it cannot stop macOS's own fn action, so docs/user/dictating.md asks users who hold fn to set
 * "Press 🌐 key to: Do Nothing". The decision per event is pure (`fnChange`) and unit-tested; the
 * native part only runs on macOS.
 */
import { createRequire } from 'node:module';

/** What the watcher reports: fn went down or up. */
export interface FnWatcher {
  onChange(listener: (down: boolean) => void): void;
  stop(): void;
}

/** Outcome of starting the watcher. */
export type FnWatcherStart = { readonly ok: true; readonly watcher: FnWatcher } | { readonly ok: false; readonly reason: string };

/** CGEventType / CGEventFlags / keycodes used (CGEventTypes.h, Events.h). */
export const MAC = {
  FLAGS_CHANGED: 12,
  TAP_DISABLED_BY_TIMEOUT: 0xfffffffe,
  TAP_DISABLED_BY_USER_INPUT: 0xffffffff,
  FLAG_SECONDARY_FN: 0x800000n,
  KEYCODE_FIELD: 9,
  /** kVK_Function; the Globe key of recent Apple keyboards reports 179. */
  FN_KEYCODES: [0x3f, 0xb3] as readonly number[],
} as const;

/**
 * What one tapped event means for fn: 'down'/'up' on a flags-changed event of the fn key whose
 * SecondaryFn flag changed, 'reenable' when macOS disabled the tap (a slow callback or user input), else
 * null. Arrow and function keys also carry the SecondaryFn flag, but as key events, not flags-changed.
 */
export function fnChange(type: number, keycode: number, flags: bigint, wasDown: boolean): 'down' | 'up' | 'reenable' | null {
  if (type === MAC.TAP_DISABLED_BY_TIMEOUT || type === MAC.TAP_DISABLED_BY_USER_INPUT) return 'reenable';
  if (type !== MAC.FLAGS_CHANGED || !MAC.FN_KEYCODES.includes(keycode)) return null;
  const down = (flags & MAC.FLAG_SECONDARY_FN) !== 0n;
  if (down === wasDown) return null;
  return down ? 'down' : 'up';
}

/** The CoreGraphics/CoreFoundation calls, as a seam (tests pass a fake; `bindMac` binds the real ones). */
export interface MacEventTaps {
  /** Creates the listen-only session tap for flags-changed events; null when macOS refuses (no permission). */
  createFlagsTap(callback: (type: number, event: bigint) => void): bigint | null;
  keycodeOf(event: bigint): number;
  flagsOf(event: bigint): bigint;
  enable(tap: bigint, on: boolean): void;
  /** Adds the tap to the main run loop (common modes); returns the run-loop source. */
  addToMainRunLoop(tap: bigint): bigint;
  remove(tap: bigint, source: bigint): void;
}

/** Starts watching fn over `taps`. */
export function watchFn(taps: MacEventTaps): FnWatcherStart {
  const listeners = new Set<(down: boolean) => void>();
  let down = false;
  let tap: bigint | null = null;
  tap = taps.createFlagsTap((type, event) => {
    const change = fnChange(type, type === MAC.FLAGS_CHANGED ? taps.keycodeOf(event) : -1, type === MAC.FLAGS_CHANGED ? taps.flagsOf(event) : 0n, down);
    if (change === 'reenable') {
      if (tap !== null) taps.enable(tap, true);
    } else if (change !== null) {
      down = change === 'down';
      for (const l of listeners) l(down);
    }
  });
  if (tap === null) return { ok: false, reason: 'macOS refused the event tap: allow Tingxie in System Settings → Privacy & Security → Accessibility and Input Monitoring' };
  const source = taps.addToMainRunLoop(tap);
  taps.enable(tap, true);
  const t = tap;
  return {
    ok: true,
    watcher: {
      onChange: (l) => void listeners.add(l),
      stop() {
        listeners.clear();
        taps.enable(t, false);
        taps.remove(t, source);
      },
    },
  };
}

/** The koffi surface used here. */
interface Koffi {
  load(path: string): { func(definition: string): (...args: unknown[]) => unknown; symbol(name: string): bigint };
  proto(definition: string): unknown;
  pointer(type: unknown): unknown;
  register(fn: (...args: unknown[]) => unknown, type: unknown): bigint;
  unregister(cb: bigint): void;
  decode(ptr: bigint, type: string): unknown;
}

/** The C declarations bound (koffi's prototype syntax; their syntax is checked on any OS by the tests). */
export const MAC_DECLARATIONS = {
  callback: 'void *TxCGEventTapCallBack(void *proxy, uint32_t type, void *event, void *userInfo)',
  CGEventTapCreate: 'void *CGEventTapCreate(uint32_t tap, uint32_t place, uint32_t options, uint64_t eventsOfInterest, TxCGEventTapCallBack *callback, void *userInfo)',
  CGEventGetIntegerValueField: 'int64_t CGEventGetIntegerValueField(void *event, uint32_t field)',
  CGEventGetFlags: 'uint64_t CGEventGetFlags(void *event)',
  CGEventTapEnable: 'void CGEventTapEnable(void *tap, bool enable)',
  CFMachPortCreateRunLoopSource: 'void *CFMachPortCreateRunLoopSource(void *allocator, void *port, long order)',
  CFRunLoopGetMain: 'void *CFRunLoopGetMain()',
  CFRunLoopAddSource: 'void CFRunLoopAddSource(void *rl, void *source, void *mode)',
  CFRunLoopRemoveSource: 'void CFRunLoopRemoveSource(void *rl, void *source, void *mode)',
  CFMachPortInvalidate: 'void CFMachPortInvalidate(void *port)',
  CFRelease: 'void CFRelease(void *cf)',
} as const;

/** Binds CGEventTap and the run-loop calls through koffi (macOS only). */
export function bindMac(): MacEventTaps {
  const koffi = createRequire(import.meta.url)('koffi') as Koffi;
  const cg = koffi.load('/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics');
  const cf = koffi.load('/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation');
  const D = MAC_DECLARATIONS;
  const TapCallback = koffi.proto(D.callback);
  const tapCreate = cg.func(D.CGEventTapCreate);
  const getField = cg.func(D.CGEventGetIntegerValueField);
  const getFlags = cg.func(D.CGEventGetFlags);
  const tapEnable = cg.func(D.CGEventTapEnable);
  const createSource = cf.func(D.CFMachPortCreateRunLoopSource);
  const mainLoop = cf.func(D.CFRunLoopGetMain);
  const addSource = cf.func(D.CFRunLoopAddSource);
  const removeSource = cf.func(D.CFRunLoopRemoveSource);
  const invalidate = cf.func(D.CFMachPortInvalidate);
  const release = cf.func(D.CFRelease);
  // kCFRunLoopCommonModes is an exported CFStringRef variable: read the pointer it holds.
  const commonModes = koffi.decode(cf.symbol('kCFRunLoopCommonModes'), 'void *');
  const registered = new Map<bigint, bigint>();
  return {
    createFlagsTap(callback) {
      const cb = koffi.register((_proxy: unknown, type: unknown, event: unknown) => {
        try {
          callback(Number(type), typeof event === 'bigint' ? event : 0n);
        } catch {
          // Never throw into CoreGraphics.
        }
        return event;
      }, koffi.pointer(TapCallback));
      // kCGSessionEventTap (1), kCGHeadInsertEventTap (0), kCGEventTapOptionListenOnly (1), flags-changed only.
      const tap = tapCreate(1, 0, 1, 1n << BigInt(MAC.FLAGS_CHANGED), cb, null);
      if (typeof tap !== 'bigint' || tap === 0n) {
        koffi.unregister(cb);
        return null;
      }
      registered.set(tap, cb);
      return tap;
    },
    keycodeOf: (event) => Number(getField(event, MAC.KEYCODE_FIELD)),
    flagsOf: (event) => BigInt(getFlags(event) as bigint | number),
    enable: (tap, on) => void tapEnable(tap, on),
    addToMainRunLoop(tap) {
      const source = createSource(null, tap, 0) as bigint;
      addSource(mainLoop(), source, commonModes);
      return source;
    },
    remove(tap, source) {
      removeSource(mainLoop(), source, commonModes);
      invalidate(tap);
      release(source);
      release(tap);
      const cb = registered.get(tap);
      registered.delete(tap);
      if (cb !== undefined) koffi.unregister(cb);
    },
  };
}

/** Starts the fn watcher on macOS; elsewhere, or when koffi cannot load, says why not. Never throws. */
export function startFnWatcher(platform: NodeJS.Platform = process.platform, bind: () => MacEventTaps = bindMac): FnWatcherStart {
  if (platform !== 'darwin') return { ok: false, reason: 'the fn/Globe key can only be watched on macOS (PC keyboards handle Fn inside the keyboard); choose another key such as alt_r or f13' };
  try {
    return watchFn(bind());
  } catch (err) {
    return { ok: false, reason: `the fn/Globe key watcher could not start: ${err instanceof Error ? err.message : String(err)}` };
  }
}
