/**
 * The hotkeys' lifecycle with the native parts replaced at their seams: a fake globalShortcut (Electron's
 * contract), a fake key hook (uiohook's events) and a fake fn watcher. Proves the recording keys are
 * registered only while recording, released on every way out, and that each press acts once — through
 * the hook or through the shortcut, never both. The real grabs and the real hook run in
 * test/app/keys.test.ts. `electron` is mocked only because hotkeys.ts imports globalShortcut as its default.
 */
import { describe, expect, it, vi } from 'vitest';
import type { RawKeyEvent } from '../../../../src/main/ports/raw-key-event.ts';
import { MAC, watchFn, type FnWatcherStart, type MacEventTaps } from '../../../../src/main/platform/fn-key-mac.ts';

vi.mock('electron', () => ({ globalShortcut: { register: () => false, unregister: () => undefined } }));

const { createHotkeys } = await import('../../../../src/main/app/hotkeys.ts');
const { configSchema } = await import('../../../../src/shared/config/config-schema.ts');

type Listener = (kind: 'down' | 'up', e: RawKeyEvent) => void;
const ev = (keycode: number, mods: Partial<RawKeyEvent> = {}): RawKeyEvent => ({ keycode, time: Date.now(), altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });
const ALT_R = 3640;
const SPACE = 57;
const LEFT = 57419;
const UIOHOOK_F5 = 0x3f;
const KVK_FUNCTION = 0x3f;

function setup(opts: { platform?: NodeJS.Platform; session?: 'x11' | 'wayland'; hook?: boolean; config?: Record<string, unknown>; fn?: boolean; startFnWatcher?: () => FnWatcherStart } = {}) {
  const registered = new Map<string, () => void>();
  const calls: string[] = [];
  let listener: Listener | null = null;
  let fnListener: ((down: boolean) => void) | null = null;
  let state: 'idle' | 'recording' | 'transcribing' = 'idle';
  const actions: string[] = [];
  const notices: unknown[] = [];
  let hk: ReturnType<typeof createHotkeys> | null = null;
  const setState = (s: typeof state): void => {
    state = s;
    hk?.recordingChanged(s === 'recording');
  };
  hk = createHotkeys({
    config: () => configSchema.parse({ hotkeys: { alt_r: true }, ...opts.config }),
    platform: opts.platform ?? 'linux',
    session: opts.session ?? 'x11',
    target: {
      recording: () => state === 'recording',
      idle: () => state === 'idle',
      press: (t) => {
        actions.push(`press:${t}`);
        setState('recording');
      },
      release: () => {
        actions.push('release');
        setState('transcribing');
      },
      cancel: () => {
        actions.push('cancel');
        setState('idle');
      },
      restart: () => {
        actions.push('restart');
        setState('recording');
      },
      stepMode: (d) => actions.push(`mode:${d}`),
    },
    beforeStart: () => undefined,
    notify: (_level, n) => notices.push(...n),
    log: () => undefined,
    shortcuts: {
      register(acc, cb) {
        calls.push(`+${acc}`);
        if (registered.has(acc)) return false;
        registered.set(acc, cb);
        return true;
      },
      unregister(acc) {
        calls.push(`-${acc}`);
        registered.delete(acc);
      },
    },
    startHook: () =>
      opts.hook === false
        ? { ok: false, cause: 'start-failed', reason: 'no X', error: 'the global key hook could not start: no X' }
        : { ok: true, hook: { onKey: (l) => ((listener = l), () => undefined), keyTap: () => undefined, stop: () => undefined } },
    startFnWatcher: opts.startFnWatcher ?? (() => (opts.fn === true ? { ok: true, watcher: { onChange: (l) => void (fnListener = l), stop: () => undefined } } : { ok: false, reason: 'the fn/Globe key can only be watched on macOS' })),
  });
  const status = hk.apply();
  const h = hk;
  return {
    hk: h,
    status,
    registered,
    calls,
    actions,
    notices,
    setState,
    key: (kind: 'down' | 'up', e: RawKeyEvent) => listener?.(kind, e),
    tap: (e: RawKeyEvent) => {
      listener?.('down', e);
      listener?.('up', e);
    },
    shortcut: (acc: string) => registered.get(acc)?.(),
    fn: (down: boolean) => fnListener?.(down),
  };
}

