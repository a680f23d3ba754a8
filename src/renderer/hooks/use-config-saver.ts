import { useCallback, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { JsonValue } from '../../shared/ipc/json-value.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { errorText } from '../lib/errors.ts';

/** Saves single settings and remembers the last error per key path (shown at that field). */
export interface ConfigSaver {
  readonly errors: Readonly<Record<string, string>>;
  /** Resolves true when main accepted and saved the value. */
  readonly save: (keyPath: string, value: JsonValue) => Promise<boolean>;
}

/** A saver over `config:set`; `onSaved` receives the new snapshot. */
export function useConfigSaver(bridge: TingxieBridge, onSaved: (config: ConfigSnapshot) => void): ConfigSaver {
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const save = useCallback(
    async (keyPath: string, value: JsonValue): Promise<boolean> => {
      try {
        const config = await bridge.config.set({ keyPath, value });
        setErrors(({ [keyPath]: _dropped, ...rest }) => rest);
        onSaved(config);
        return true;
      } catch (e) {
        setErrors((prev) => ({ ...prev, [keyPath]: errorText(e) }));
        return false;
      }
    },
    [bridge, onSaved],
  );
  return { errors, save };
}
