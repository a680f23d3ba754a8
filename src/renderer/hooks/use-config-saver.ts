import { useCallback, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { JsonValue } from '../../shared/ipc/json-value.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { isBridgeCallError } from '../../shared/ipc/envelope.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { validationTexts } from '../lib/validation-text.ts';

/** Saves single settings and remembers the last error per key path (shown at that field). */
export interface ConfigSaver {
  readonly errors: Readonly<Record<string, string>>;
  /** Resolves true when main accepted and saved the value; `field` (the field's label) is named in the error. */
  readonly save: (keyPath: string, value: JsonValue, field?: string) => Promise<boolean>;
}

/** A saver over `config:set`; `onSaved` receives the new snapshot. */
export function useConfigSaver(bridge: TingxieBridge, onSaved: (config: ConfigSnapshot) => void): ConfigSaver {
  const { lang } = useI18n();
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const save = useCallback(
    async (keyPath: string, value: JsonValue, field?: string): Promise<boolean> => {
      try {
        const config = await bridge.config.set({ keyPath, value });
        setErrors(({ [keyPath]: _dropped, ...rest }) => rest);
        onSaved(config);
        return true;
      } catch (e) {
        // The schema's issues in the UI language (validation-text.ts); other failures as they are.
        const text = isBridgeCallError(e) && e.issues?.some((i) => i.code !== undefined) ? validationTexts(e.issues, lang, keyPath, field) : errorText(e);
        setErrors((prev) => ({ ...prev, [keyPath]: text }));
        return false;
      }
    },
    [bridge, onSaved, lang],
  );
  return { errors, save };
}
