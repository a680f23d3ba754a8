/**
 * The Electron side of the hotkeys: the global key hook (uiohook-napi, for hold-to-talk and the keys
 * that act while recording), the macOS fn/Globe watcher, and Electron's globalShortcut — the toggle
 * shortcut, and while a recording runs the recording keys, registered so they are consumed instead of
 * reaching the app being dictated into (dictation/recording-keys.ts). Which key does what is decided by
 * the pure HotkeyRouter; this file starts the hook, (re)registers on config changes and reports every
 * failure — a hook that cannot start (no Accessibility permission, Wayland without XWayland), a shortcut
 * another app owns, a key name it cannot watch — through `notify` and `status()`. Each concern is its own
 * file: key-sources.ts (hook, fn watcher), hotkey-actions.ts, recording-key-consumer.ts,
 * hotkey-shortcuts.ts (toggle, enhance-selection) and hotkey-report.ts; this one composes them.
 *
 * Wayland: Electron binds global shortcuts through the desktop's GlobalShortcuts portal there
 * (wayland-shortcuts.ts enables it), which gives presses but no releases, and the hook sees XWayland
 * windows only. So on a Wayland session the toggle shortcut is always registered and the user is told
 * hold-to-talk only works while an X11 app has focus; the recording keys are not registered through the
 * portal (each would ask the user to confirm a system shortcut at every recording).
 */
import { globalShortcut } from 'electron';
import type { Config } from '../../shared/config/config-schema.ts';
import type { HotkeyStatusWire } from '../../shared/ipc/dictation-types.ts';
import type { Notice } from '../../shared/notices/notice.ts';
import { bindingsFromConfig, HotkeyRouter, type HotkeyBindings } from '../dictation/hotkey-router.ts';
import type { ShortcutRegistry } from '../dictation/recording-keys.ts';
import type { FnWatcherStart } from '../platform/fn-key-mac.ts';
import type { KeyHookStart } from '../platform/key-hook.ts';
import type { KeyTap } from '../platform/keystroke.ts';
import type { DisplayServer } from '../platform/paste-plan.ts';
import type { RawKeyEvent } from '../ports/raw-key-event.ts';
import { hotkeyActionRunner, type HotkeyTarget } from './hotkey-actions.ts';
import { hotkeyReporter, hotkeyStatus } from './hotkey-report.ts';
import { selectionShortcut, toggleShortcut } from './hotkey-shortcuts.ts';
import { lastDictationShortcuts, type LastDictationActs } from './hotkey-last-dictation.ts';
import { createKeySources } from './key-sources.ts';
import { createRecordingKeyConsumer } from './recording-key-consumer.ts';

export type { HotkeyTarget } from './hotkey-actions.ts';

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
  /**
   * The setup guide's key test: while a listener is set, the hold-to-talk keys the hook sees are reported
   * to it (by config name) and no key acts (nothing starts a dictation); null goes back to normal.
   */
  watchKeys(listener: ((kind: 'down' | 'up', key: string) => void) | null): void;
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
  /** Paste / copy / reopen the last dictation (their shortcuts: recording.*_last_shortcut). */
  readonly lastDictation?: LastDictationActs;
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

/** Starts the hook and registers the configured keys. */
export function createHotkeys(deps: HotkeyDeps): AppHotkeys {
  const platform = deps.platform ?? process.platform;
  const wayland = platform === 'linux' && deps.session === 'wayland';
  const registry: ShortcutRegistry = deps.shortcuts ?? globalShortcut;
  let router: HotkeyRouter | null = null;
  let bindings: HotkeyBindings | null = null;
  let current: HotkeyStatusWire = { hook: 'off', hookError: null, toggle: null, problems: [] };
  const run = hotkeyActionRunner(deps.target, deps.beforeStart);
  const hookRunning = (): boolean => sources.hook() !== null;
  const recordingKeys = createRecordingKeyConsumer({ registry, platform, wayland, hookRunning, sessionRecording: () => deps.target.recording(), bindings: () => bindings, run, log: deps.log });
  let watcher: ((kind: 'down' | 'up', key: string) => void) | null = null;
  const onKey = (kind: 'down' | 'up', e: RawKeyEvent): void => {
    if (watcher !== null) {
      const talk = bindings?.talk.find((k) => k.codes.includes(e.keycode));
      if (talk !== undefined) watcher(kind, talk.name);
      return;
    }
    const r = router;
    if (r === null) return;
    const elsewhere = recordingKeys.actingElsewhere();
    const actions = kind === 'down' ? r.keydown(e, deps.target.recording(), elsewhere) : r.keyup(e);
    for (const a of actions) run(a);
  };
  const sources = createKeySources({ platform, onKey, log: deps.log, startHook: deps.startHook, startFnWatcher: deps.startFnWatcher });
  const toggle = toggleShortcut(registry);
  const selection = selectionShortcut(registry, deps.enhanceSelection);
  const last = lastDictationShortcuts(registry, deps.lastDictation);
  const report = hotkeyReporter(deps);

  const apply = (): HotkeyStatusWire => {
    const config = deps.config();
    sources.ensureFn(config);
    const fnOption = platform === 'darwin' && sources.fnWatching() ? null : (sources.fnProblem() ?? undefined);
    const parsed = bindingsFromConfig(config, { fn: fnOption });
    for (const a of router?.reset(Date.now()) ?? []) run(a);
    bindings = parsed.bindings;
    router = new HotkeyRouter(parsed.bindings);
    sources.ensureHook();
    recordingKeys.update();
    // The toggle shortcut: registered in toggle mode, whenever no hold key can work, and on Wayland.
    const wantToggle = config.recording.mode === 'toggle' || !hookRunning() || parsed.bindings.talk.length === 0 || wayland;
    const acc = config.recording.toggle_shortcut.trim();
    const toggleStatus = toggle.register(wantToggle ? acc : '', () => run({ type: 'toggle', key: acc }));
    selection.register(config.recording.enhance_selection_shortcut.trim());
    last.register(config);
    const selectionProblem = selection.problem();
    const problems = [...parsed.problems, ...(selectionProblem ? [selectionProblem] : []), ...last.problems()];
    current = hotkeyStatus(sources.hookError(), toggleStatus, problems, platform, hookRunning());
    report(current, { hookFailure: sources.hookFailure(), wayland, toggleCause: toggle.cause(), problems });
    return current;
  };

  return {
    apply,
    status: () => current,
    recordingChanged: (on) => recordingKeys.recordingChanged(on),
    consumedKeys: () => recordingKeys.accelerators(),
    keyTap: () => sources.hook()?.keyTap ?? null,
    watchKeys(listener) {
      watcher = listener;
    },
    dispose() {
      recordingKeys.release();
      toggle.dispose();
      selection.dispose();
      last.dispose();
      sources.dispose();
      router = null;
    },
  };
}
