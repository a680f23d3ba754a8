import { useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { DictationModeWire } from '../../shared/ipc/dictation-types.ts';
import { errorText } from '../lib/errors.ts';
import type { Translate } from '../lib/i18n-context.ts';
import type { PanelKeyAction } from '../lib/panel-keys.ts';
import { canConfirm, type PanelAction, type PanelState } from './panel-state.ts';

/** What the panel's actions act on: the session, its shown text, and what may be retried. */
export interface PanelActionInputs {
  readonly bridge: TingxieBridge;
  readonly s: PanelState;
  readonly dispatch: (a: PanelAction) => void;
  readonly t: Translate;
  /** The text in the text area (the reopened preview's, or the draft). */
  readonly text: string;
  readonly live: boolean;
  readonly retry: 'asr' | 'llm' | null;
}

/** The panel's actions (the footer's buttons, the keys, the mode row) and the failure of the last one. */
export interface PanelActions {
  readonly failure: string | null;
  readonly clearFailure: () => void;
  readonly deliver: (action: 'paste' | 'copy') => void;
  readonly cancel: () => void;
  readonly pickMode: (mode: string) => void;
  readonly runRetry: () => void;
}

/** The panel's actions over the bridge; a rejected call shows its message until the next action. */
export function usePanelActions({ bridge, s, dispatch, t, text, live, retry }: PanelActionInputs): PanelActions {
  const [failure, setFailure] = useState<string | null>(null);
  const reopened = s.reopened;
  const act = (p: Promise<unknown>): void => {
    setFailure(null);
    p.catch((err: unknown) => setFailure(errorText(err)));
  };
  const deliver = (action: 'paste' | 'copy'): void => {
    // The session id lets main update that dictation's history record when its text was edited here.
    if (reopened) act(bridge.dictation.deliver({ text, action, sessionId: reopened.sessionId }).then(() => dispatch({ type: 'close-reopened' })));
    else if (s.sessionId !== null && canConfirm(s)) act(bridge.dictation.confirm({ sessionId: s.sessionId, text, action }));
  };
  const cancel = (): void => {
    if (reopened) dispatch({ type: 'close-reopened' });
    else if (s.sessionId !== null && live) act(bridge.dictation.cancel({ sessionId: s.sessionId }));
    // Nothing to cancel: Esc (or Close) just puts the idle panel away.
    else {
      dispatch({ type: 'hidden' });
      act(bridge.dictation.hidePanel());
    }
  };
  const pickMode = (mode: string): void => {
    if (s.sessionId === null || !live || reopened || mode === s.mode) return;
    dispatch({ type: 'mode-requested', mode });
    act(bridge.dictation.setMode({ sessionId: s.sessionId, mode }));
  };
  const runRetry = (): void => {
    const id = s.failedSession ?? s.sessionId;
    if (id === null || retry === null) return;
    if (retry === 'llm') dispatch({ type: 'mode-requested', mode: s.mode });
    act(bridge.dictation.retry({ sessionId: id }).then((ok) => {
      if (!ok) throw new Error(t('panel.retry.gone'));
    }));
  };
  return { failure, clearFailure: () => setFailure(null), deliver, cancel, pickMode, runRetry };
}

/** Runs what a panel key means (panel-keys.ts) with the panel's actions. */
export function runPanelKey(action: NonNullable<PanelKeyAction>, a: PanelActions, retry: 'asr' | 'llm' | null, modes: readonly DictationModeWire[]): void {
  switch (action.kind) {
    case 'confirm':
      // With nothing to confirm, Enter retries a failed transcription (the one thing the panel offers).
      if (retry === 'asr') a.runRetry();
      else a.deliver('paste');
      return;
    case 'copy':
      a.deliver('copy');
      return;
    case 'cancel':
      a.cancel();
      return;
    case 'mode': {
      const m = modes[action.index];
      if (m !== undefined) a.pickMode(m.id);
      return;
    }
    default: {
      const never: never = action;
      return never;
    }
  }
}
