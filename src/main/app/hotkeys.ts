/**
 * The Electron side of the hotkeys: the global key hook (uiohook-napi, for hold-to-talk and the keys
 * that act while recording), the macOS fn/Globe watcher, and Electron's globalShortcut — the toggle
 * shortcut, and while a recording runs the recording keys, registered so they are consumed instead of
 * reaching the app being dictated into (dictation/recording-keys.ts). Which key does what is decided by
 * the pure HotkeyRouter; this file starts the hook, (re)registers on config changes and reports every
 * failure — a hook that cannot start (no Accessibility permission, Wayland without XWayland), a shortcut
 * another app owns, a key name it cannot watch — through `notify` and `status()`.
 *
 * Wayland: Electron binds global shortcuts through the desktop's GlobalShortcuts portal there
 * (wayland-shortcuts.ts enables it), which gives presses but no releases, and the hook sees XWayland
 * windows only. So on a Wayland session the toggle shortcut is always registered and the user is told
 * hold-to-talk only works while an X11 app has focus; the recording keys are not registered through the
 * portal (each would ask the user to confirm a system shortcut at every recording).
 */
import { globalShortcut } from 'electron';
import type { HotkeyStatusWire } from '../../shared/ipc/dictation-types.ts';
import { keyDisplayName } from '../../shared/key-names.ts';
import { FN_KEY_CODE, parseKeyName } from '../dictation/hotkey-keys.ts';
import { bindingsFromConfig, HotkeyRouter, type HotkeyAction, type HotkeyBindings, type RecordingKeyRole } from '../dictation/hotkey-router.ts';
import { RecordingKeyGrabs, recordingShortcuts, shortcutsAct, type RecordingShortcut, type ShortcutRegistry } from '../dictation/recording-keys.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import { startFnWatcher, type FnWatcher, type FnWatcherStart } from '../platform/fn-key-mac.ts';
import { startKeyHook, type KeyHook, type KeyHookStart } from '../platform/key-hook.ts';
import type { KeyTap } from '../platform/keystroke.ts';
import type { DisplayServer } from '../platform/paste-plan.ts';
import type { HookFailureCause, Notice } from '../../shared/notices/notice.ts';

/** What the hotkeys drive (the dictation controller, reduced). */
export interface HotkeyTarget {
  readonly recording: () => boolean;
  readonly idle: () => boolean;
  press(trigger: 'hold' | 'toggle'): void;
  release(): void;
  cancel(): void;
  restart(): void;
  stepMode(delta: 1 | -1): void;
}

/** The running hotkeys. */
export interface AppHotkeys {
  /** Re-reads the config and re-registers everything; returns (and reports) the new status. */
  apply(): HotkeyStatusWire;
  status(): HotkeyStatusWire;
  /**
   * The dictation state changed: `true` while a session records. The recording keys are registered as
   * global shortcuts on the way in and unregistered on any way out (release, cancel, timeout, error).
   */
  recordingChanged(recording: boolean): void;
  /** Accelerators registered now to consume the recording keys (tests, logs). */
  consumedKeys(): readonly string[];
  /** The hook's key synthesiser, when the hook runs (used for the paste keystroke on macOS/Windows). */
  keyTap(): KeyTap | null;
  dispose(): void;
}

/** Dependencies of {@link createHotkeys}; the optional ones are seams for tests. */
export interface HotkeyDeps {
  readonly config: () => Config;
  readonly target: HotkeyTarget;
  /** Runs just before a dictation starts (remembers the focused app). */
  readonly beforeStart: () => void;
  /** The enhance-selection shortcut was pressed (the tray's "Enhance Selected Text" flow). */
  readonly enhanceSelection?: () => void;
  /** Reports hotkey problems, as notice codes (the caller puts them into words). */
  readonly notify: (level: 'warning' | 'error', notices: readonly Notice[]) => void;
  readonly log: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  readonly platform?: NodeJS.Platform;
  /** The Linux display server (wayland changes what can be registered). */
  readonly session?: DisplayServer;
  readonly shortcuts?: ShortcutRegistry;
  readonly startHook?: () => KeyHookStart;
  readonly startFnWatcher?: () => FnWatcherStart;
}

const ROLE_ACTION: Readonly<Record<RecordingKeyRole, HotkeyAction>> = {
  cancel: { type: 'cancel' },
  restart: { type: 'restart' },
  'prev-mode': { type: 'mode', delta: -1 },
  'next-mode': { type: 'mode', delta: 1 },
};

/** Whether any configured key is fn/Globe (the watcher is started only then). */
function usesFn(config: Config): boolean {
  const names = [...Object.entries(config.hotkeys).filter(([, on]) => on).map(([k]) => k), config.feedback.cancel_key, config.feedback.restart_key, config.recording.prev_mode_key, config.recording.next_mode_key];
  return names.some((n) => {
    const p = n.trim() === '' ? null : parseKeyName(n);
    return p?.ok === true && p.key.codes.includes(FN_KEY_CODE);
  });
}

