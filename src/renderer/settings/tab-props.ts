import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import type { ConfigSaver } from '../hooks/use-config-saver.ts';

/** What every settings tab receives: the live config, the saver (with per-field errors), the bridge. */
export interface TabProps {
  readonly config: ConfigSnapshot;
  readonly saver: ConfigSaver;
  readonly bridge: TingxieBridge;
}
