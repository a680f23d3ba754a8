/**
 * The Electron side of the hotkeys: the global key hook (uiohook-napi, for hold-to-talk and the keys
 * that act while recording) and Electron's globalShortcut (the toggle shortcut). Which key does what is
 * decided by the pure HotkeyRouter; this file starts the hook, (re)registers on config changes and
 * reports every failure — a hook that cannot start (no Accessibility permission, Wayland without
 * XWayland), a shortcut another app owns, a key name it cannot watch — through `notify` and `status()`.
 */
import { globalShortcut } from 'electron';
import type { HotkeyStatusWire } from '../../shared/ipc/dictation-types.ts';
import { bindingsFromConfig, HotkeyRouter, type HotkeyAction } from '../dictation/hotkey-router.ts';
import type { Config } from '../settings/config-schema.ts';
import { startKeyHook, type KeyHook } from '../platform/key-hook.ts';
import type { KeyTap } from '../platform/keystroke.ts';
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
  /** The hook's key synthesiser, when the hook runs (used for the paste keystroke on macOS/Windows). */
  keyTap(): KeyTap | null;
  dispose(): void;
}

/** Starts the hook and registers the configured keys. */
export function createHotkeys(deps: {
  readonly config: () => Config;
  readonly target: HotkeyTarget;
  /** Runs just before a dictation starts (remembers the focused app). */
  readonly beforeStart: () => void;
  /** Reports hotkey problems, as notice codes (the caller puts them into words). */
  readonly notify: (level: 'warning' | 'error', notices: readonly Notice[]) => void;
  readonly log: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
}): AppHotkeys {
  let hook: KeyHook | null = null;
  let hookError: string | null = null;
  let hookFailure: { readonly cause: HookFailureCause; readonly reason: string | null } | null = null;
  let toggleCause: 'taken' | 'invalid' | null = null;
  let router: HotkeyRouter | null = null;
  let accelerator: string | null = null;
  let current: HotkeyStatusWire = { hook: 'off', hookError: null, toggle: null, problems: [] };
  let problemList: ReturnType<typeof bindingsFromConfig>['problems'] = [];
  let reported = '';

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

  const ensureHook = (): void => {
    if (hook !== null) return;
    const started = startKeyHook();
    if (started.ok) {
      hook = started.hook;
      hookError = null;
      hookFailure = null;
      hook.onKey((kind, e) => {
        const r = router;
        if (r === null) return;
        const actions = kind === 'down' ? r.keydown(e, deps.target.recording()) : r.keyup(e);
        for (const a of actions) run(a);
      });
      deps.log('info', 'global key hook started');
    } else {
      hookError = started.error;
      hookFailure = { cause: started.cause, reason: started.reason };
    }
  };

  const apply = (): HotkeyStatusWire => {
    const config = deps.config();
    const { bindings, problems } = bindingsFromConfig(config);
    for (const a of router?.reset(Date.now()) ?? []) run(a);
    router = new HotkeyRouter(bindings);
    ensureHook();

    // The toggle shortcut: registered in toggle mode, or whenever no hold key can work.
    if (accelerator !== null) globalShortcut.unregister(accelerator);
    accelerator = null;
    let toggle: HotkeyStatusWire['toggle'] = null;
    toggleCause = null;
    const wantToggle = config.recording.mode === 'toggle' || hook === null || bindings.talk.length === 0;
    const acc = config.recording.toggle_shortcut.trim();
    if (wantToggle && acc !== '') {
      let ok = false;
      let error: string | null = null;
      try {
        ok = globalShortcut.register(acc, () => run({ type: 'toggle', key: acc }));
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
    current = {
      hook: hook !== null ? 'running' : 'failed',
      hookError,
      toggle,
      problems: problems.map((p) => `${p.role} '${p.key}': ${p.error}`),
    };
    problemList = problems;
    report(current);
    return current;
  };

  const report = (s: HotkeyStatusWire): void => {
    const notices: Notice[] = [];
    if (hookFailure !== null) notices.push({ code: 'hook-unavailable', cause: hookFailure.cause, reason: hookFailure.reason, toggle: s.toggle?.registered ? s.toggle.accelerator : null });
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
    keyTap: () => hook?.keyTap ?? null,
    dispose() {
      if (accelerator !== null) globalShortcut.unregister(accelerator);
      hook?.stop();
      hook = null;
      router = null;
    },
  };
}
