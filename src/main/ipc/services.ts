/**
 * What the IPC handlers need from the rest of main, injected by the composition root (and by tests,
 * which pass the real stores over a temp folder).
 */
import type { MicTestResult, PermissionId, PermissionReport, SpeechCheckResult } from '../../shared/ipc/onboarding-contract.ts';
import type { LearnAcceptResult, LearnProposal } from '../../shared/ipc/learning-contract.ts';
import type { ConfigStore } from '../settings/config-store.ts';
import type { RecordingsApi } from './handlers/recordings.ts';
import type { AppRulesApi } from './handlers/app-rules.ts';
import type { TextRulesApi } from './handlers/text-rules.ts';
import type { SecretStore } from '../settings/secrets.ts';
import type { UiLanguage } from '../../shared/ipc/wire-types.ts';
import type { DictationIpcService } from '../dictation/dictation-service.ts';
import type { HistoryMatchCount, HistoryPage, HistoryQuery, StatsQuery, UsageStats } from '../../shared/history/query.ts';
import type { RecordUpdate, StoredRecord } from '../../shared/history/record.ts';
import type { FileActionResult, HistoryImportResult, ModeItem, ModelItem, PromptCacheReport, ProviderCheckResult, ProviderModelList, ProviderPreset, VocabImportResult, VocabItem } from '../../shared/ipc/settings-types.ts';

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
  /** Puts `text` on the system clipboard. */
  copyText(text: string): void;
}

/** What the History Browser may do with the history (`historyApiOf` in src/main/ipc/handlers/history.ts adapts the service). */
export interface HistoryApi {
  query(q: HistoryQuery): Promise<HistoryPage>;
  /** Total, page count and facets of a query, apart from its rows. */
  countMatches(q: HistoryQuery): Promise<HistoryMatchCount>;
  update(key: string, fields: RecordUpdate): Promise<StoredRecord | null>;
  delete(key: string): Promise<boolean>;
  /** Deletes the records of one local day; returns how many. */
  deleteDay(day: string, tzOffsetMinutes: number): Promise<number>;
  deleteAll(): Promise<void>;
  stats(q: StatsQuery): Promise<UsageStats>;
}

/** What the Settings window may do beyond config and secrets (src/main/ipc/settings-services.ts builds it). */
export interface SettingsApi {
  vocabularyList(filter: string): readonly VocabItem[];
  vocabularyAdd(input: { readonly wrong: string; readonly right: string; readonly note?: string | undefined }): VocabItem;
  vocabularyUpdate(id: number, fields: { readonly wrong?: string | undefined; readonly right?: string | undefined; readonly note?: string | undefined }): VocabItem | null;
  vocabularyRemove(id: number): boolean;
  /** Shows a save dialog and writes the vocabulary there. */
  vocabularyExport(): Promise<FileActionResult>;
  /** Shows an open dialog and imports the pairs in that file. */
  vocabularyImport(): Promise<VocabImportResult>;
  modelsList(): readonly ModelItem[];
  /** Starts a download in the background (progress shows in `modelsList`). */
  modelsDownload(name: string): void;
  modelsCancel(name: string): void;
  modelsDelete(name: string): boolean;
  modesList(): Promise<readonly ModeItem[]>;
  /** Validates and writes one mode file (atomically); throws a readable error when the text is broken. */
  modesSave(id: string, text: string): Promise<ModeItem>;
  /** Removes a user-added mode's file (false when there was none); refuses a built-in mode. */
  modesDelete(id: string): Promise<boolean>;
  /** Sends a real dictation's request to the provider (verify-provider.ts). */
  providersVerify(providerId: string): Promise<ProviderCheckResult>;
  /** The provider's own model list (`GET /models`), or why there is none. */
  providersModels(providerId: string): Promise<ProviderModelList>;
  /** One preset per provider kind, from the profiles. */
  providersPresets(): readonly ProviderPreset[];
  /** Whether the default provider's prompt is long enough for its cache. */
  providersPromptReport(): Promise<PromptCacheReport>;
  historyExport(format: 'jsonl' | 'csv'): Promise<FileActionResult>;
  historyImport(): Promise<HistoryImportResult>;
}

/** The onboarding window's calls (index.ts builds it; handlers/onboarding.ts wraps it). */
export interface OnboardingService {
  /** Shows the onboarding window (Settings › Speech "Set up again"). */
  open(): void;
  /** Closes the onboarding window (its Done / Skip). */
  close(): void;
  /** One real request to the remote transcription endpoint (asr/verify-remote-speech.ts). */
  verifySpeech(): Promise<SpeechCheckResult>;
  /** Records 2 s through the capture window (levels go out as `onboarding:mic-level`) and returns the audio. */
  micTest(): Promise<MicTestResult>;
  /** The live permission checks of this OS (app/onboarding-permissions.ts). */
  permissions(): Promise<PermissionReport>;
  /** Opens the system pane (or the OS prompt) for one permission; false where there is none. */
  openPermission(id: PermissionId): Promise<boolean>;
  /** While on, the hold-to-talk key is reported (`onboarding:key`) instead of starting a dictation. */
  watchKeys(on: boolean): void;
}

/** Learning vocabulary pairs from edits (enhance/edit-learning/edit-learner.ts behind it). */
export interface LearningService {
  propose(before: string, after: string): readonly LearnProposal[];
  accept(p: { readonly wrong: string; readonly right: string; readonly kind?: LearnProposal['kind'] | undefined; readonly always: boolean }): LearnAcceptResult;
}

/** Everything the handlers delegate to. */
export interface Services {
  readonly config: ConfigService;
  readonly secrets: SecretService;
  readonly app: AppService;
  readonly history: HistoryApi;
  /** Absent where no dictation runs (CLI-style set-ups, most tests): its channels then fail cleanly. */
  readonly dictation?: DictationIpcService;
  /** Absent where the settings services are not built: their channels then fail cleanly. */
  readonly settings?: SettingsApi;
  /** Absent where there is no onboarding window (CLI-style set-ups, most tests): its channels then fail cleanly. */
  readonly onboarding?: OnboardingService;
  /** Absent where there is no vocabulary to learn into: its channels then fail cleanly. */
  readonly learning?: LearningService;
  /** Absent where the recordings are not built (most tests): their channels then fail cleanly. */
  readonly recordings?: RecordingsApi;
  /** Absent where there is no history to read apps from: the rules editor then lists none. */
  readonly appRules?: AppRulesApi;
  /** Absent where there is no data folder to keep rules in: its channels then fail cleanly. */
  readonly textRules?: TextRulesApi;
}
