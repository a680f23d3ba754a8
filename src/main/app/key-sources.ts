/**
 * Where raw key events come from: the global key hook (uiohook-napi, platform/key-hook.ts), started once,
 * and on macOS the fn/Globe watcher (platform/fn-key-mac.ts), started the first time a key uses fn.
 * Each failure is kept for the hotkey status and the user's notice.
 */
import type { Config } from '../../shared/config/config-schema.ts';
import type { HookFailureCause } from '../../shared/notices/notice.ts';
import { FN_KEY_CODE, parseKeyName } from '../dictation/hotkey-keys.ts';
import { startFnWatcher, type FnWatcher, type FnWatcherStart } from '../platform/fn-key-mac.ts';
import { startKeyHook, type KeyHook, type KeyHookStart } from '../platform/key-hook.ts';
import type { RawKeyEvent } from '../ports/raw-key-event.ts';

/** Why the hook did not start: `cause` for the user's words, `reason` the native module's message. */
export interface HookFailure {
  readonly cause: HookFailureCause;
  readonly reason: string | null;
}

/** What {@link createKeySources} needs; the start functions are seams for tests. */
export interface KeySourcesDeps {
  readonly platform: NodeJS.Platform;
  /** Every key event of the hook and the fn watcher. */
  readonly onKey: (kind: 'down' | 'up', e: RawKeyEvent) => void;
  readonly log: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  readonly startHook?: (() => KeyHookStart) | undefined;
  readonly startFnWatcher?: (() => FnWatcherStart) | undefined;
}

/** The running key sources and what went wrong starting them. */
export interface KeySources {
  /** Starts the hook unless it runs (a failed start is tried again at the next apply). */
  ensureHook(): void;
  /** Starts the fn watcher if a configured key uses fn and it is not running. */
  ensureFn(config: Config): void;
  hook(): KeyHook | null;
  /** The hook's start error (a log line), null while it runs. */
  hookError(): string | null;
  hookFailure(): HookFailure | null;
  fnWatching(): boolean;
  /** Why the fn watcher could not start (null: it runs, or was never needed). */
  fnProblem(): string | null;
  /** Stops the hook, then the fn watcher. */
  dispose(): void;
}

/** Whether any configured key is fn/Globe (the watcher is started only then). */
export function usesFn(config: Config): boolean {
  const names = [...Object.entries(config.hotkeys).filter(([, on]) => on).map(([k]) => k), config.feedback.cancel_key, config.feedback.restart_key, config.recording.prev_mode_key, config.recording.next_mode_key];
  return names.some((n) => {
    const p = n.trim() === '' ? null : parseKeyName(n);
    return p?.ok === true && p.key.codes.includes(FN_KEY_CODE);
  });
}

/** The hook and the fn watcher, started on demand. */
export function createKeySources(deps: KeySourcesDeps): KeySources {
  let hook: KeyHook | null = null;
  let hookError: string | null = null;
  let hookFailure: HookFailure | null = null;
  let fn: FnWatcher | null = null;
  let fnProblem: string | null = null;
  return {
    ensureHook() {
      if (hook !== null) return;
      const started = (deps.startHook ?? startKeyHook)();
      if (started.ok) {
        hook = started.hook;
        hookError = null;
        hookFailure = null;
        hook.onKey(deps.onKey);
        deps.log('info', 'global key hook started');
      } else {
        hookError = started.error;
        hookFailure = { cause: started.cause, reason: started.reason };
      }
    },
    // fn/Globe: watched by its own flags-changed tap on macOS, started the first time a key uses it.
    ensureFn(config) {
      if (fn !== null || !usesFn(config)) return;
      const started = (deps.startFnWatcher ?? (() => startFnWatcher(deps.platform)))();
      if (!started.ok) {
        fnProblem = started.reason;
        return;
      }
      fn = started.watcher;
      fnProblem = null;
      fn.onChange((down) => deps.onKey(down ? 'down' : 'up', { keycode: FN_KEY_CODE, time: Date.now(), altKey: false, ctrlKey: false, metaKey: false, shiftKey: false }));
      deps.log('info', 'fn/Globe key watcher started');
    },
    hook: () => hook,
    hookError: () => hookError,
    hookFailure: () => hookFailure,
    fnWatching: () => fn !== null,
    fnProblem: () => fnProblem,
    dispose() {
      hook?.stop();
      hook = null;
      fn?.stop();
      fn = null;
    },
  };
}