describe('the recording keys are global shortcuts only while recording', () => {
  it('hold Right Alt: registered when the recording starts, the same keys with Alt too; released when the key is let go', () => {
    const t = setup();
    expect([...t.registered.keys()]).toEqual([]);
    t.key('down', ev(ALT_R, { altKey: true }));
    expect(t.actions).toEqual(['press:hold']);
    expect([...t.registered.keys()]).toEqual(['Space', 'Alt+Space', 'Escape', 'Alt+Escape', 'Left', 'Alt+Left', 'Right', 'Alt+Right']);
    expect(t.hk.consumedKeys()).toHaveLength(8);
    t.key('up', ev(ALT_R));
    expect(t.actions).toEqual(['press:hold', 'release']);
    expect([...t.registered.keys()]).toEqual([]);
  });

  it.each([
    ['cancel (Space)', (t: ReturnType<typeof setup>) => t.tap(ev(SPACE, { altKey: true })), 'cancel'],
    ['Escape', (t: ReturnType<typeof setup>) => t.tap(ev(1, { altKey: true })), 'cancel'],
    ['the maximum length (transcribing)', (t: ReturnType<typeof setup>) => t.setState('transcribing'), null],
  ])('every way out of recording releases them: %s', (_name, exit, action) => {
    const t = setup();
    t.key('down', ev(ALT_R, { altKey: true }));
    exit(t);
    if (action !== null) expect(t.actions).toContain(action);
    expect([...t.registered.keys()]).toEqual([]);
  });

  it('restart stays recording: the grabs are kept (no gap a key could leak through) and released at the end', () => {
    const t = setup({ config: { feedback: { restart_key: 'backspace' } } });
    t.key('down', ev(ALT_R, { altKey: true }));
    const registrations = t.calls.length;
    t.tap(ev(14, { altKey: true }));
    expect(t.actions).toEqual(['press:hold', 'restart']);
    expect(t.calls.length).toBe(registrations);
    expect(t.registered.has('Alt+Backspace')).toBe(true);
    t.key('up', ev(ALT_R));
    expect([...t.registered.keys()]).toEqual([]);
  });

  it('X11/Windows: the hook acts and the shortcut only consumes — a press reported by both acts once', () => {
    const t = setup({ platform: 'linux' });
    t.key('down', ev(ALT_R, { altKey: true }));
    t.shortcut('Alt+Left'); // the grab's callback…
    t.tap(ev(LEFT, { altKey: true })); // …and the hook (XRecord sees grabbed keys too)
    expect(t.actions).toEqual(['press:hold', 'mode:-1']);
  });

  it('macOS: the shortcut acts (a Carbon hot key may never reach the event tap) and the hook skips those roles', () => {
    const t = setup({ platform: 'darwin', config: { hotkeys: { alt_r: true }, feedback: { restart_key: 'cmd' } } });
    t.key('down', ev(ALT_R, { altKey: true }));
    t.tap(ev(LEFT, { altKey: true }));
    t.shortcut('Alt+Left');
    expect(t.actions).toEqual(['press:hold', 'mode:-1']);
    // A modifier alone (cmd) cannot be a shortcut: the hook still acts on it.
    t.tap(ev(3675, { altKey: true, metaKey: true }));
    expect(t.actions).toEqual(['press:hold', 'mode:-1', 'restart']);
  });

  it('without a hook (toggle shortcut only) the shortcut callbacks act', () => {
    const t = setup({ hook: false, config: { recording: { toggle_shortcut: 'Control+Alt+D' } } });
    expect(t.status.toggle).toMatchObject({ accelerator: 'Control+Alt+D', registered: true });
    t.shortcut('Control+Alt+D');
    expect([...t.registered.keys()]).toEqual(['Control+Alt+D', 'Space', 'Escape', 'Left', 'Right']);
    t.shortcut('Right');
    t.shortcut('Escape');
    expect(t.actions).toEqual(['press:toggle', 'mode:1', 'cancel']);
    expect([...t.registered.keys()]).toEqual(['Control+Alt+D']);
  });

  it('keys are not consumed when idle: a shortcut callback or a hook press does nothing then', () => {
    const t = setup({ hook: false });
    t.tap(ev(SPACE));
    expect(t.actions).toEqual([]);
    expect(t.hk.consumedKeys()).toEqual([]);
  });

  it('dispose releases everything', () => {
    const t = setup();
    t.key('down', ev(ALT_R, { altKey: true }));
    t.hk.dispose();
    expect([...t.registered.keys()]).toEqual([]);
  });
});

