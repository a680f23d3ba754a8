/** The IPC services of the running app (config, secrets, history, dictation, settings, onboarding, app) over the validating dispatcher. */
import { app, clipboard, ipcMain, shell } from 'electron';
import type { UiLanguage } from '../../shared/ipc/wire-types.ts';
import { ModelManager } from '../asr/model-manager.ts';
import type { VocabularyStore } from '../enhance/vocabulary-store.ts';
import type { HistoryService } from '../history/history-service.ts';
import { electronFileDialogs } from '../ipc/file-dialogs-electron.ts';
import { historyApiOf, historyChangesOf } from '../ipc/handlers/history.ts';
import type { Broadcast } from '../ipc/register.ts';
import { createSettingsApi } from '../ipc/settings-services.ts';
import { setupIpc } from '../ipc/setup.ts';
import type { TrustedSenders } from '../ipc/trusted-senders.ts';
import type { Logger } from '../platform/logger.ts';
import type { ConfigStore } from '../settings/config-store.ts';
import type { SecretStore } from '../settings/secrets.ts';
import type { Recordings } from '../dictation/recordings/recordings.ts';
import { recentAppsOf } from '../ipc/handlers/app-rules.ts';
import { textRulesApiOf } from '../ipc/handlers/text-rules.ts';
import type { DictationApp } from './dictation-app.ts';
import { learningServices } from './learning-wiring.ts';
import { APP_MODEL_CATALOG, llmModelInstalled } from './llm-models.ts';
import { createOnboardingService } from './onboarding-service.ts';
import { trayDownloadTracker } from './tray-download.ts';
import type { TrayState } from './tray-menu.ts';
import type { WindowRegistry } from './window-registry.ts';

/** What {@link setupAppIpc} serves. */
export interface AppIpcDeps {
  readonly dataDir: string;
  readonly logsDir: string;
  readonly config: ConfigStore;
  readonly secrets: SecretStore;
  readonly history: HistoryService;
  /** The History's recordings (play, save, re-transcribe; Settings' space used). */
  readonly recordings: Recordings;
  /** The vocabulary Settings edits (the dictation graph's when dictation runs: one writer). */
  readonly vocabulary: VocabularyStore;
  readonly dictation: DictationApp | null;
  readonly trusted: TrustedSenders;
  readonly windows: Pick<WindowRegistry, 'show' | 'get'>;
  readonly uiLanguage: () => UiLanguage;
  /** The broadcaster once IPC is up (set from this function's result). */
  readonly broadcast: () => Broadcast | null;
  /** Tray updates (null when there is no tray). */
  readonly tray: () => { update(patch: Partial<TrayState>): void } | null;
  readonly log: Logger;
}

/** Registers every IPC channel; the result broadcasts events and is disposed at quit. */
export function setupAppIpc(deps: AppIpcDeps): ReturnType<typeof setupIpc> {
  const { dataDir, logsDir, config, secrets, history, dictation, log } = deps;
  // A model download shows on the tray ("Downloading base… 42%") until it ends.
  const trayDownload = trayDownloadTracker((patch) => deps.tray()?.update(patch));
  const settings = createSettingsApi({
    dataDir,
    config,
    secretValue: (name) => secrets.get(name),
    vocabulary: deps.vocabulary,
    // Read at each download: a mirror changed in Settings or onboarding applies to the next one.
    // Speech models and the built-in LLM engine's GGUF models (llm-models.ts): one manager, one set of channels.
    models: new ModelManager({ dataDir, mirror: () => config.get().asr.local.models_mirror, catalog: APP_MODEL_CATALOG }),
    historyStore: history.store,
    history,
    dialogs: electronFileDialogs(),
    promptLanguage: deps.uiLanguage,
    log: (message, fields) => log.warn(message, fields),
    onModelProgress: (name, download) => {
      deps.broadcast()?.('models:progress', { name, download });
      trayDownload(name, download);
      if (download.state === 'done') {
        // An LLM model becomes the local provider's model; a speech model re-checks readiness and warms up.
        void llmModelInstalled(config, name).then(
          (llm) => (llm ? undefined : dictation?.modelInstalled(name)),
          (err: unknown) => log.warn('could not select the downloaded LLM model', { name, error: err }),
        );
      }
    },
  });
  return setupIpc(ipcMain, {
    historyChanges: historyChangesOf(history),
    services: {
      config,
      secrets,
      // The History edit path feeds learning from edits (learning-wiring.ts); `learning:*` answers the panel and History.
      ...learningServices({ dataDir, config, vocabulary: deps.vocabulary, dictation, history: historyApiOf(history), warn: (m) => log.warn(m) }),
      ...(dictation === null ? {} : { dictation: dictation.ipc }),
      settings,
      recordings: deps.recordings,
      appRules: { recentApps: async () => recentAppsOf(await history.store.readFile('active')) },
      textRules: textRulesApiOf(dataDir, () => config.get()),
      onboarding: createOnboardingService({ config, secrets, dictation, windows: deps.windows, broadcast: deps.broadcast }),
      app: {
        version: app.getVersion(),
        platform: process.platform,
        dataDir,
        uiLanguage: deps.uiLanguage,
        openExternal: (url) => shell.openExternal(url),
        openLogs: async () => {
          const error = await shell.openPath(logsDir);
          if (error !== '') throw new Error(`cannot open ${logsDir}: ${error}`);
        },
        copyText: (text) => clipboard.writeText(text),
      },
    },
    trusted: deps.trusted,
    log: log.child('ipc'),
  });
}
