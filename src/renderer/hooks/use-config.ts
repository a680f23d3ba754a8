import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';

/** The live config of a window: null until loaded; `error` when loading failed. */
export interface LiveConfig {
  readonly config: ConfigSnapshot | null;
  readonly error: string | null;
  /** Replace the snapshot (e.g. with what `config:set` returned) without waiting for the event. */
  readonly update: (config: ConfigSnapshot) => void;
}

/** Loads the config once and follows `config:changed`, so edits made elsewhere (tray, CLI) show at once. */
export function useConfig(bridge: TingxieBridge): LiveConfig {
  const [config, setConfig] = useState<ConfigSnapshot | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // Subscribe before the first read so a change between the two is not lost.
    const unsubscribe = bridge.on.configChanged((e) => {
      if (live) setConfig(e.config);
    });
    bridge.config.get().then(
      (c) => {
        // An event may already have delivered a newer snapshot; keep it.
        if (live) setConfig((current) => current ?? c);
      },
      (e: unknown) => {
        if (live) setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => {
      live = false;
      unsubscribe();
    };
  }, [bridge]);
  return { config, error, update: setConfig };
}