describe('Wayland and fn/Globe', () => {
  it('Wayland: the toggle shortcut is registered even in hold mode (through the portal), the user is told, and no recording key is registered', () => {
    const t = setup({ session: 'wayland' });
    expect(t.status.toggle).toMatchObject({ registered: true });
    expect(t.notices).toEqual([expect.objectContaining({ code: 'hook-unavailable', cause: 'wayland-partial', toggle: 'CommandOrControl+Shift+Space' })]);
    t.key('down', ev(ALT_R, { altKey: true }));
    expect(t.actions).toEqual(['press:hold']);
    expect([...t.registered.keys()]).toEqual(['CommandOrControl+Shift+Space']);
  });

  it('macOS: fn/Globe holds through the flags-changed watcher', () => {
    const t = setup({ platform: 'darwin', fn: true, config: { hotkeys: { fn: true } } });
    expect(t.status.problems).toEqual([]);
    t.fn(true);
    expect(t.actions).toEqual(['press:hold']);
    t.fn(false);
    expect(t.actions).toEqual(['press:hold', 'release']);
  });

  it('elsewhere fn/Globe is refused with the reason, as a key problem', () => {
    const t = setup({ platform: 'linux', config: { hotkeys: { fn: true } } });
    expect(t.notices).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'key-problem', key: 'fn', reason: expect.stringMatching(/only be watched on macOS/) })]));
    expect(t.status.toggle).toMatchObject({ registered: true }); // no talk key left: the toggle shortcut stands in
  });

  // macOS numbers fn kVK_Function = 0x3f, and libuiohook numbers F5 VC_F5 = 0x3f: if the watcher's
  // events came through under that number, F5 would start a dictation bound to fn (and fn one bound to F5).
  it('the watcher reports under fn’s own code (never a uiohook code): the real flags-changed watcher holds fn, F5 from the hook does not', () => {
    let tapped: ((type: number, event: bigint) => void) | null = null;
    const events = new Map<bigint, { keycode: number; flags: bigint }>();
    const taps: MacEventTaps = {
      createFlagsTap: (cb) => ((tapped = cb), 1n),
      keycodeOf: (e) => events.get(e)?.keycode ?? -1,
      flagsOf: (e) => events.get(e)?.flags ?? 0n,
      enable: () => undefined,
      addToMainRunLoop: () => 2n,
      remove: () => undefined,
    };
    const flagsChanged = (flags: bigint): void => {
      const id = BigInt(events.size + 100);
      events.set(id, { keycode: KVK_FUNCTION, flags });
      tapped?.(MAC.FLAGS_CHANGED, id);
    };
    const t = setup({ platform: 'darwin', config: { hotkeys: { fn: true } }, startFnWatcher: () => watchFn(taps) });
    expect(t.status.problems).toEqual([]);
    t.tap(ev(UIOHOOK_F5));
    expect(t.actions).toEqual([]);
    flagsChanged(MAC.FLAG_SECONDARY_FN);
    expect(t.actions).toEqual(['press:hold']);
    flagsChanged(0n);
    expect(t.actions).toEqual(['press:hold', 'release']);
  });
});
