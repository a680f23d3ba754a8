import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { valueAt } from '../lib/config-view.ts';

/** The enabled hold-to-talk key (the first one set to true in `hotkeys`), '' when none is. */
export function holdKeyOf(config: ConfigSnapshot): string {
  const hk = valueAt(config, 'hotkeys');
  if (hk !== null && typeof hk === 'object' && !Array.isArray(hk)) return Object.entries(hk).find(([, v]) => v === true)?.[0] ?? '';
  return '';
}
