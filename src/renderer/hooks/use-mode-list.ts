import { useCallback, useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ModeItem } from '../../shared/ipc/settings-types.ts';
import { errorText } from '../lib/errors.ts';

/** The mode files as `modes:list` reports them (broken ones included), reloadable after a save. */
export interface ModeList {
  readonly modes: readonly ModeItem[];
  readonly error: string | null;
  readonly reload: () => void;
}

/** Loads the mode list once; the default-mode picker and the mode form share it so a saved label shows in both. */
export function useModeList(bridge: TingxieBridge): ModeList {
  const [modes, setModes] = useState<readonly ModeItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    bridge.modes.list().then(
      (m) => {
        setModes(m);
        setError(null);
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [bridge]);
  useEffect(reload, [reload]);
  return { modes, error, reload };
}
