/**
 * Shapes that cross IPC as responses and events. src/shared cannot import src/main, so these are the
 * wire views of main's types (the handlers convert; structural typing keeps them honest).
 */
import type { Notice, NoticeLevel } from '../notices/notice.ts';
import type { JsonValue } from './json-value.ts';

/** The whole config as plain JSON (keys as in config.json, e.g. `ai_enhance.conversation_history`). */
export type ConfigSnapshot = { readonly [key: string]: JsonValue };

/** One config field that was rejected: dotted key path and a readable reason. */
export interface ConfigIssueInfo {
  readonly path: string;
  readonly message: string;
}

/** What `config:issues` returns: fields that fell back to defaults when config.json was loaded. */
export interface ConfigIssuesInfo {
  /** Absolute path of config.json. */
  readonly path: string;
  readonly loadIssues: readonly ConfigIssueInfo[];
  /** Where the original, unreadable config was kept, if it had to be replaced. */
  readonly backupPath: string | null;
}

/** Where secrets live: the OS keyring, this process's memory only, or plaintext with the user's consent. */
export type SecretBackendName = 'os-keyring' | 'memory' | 'plaintext-consented';

/** What `secrets:status` returns: names and persistence, never the values. */
export interface SecretsStatus {
  readonly backend: SecretBackendName;
  /** `savedFor`: the key was entered for that server and its service now points elsewhere, so it is not sent until entered again. */
  readonly secrets: readonly { readonly name: string; readonly persisted: boolean; readonly savedFor?: string }[];
  /** Problems met reading the secrets file (e.g. a key the current keyring cannot decrypt). */
  readonly issues: readonly string[];
}

/** The UI languages Tingxie ships. */
export type UiLanguage = 'en' | 'zh';

/** What `app:info` returns. */
export interface AppInfo {
  readonly version: string;
  /** `process.platform` of the main process (darwin, win32, linux, …). */
  readonly platform: string;
  readonly dataDir: string;
  /** The UI language after resolving "auto" against the OS locale. */
  readonly uiLanguage: UiLanguage;
}

/** Payload of the `config:changed` event. */
export interface ConfigChangedEvent {
  /** The key path that was set (`''` when the whole config was replaced, e.g. on reload). */
  readonly keyPath: string;
  readonly config: ConfigSnapshot;
}

/** Payload of the `app:notice` event: something the user should see (e.g. config fell back to defaults). */
export interface AppNotice {
  readonly level: NoticeLevel;
  /** What happened, as a code the window translates (see shared/notices). */
  readonly notice: Notice;
}

/**
 * Sent after the history changed on disk, so an open History Browser can refresh. `change` mirrors
 * the store's event types; `keys` names the records concerned where that is cheap to say.
 */
export interface HistoryChangedEvent {
  /** `external`: another program edited the history files (the index took it in). */
  readonly change: 'appended' | 'updated' | 'deleted' | 'rotated' | 'added' | 'cleared' | 'external';
  readonly keys: readonly string[];
}