/** Starts the hook and registers the configured keys. */
export function createHotkeys(deps: HotkeyDeps): AppHotkeys {
  const platform = deps.platform ?? process.platform;
  const wayland = platform === 'linux' && deps.session === 'wayland';
  const registry: ShortcutRegistry = deps.shortcuts ?? globalShortcut;
  let hook: KeyHook | null = null;
  let hookError: string | null = null;
  let hookFailure: { readonly cause: HookFailureCause; readonly reason: string | null } | null = null;
  let fn: FnWatcher | null = null;
  let fnProblem: string | null = null;
  let toggleCause: 'taken' | 'invalid' | null = null;
  let router: HotkeyRouter | null = null;
  let bindings: HotkeyBindings | null = null;
  let accelerator: string | null = null;
  let selectionAccelerator: string | null = null;
  let selectionProblem: { readonly key: string; readonly role: 'enhance-selection shortcut'; readonly error: string } | null = null;
  let current: HotkeyStatusWire = { hook: 'off', hookError: null, toggle: null, problems: [] };
  let problemList: ReturnType<typeof bindingsFromConfig>['problems'] = [];
  let reported = '';
  let recording = false;
  let grabFailuresLogged = '';

  const run = (a: HotkeyAction): void => {
    const t = deps.target;
    switch (a.type) {
      case 'hold-down':
        deps.beforeStart();
        t.press('hold');
        return;
      case 'hold-up':
        t.release();
        return;
      case 'toggle':
        if (t.idle()) deps.beforeStart();
        t.press('toggle');
        return;
      case 'cancel':
        t.cancel();
        return;
      case 'restart':
        t.restart();
        return;
      case 'mode':
        t.stepMode(a.delta);
        return;
      default: {
        const never: never = a;
        throw new Error(`unknown hotkey action ${JSON.stringify(never)}`);
      }
    }
  };

  /** One source acts per recording key (see shortcutsAct): the shortcut's callback, or the hook. */
  const shortcutActs = (): boolean => shortcutsAct(platform, hook !== null);
  const grabs = new RecordingKeyGrabs({
    registry,
    onPress: (s: RecordingShortcut) => {
      if (!shortcutActs() || !deps.target.recording()) return; // consumed only: the hook acts on it
      run(ROLE_ACTION[s.role]);
    },
  });
  const NO_ROLES: ReadonlySet<RecordingKeyRole> = new Set();

  const onKey = (kind: 'down' | 'up', e: Parameters<HotkeyRouter['keydown']>[0]): void => {
    const r = router;
    if (r === null) return;
    const elsewhere = shortcutActs() ? grabs.consumedRoles() : NO_ROLES;
    const actions = kind === 'down' ? r.keydown(e, deps.target.recording(), elsewhere) : r.keyup(e);
    for (const a of actions) run(a);
  };

  const ensureHook = (): void => {
    if (hook !== null) return;
    const started = (deps.startHook ?? startKeyHook)();
    if (started.ok) {
      hook = started.hook;
      hookError = null;
      hookFailure = null;
      hook.onKey(onKey);
      deps.log('info', 'global key hook started');
    } else {
      hookError = started.error;
      hookFailure = { cause: started.cause, reason: started.reason };
    }
  };

  /** fn/Globe: watched by its own flags-changed tap on macOS, started the first time a key uses it. */
  const ensureFn = (config: Config): void => {
    if (fn !== null || !usesFn(config)) return;
    const started = (deps.startFnWatcher ?? (() => startFnWatcher(platform)))();
    if (!started.ok) {
      fnProblem = started.reason;
      return;
    }
    fn = started.watcher;
    fnProblem = null;
    fn.onChange((down) => onKey(down ? 'down' : 'up', { keycode: FN_KEY_CODE, time: Date.now(), altKey: false, ctrlKey: false, metaKey: false, shiftKey: false }));
    deps.log('info', 'fn/Globe key watcher started');
  };

  /** Registers the recording keys for the current bindings (while recording), or releases them. */
  const updateGrabs = (): void => {
    if (!recording || bindings === null || wayland) {
      grabs.release();
      return;
    }
    // Without the hook nothing can be held: only the bare keys can arrive.
    const b: HotkeyBindings = hook === null ? { ...bindings, talkMode: 'toggle' } : bindings;
    const failed = grabs.engage(recordingShortcuts(b, platform));
    const key = JSON.stringify(failed);
    // Once per distinct set: the same key taken by another app is not news at every recording.
    if (failed.length > 0 && key !== grabFailuresLogged) deps.log('warn', 'some recording keys cannot be consumed: they still act, and also reach the focused app', { failed });
    grabFailuresLogged = failed.length > 0 ? key : '';
  };

  const apply = (): HotkeyStatusWire => {
    const config = deps.config();
    ensureFn(config);
    const fnOption = platform === 'darwin' && fn !== null ? null : (fnProblem ?? undefined);
    const parsed = bindingsFromConfig(config, { fn: fnOption });
    for (const a of router?.reset(Date.now()) ?? []) run(a);
    bindings = parsed.bindings;
    router = new HotkeyRouter(parsed.bindings);
    ensureHook();
    updateGrabs();

    // The toggle shortcut: registered in toggle mode, whenever no hold key can work, and on Wayland.
    if (accelerator !== null) registry.unregister(accelerator);
    accelerator = null;
    let toggle: HotkeyStatusWire['toggle'] = null;
    toggleCause = null;
    const wantToggle = config.recording.mode === 'toggle' || hook === null || parsed.bindings.talk.length === 0 || wayland;
    const acc = config.recording.toggle_shortcut.trim();
    if (wantToggle && acc !== '') {
      let ok = false;
      let error: string | null = null;
      try {
        ok = registry.register(acc, () => run({ type: 'toggle', key: acc }));
        if (!ok) {
          error = 'already used by another app or by the system';
          toggleCause = 'taken';
        }
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        toggleCause = 'invalid';
      }
      if (ok) accelerator = acc;
      toggle = { accelerator: acc, registered: ok, error };
    }
    registerSelection(config.recording.enhance_selection_shortcut.trim());
    current = {
      hook: hook !== null ? 'running' : 'failed',
      hookError,
      toggle,
      // Named as the OS names the key ("Right Alt", "Right ⌥ Option"), with the config spelling.
      problems: [...parsed.problems, ...(selectionProblem ? [selectionProblem] : [])].map((p) => `${p.role} ${keyDisplayName(p.key, platform)} ('${p.key}'): ${p.error}`),
    };
    problemList = selectionProblem ? [...parsed.problems, selectionProblem] : parsed.problems;
    report(current);
    return current;
  };

  /** The enhance-selection shortcut ('' = none): a global shortcut, so the key is consumed (Wayland: through the portal). */
  const registerSelection = (acc: string): void => {
    if (selectionAccelerator !== null) registry.unregister(selectionAccelerator);
    selectionAccelerator = null;
    selectionProblem = null;
    const act = deps.enhanceSelection;
    if (acc === '' || act === undefined) return;
    try {
      if (registry.register(acc, () => act())) selectionAccelerator = acc;
      else selectionProblem = { key: acc, role: 'enhance-selection shortcut', error: 'already used by another app or by the system' };
    } catch (err) {
      selectionProblem = { key: acc, role: 'enhance-selection shortcut', error: err instanceof Error ? err.message : String(err) };
    }
  };

  const report = (s: HotkeyStatusWire): void => {
    const notices: Notice[] = [];
    const toggleOk = s.toggle?.registered ? s.toggle.accelerator : null;
    if (hookFailure !== null) notices.push({ code: 'hook-unavailable', cause: hookFailure.cause, reason: hookFailure.reason, toggle: toggleOk });
    // The hook runs on XWayland but Wayland apps' keys never reach it: say so, and what works instead.
    else if (wayland) notices.push({ code: 'hook-unavailable', cause: 'wayland-partial', reason: null, toggle: toggleOk });
    if (s.toggle && !s.toggle.registered && toggleCause !== null) notices.push({ code: 'toggle-failed', accelerator: s.toggle.accelerator, cause: toggleCause, reason: toggleCause === 'invalid' ? s.toggle.error : null });
    for (const p of problemList) notices.push({ code: 'key-problem', role: p.role, key: p.key, reason: p.error });
    const key = JSON.stringify(notices);
    // Said once per distinct problem, not on every unrelated config change.
    if (notices.length > 0 && key !== reported) deps.notify(s.hook === 'failed' && !s.toggle?.registered ? 'error' : 'warning', notices);
    reported = notices.length > 0 ? key : '';
    deps.log(notices.length === 0 ? 'info' : 'warn', 'hotkeys registered', { hook: s.hook, hookError: s.hookError, toggle: s.toggle?.accelerator ?? null, problems: notices });
  };

  return {
    apply,
    status: () => current,
    recordingChanged(on) {
      // A restart stays `recording`: engage keeps what is registered (no gap) and retries what failed.
      const changed = on !== recording;
      recording = on;
      updateGrabs();
      if (changed) deps.log('info', on ? 'recording keys consumed' : 'recording keys released', on ? { accelerators: grabs.accelerators() } : undefined);
    },
    consumedKeys: () => grabs.accelerators(),
    keyTap: () => hook?.keyTap ?? null,
    dispose() {
      grabs.release();
      recording = false;
      if (accelerator !== null) registry.unregister(accelerator);
      accelerator = null;
      if (selectionAccelerator !== null) registry.unregister(selectionAccelerator);
      selectionAccelerator = null;
      hook?.stop();
      hook = null;
      fn?.stop();
      fn = null;
      router = null;
    },
  };
}
