/**
 * The fan-out of the controller's events: every window gets them, then the hotkeys (recording keys),
 * the indicator and the tray follow the state, and a failure is kept as the tray's last error.
 */
import type { DictationEvent } from '../../shared/ipc/dictation-types.ts';
import type { Notice } from '../../shared/notices/notice.ts';
import type { Broadcast } from '../ipc/register.ts';
import type { IndicatorWindow } from './indicator-window.ts';
import { trayStatusOf, type TrayState } from './tray-menu.ts';

/** The controller as the fan-out reads it. */
export interface EventSession {
  readonly state: { readonly state: string };
  lastRetryable(): string | null;
}

/** Where {@link dictationEventFanOut} sends each event. */
export interface DictationEventsDeps {
  /** Sends an event to every trusted window (null until IPC is up). */
  readonly broadcast: () => Broadcast | null;
  /** The recording keys are consumed while recording (hotkeys.ts `recordingChanged`). */
  readonly recordingChanged: (recording: boolean) => void;
  readonly indicator: Pick<IndicatorWindow, 'stateChanged' | 'notice'>;
  /** Tray updates (null when there is no tray). */
  readonly tray: () => { update(patch: Partial<TrayState>): void } | null;
  /** A notice in the UI language (for the tray). */
  readonly words: (notice: Notice) => string;
  /** Shows the onboarding window (where a missing speech model is fixed). */
  readonly openOnboarding: () => void;
  /** The controller (read when an event arrives, so it may be created after this). */
  readonly session: () => EventSession;
}

/** The controller's `ui.emit`: broadcasts each event, then updates the hotkeys, indicator and tray. */
export function dictationEventFanOut(deps: DictationEventsDeps): (e: DictationEvent) => void {
  let lastError: string | null = null;
  const canRetry = (): boolean => deps.session().lastRetryable() !== null;
  const onEvent = (e: DictationEvent): void => {
    if (e.kind === 'state') {
      // First: the recording keys are consumed before the indicator says "recording".
      deps.recordingChanged(e.state === 'recording');
      if (e.state !== 'idle') lastError = null;
      deps.indicator.stateChanged(e.state);
      deps.tray()?.update({ status: lastError !== null && e.state === 'idle' ? 'error' : trayStatusOf(e.state), detail: lastError ?? '', mode: e.mode, canRetry: canRetry() });
    } else if (e.kind === 'notice') {
      deps.indicator.notice(e.notice);
      if (e.level !== 'error') return;
      lastError = deps.words(e.notice);
      // A dictation found no model: onboarding is where it is fixed (the audio is kept for a retry).
      if (e.notice.code === 'speech-model-missing') deps.openOnboarding();
      if (deps.session().state.state === 'idle') deps.tray()?.update({ status: 'error', detail: lastError, canRetry: canRetry() });
    } else if (e.kind === 'done') {
      deps.tray()?.update({ canRetry: canRetry() });
    }
  };
  return (e) => {
    deps.broadcast()?.('dictation:event', e);
    onEvent(e);
  };
}
