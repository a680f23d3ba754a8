/**
 * What the IPC handlers need from the rest of main, injected by the composition root (and by tests,
 * which pass the real stores over a temp folder).
 */
import type { ConfigStore } from '../settings/config-store.ts';
import type { SecretStore } from '../settings/secrets.ts';
import type { UiLanguage } from '../../shared/ipc/wire-types.ts';

/** The config store surface the handlers use. */
export type ConfigService = Pick<ConfigStore, 'get' | 'set' | 'path' | 'loadIssues' | 'backupPath'>;

/** The secret store surface the handlers use (never `get`: values do not go back to a renderer). */
export type SecretService = Pick<SecretStore, 'backend' | 'loadIssues' | 'set' | 'delete' | 'list'>;

/** App-level facts and the two OS actions (Electron's shell in the app, recorders in tests). */
export interface AppService {
  readonly version: string;
  readonly platform: string;
  readonly dataDir: string;
  /** The UI language after resolving `ui.language: "system"` against the OS locale. */
  uiLanguage(): UiLanguage;
  /** Opens an already allow-listed https URL in the system browser. */
  openExternal(url: string): Promise<void>;
  /** Shows the logs folder in the file manager. */
  openLogs(): Promise<void>;
}

/** Everything the handlers delegate to. */
export interface Services {
  readonly config: ConfigService;
  readonly secrets: SecretService;
  readonly app: AppService;
}
