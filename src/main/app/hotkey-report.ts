/** The hotkeys' status for Settings and their problems as notices: said once per distinct problem, logged at each apply. */
import type { HotkeyStatusWire } from '../../shared/ipc/dictation-types.ts';
import { keyDisplayName } from '../../shared/key-names.ts';
import type { Notice } from '../../shared/notices/notice.ts';
import type { KeyProblem, ToggleCause } from './hotkey-shortcuts.ts';
import type { HookFailure } from './key-sources.ts';

/** What went wrong at an apply, beyond the status itself. */
export interface HotkeyFacts {
  readonly hookFailure: HookFailure | null;
  /** A Wayland session: the hook sees XWayland windows only. */
  readonly wayland: boolean;
  readonly toggleCause: ToggleCause | null;
  readonly problems: readonly KeyProblem[];
}

/** The status Settings shows; each problem names the key as the OS does ("Right Alt", "Right ⌥ Option"), with the config spelling. */
export function hotkeyStatus(hookError: string | null, toggle: HotkeyStatusWire['toggle'], problems: readonly KeyProblem[], platform: NodeJS.Platform, hookRunning: boolean): HotkeyStatusWire {
  return {
    hook: hookRunning ? 'running' : 'failed',
    hookError,
    toggle,
    problems: problems.map((p) => `${p.role} ${keyDisplayName(p.key, platform)} ('${p.key}'): ${p.error}`),
  };
}

/** The notices of a status: the hook, the toggle shortcut, each key problem. */
export function hotkeyNotices(s: HotkeyStatusWire, facts: HotkeyFacts): Notice[] {
  const notices: Notice[] = [];
  const toggleOk = s.toggle?.registered ? s.toggle.accelerator : null;
  if (facts.hookFailure !== null) notices.push({ code: 'hook-unavailable', cause: facts.hookFailure.cause, reason: facts.hookFailure.reason, toggle: toggleOk });
  // The hook runs on XWayland but Wayland apps' keys never reach it: say so, and what works instead.
  else if (facts.wayland) notices.push({ code: 'hook-unavailable', cause: 'wayland-partial', reason: null, toggle: toggleOk });
  const cause = facts.toggleCause;
  if (s.toggle && !s.toggle.registered && cause !== null) notices.push({ code: 'toggle-failed', accelerator: s.toggle.accelerator, cause, reason: cause === 'invalid' ? s.toggle.error : null });
  for (const p of facts.problems) notices.push({ code: 'key-problem', role: p.role, key: p.key, reason: p.error });
  return notices;
}

/** What {@link hotkeyReporter} tells. */
export interface HotkeyReporterDeps {
  readonly notify: (level: 'warning' | 'error', notices: readonly Notice[]) => void;
  readonly log: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
}

/** Reports each apply: notices when they differ from the last ones said, and a log line always. */
export function hotkeyReporter(deps: HotkeyReporterDeps): (s: HotkeyStatusWire, facts: HotkeyFacts) => void {
  let reported = '';
  return (s, facts) => {
    const notices = hotkeyNotices(s, facts);
    const key = JSON.stringify(notices);
    // Said once per distinct problem, not on every unrelated config change.
    if (notices.length > 0 && key !== reported) deps.notify(s.hook === 'failed' && !s.toggle?.registered ? 'error' : 'warning', notices);
    reported = notices.length > 0 ? key : '';
    deps.log(notices.length === 0 ? 'info' : 'warn', 'hotkeys registered', { hook: s.hook, hookError: s.hookError, toggle: s.toggle?.accelerator ?? null, problems: notices });
  };
}
