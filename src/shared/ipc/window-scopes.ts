/**
 * Per-window IPC scopes: the invoke channels each kind of Tingxie window may call, part of the contract.
 * The dispatcher (src/main/ipc/dispatcher.ts) refuses any other call with `out-of-scope`, using the
 * kind the window factory recorded for the sender. So a compromised page can reach only what its window
 * needs: the hidden capture window can send audio frames but cannot store an API key, delete history
 * or paste text. Zod-free, like channels.ts.
 *
 * Every window kind must have an entry: TrustedSenders.add takes a {@link ScopedWindowKind}, so a new
 * kind in src/main/app/window-policy.ts without a scope here does not compile.
 */
import type { InvokeChannel } from './channels.ts';
import { onboardingWindowChannels } from './onboarding-channels.ts';
import { recordingsHistoryChannels } from './recordings-channels.ts';
import { textRulesSettingsChannels } from './text-rules-channels.ts';

/** Window kind → the invoke channels its page calls (derived from src/renderer/<kind>/ and the hooks it uses). */
export const windowInvokeScopes = {
  /** Hidden microphone window: it only streams frames and reports its state. */
  capture: ['capture:frames', 'capture:status'],
  /** Recording pill: reads the UI language and the sound settings; its Retry runs the last failed dictation again. */
  indicator: ['app:info', 'config:get', 'dictation:retry-last'],
  /** Preview panel: the dictation it shows, its modes, and "add to vocabulary" from the diff. */
  panel: [
    'config:get',
    'app:info',
    'dictation:status',
    'dictation:modes',
    'dictation:confirm',
    'dictation:cancel',
    'dictation:deliver',
    'dictation:hide-panel',
    'dictation:retry',
    'dictation:set-mode',
    'dictation:prompt',
    'vocabulary:add',
    // Learning from the edit made here: propose a pair, accept it.
    'learning:propose',
    'learning:accept',
  ],
  /** History Browser: browse, edit and delete records, re-run a mode, recover sessions, copy text. */
  history: [
    'config:get',
    'history:query',
    'history:count',
    'history:update',
    'history:delete',
    'history:stats',
    'dictation:modes',
    'dictation:recoverable',
    'dictation:recover',
    'dictation:rerun',
    'app:copy-text',
    'learning:propose',
    'learning:accept',
    // Play, save as WAV and re-transcribe a record's kept audio.
    ...recordingsHistoryChannels,
  ],
  /** Settings: the one window that changes configuration, keys, models, modes, vocabulary and bulk history. */
  settings: [
    'config:get',
    'config:set',
    'config:issues',
    'secrets:status',
    'secrets:set',
    'secrets:delete',
    'app:info',
    'app:open-external',
    'app:open-logs',
    'dictation:hotkeys',
    'history:delete-day',
    'history:delete-all',
    'recordings:usage',
    'apps:recent',
    'history:export',
    'history:import',
    'vocabulary:list',
    'vocabulary:add',
    'vocabulary:update',
    'vocabulary:remove',
    'vocabulary:export',
    'vocabulary:import',
    'models:list',
    'models:download',
    'models:cancel',
    'models:delete',
    'modes:list',
    'modes:save',
    'modes:delete',
    'providers:verify',
    'providers:models',
    'providers:presets',
    'providers:prompt-report',
    // Settings may open the first-run guide again.
    'onboarding:open',
    // Replacement rules and snippets: listed, saved, removed and tried (text-rules-channels.ts).
    ...textRulesSettingsChannels,
  ],
  /** First-run guide: its list lives with its channels (onboarding-channels.ts). */
  onboarding: onboardingWindowChannels.invoke,
} as const satisfies Readonly<Record<string, readonly InvokeChannel[]>>;

/** The window kinds that have an IPC scope. */
export type ScopedWindowKind = keyof typeof windowInvokeScopes;

const scopeSets = new Map<string, ReadonlySet<string>>(Object.entries(windowInvokeScopes).map(([kind, list]) => [kind, new Set<string>(list)]));

/** Whether a window of `kind` may call `channel` (false for an unknown kind). */
export function windowMayCall(kind: string, channel: string): boolean {
  return scopeSets.get(kind)?.has(channel) === true;
}
