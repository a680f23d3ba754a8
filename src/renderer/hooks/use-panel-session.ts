import { useCallback, useEffect, useReducer, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { DictationModeWire } from '../../shared/ipc/dictation-types.ts';
import { initialPanelState, panelReducer, type PanelAction, type PanelState } from '../panel/panel-state.ts';

/** The panel's live session: state from `dictation:event` (and `dictation:status` at load), the mode list, the platform. */
export function usePanelSession(bridge: TingxieBridge): {
  readonly state: PanelState;
  readonly dispatch: (a: PanelAction) => void;
  readonly modes: readonly DictationModeWire[];
  readonly platform: string;
} {
  const [state, dispatch] = useReducer(panelReducer, initialPanelState);
  const [modes, setModes] = useState<readonly DictationModeWire[]>([]);
  const [platform, setPlatform] = useState('');

  useEffect(() => {
    let live = true;
    // Subscribe first, then ask for the current session, so nothing between the two is missed.
    const off = bridge.on.dictationEvent((event) => {
      dispatch({ type: 'event', event, now: Date.now() });
    });
    bridge.dictation.status().then((snapshot) => live && dispatch({ type: 'snapshot', snapshot }), () => undefined);
    bridge.app.info().then((i) => live && setPlatform(i.platform), () => undefined);
    return () => {
      live = false;
      off();
    };
  }, [bridge]);

  const loadModes = useCallback(() => {
    bridge.dictation.modes().then(setModes, () => undefined);
  }, [bridge]);
  // Mode files can change while the app runs: refresh the list whenever a new session starts.
  useEffect(loadModes, [loadModes, state.sessionId]);

  return { state, dispatch, modes, platform };
}
