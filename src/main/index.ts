/**
 * The composition root of the Electron main process: it decides nothing itself, it only builds the
 * services in order and connects them — data folder, locks, log, config, secrets, IPC, windows, tray.
 * Order matters: the single-instance lock is keyed on userData, so the data folder is set first;
 * the data-folder lock comes before anything writes there. Each step is a factory in app/.
 */
import { join } from 'node:path';
import { app, dialog, protocol } from 'electron';
import type { UiLanguage } from '../shared/ipc/wire-types.ts';
import { setupAppIpc } from './app/app-ipc.ts';
import { registerAppScheme } from './app/app-protocol.ts';
import { createTrayOrSettings, followUiLanguage } from './app/app-tray.ts';
import { holdDataFolder, openAppLog, type HeldDataFolder } from './app/data-folder-lock.ts';
import type { DictationApp } from './app/dictation-app.ts';
import { openDictation } from './app/dictation-startup.ts';
import { openRecordings } from './app/recordings-wiring.ts';
import { claimSingleInstance, hideDockIcon, onQuit, stayAliveWithoutWindows } from './app/lifecycle.ts';
import { messagesFor } from './app/messages.ts';
import { serveRenderer, windowFactoryDeps } from './app/renderer-serving.ts';
import { prewarmSdk, sdkNeeded } from './app/sdk-prewarm.ts';
import { openConfigAndSecrets } from './app/settings-stores.ts';
import { resolveUiLanguage, startupMessages } from './app/startup-language.ts';
import type { AppTray } from './app/tray.ts';
import { enablePortalShortcuts } from './app/wayland-shortcuts.ts';
import { installGlobalGuards } from './app/window-factory.ts';
import { createWindowRegistry } from './app/window-registry.ts';
import type { Broadcast } from './ipc/register.ts';
import { preloadSdk } from './enhance/llm-client.ts';
import { VOCABULARY_DB_FILE, VocabularyStore } from './enhance/vocabulary-store.ts';
import { HistoryService } from './history/history-service.ts';
import { startRetentionSweeps } from './history/retention-schedule.ts';
import type { Logger } from './platform/logger.ts';
import { defaultDataDir } from './settings/data-dir.ts';

const dataDir = defaultDataDir();
const logsDir = join(dataDir, 'logs');
// Chromium's own files (cache, local storage) go in a subfolder, keeping the data folder readable.
app.setPath('userData', dataDir);
app.setPath('sessionData', join(dataDir, 'session'));
// Wayland: global shortcuts through the desktop's portal (a Chromium switch, so before 'ready').
enablePortalShortcuts(app.commandLine, process.platform, process.env);
// Built pages are served on app://tingxie/, never file:// (app-protocol.ts); the scheme's privileges must
// be registered before 'ready'.
registerAppScheme(protocol);

/** Open windows by kind (at most one of each). */
const windows = createWindowRegistry();

if (claimSingleInstance(() => app.whenReady().then(() => windows.show('settings')))) {
  start().catch((err: unknown) => {
    // Last resort: something in start-up threw. Say so where the user looks, then exit non-zero.
    console.error('Tingxie failed to start:', err);
    dialog.showErrorBox(startupMessages().failedTitle, err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
}

async function start(): Promise<void> {
  const held = holdDataFolder(dataDir);
  if (held === null) return;
  const log = openAppLog(logsDir, dataDir, held);
  hideDockIcon();
  stayAliveWithoutWindows();
  installGlobalGuards(app, log.child('window'));
  const { config, secrets } = await openConfigAndSecrets(dataDir, log);
  const uiLanguage = (): UiLanguage => resolveUiLanguage(config.get().ui.language);
  // The History's player reads a record's audio by key through the app's protocol (app/recording-route.ts).
  let recordingWav: ((key: string) => Uint8Array | null) | null = null;
  const served = serveRenderer(join(import.meta.dirname, '../renderer'), log, (key) => recordingWav?.(key) ?? null);
  const history = await HistoryService.open({ dataDir, enabled: () => config.get().history.enabled, warn: (message) => log.warn(message) });
  const stopRetention = startRetentionSweeps(history, () => config.get().history.retention_days, log);
  let dictation: DictationApp | null = null;
  const recordings = openRecordings({ dataDir, config, history, asr: () => dictation?.graph.asr ?? null, log });
  recordingWav = (key) => recordings.recordings.wav(key);

  // Dictation (services, controller, hotkeys, paste): windows, IPC and the tray are bound late, by reference.
  let ipcRef: { readonly broadcast: Broadcast } | null = null;
  let tray: AppTray | null = null;
  dictation = await openDictation({
    dataDir,
    config,
    secrets,
    history,
    log,
    uiLanguage,
    window: (kind) => windows.get(kind),
    broadcast: () => ipcRef?.broadcast ?? null,
    tray: () => tray,
    openOnboarding: () => windows.show('onboarding'),
  });
  // Settings' services share the dictation graph's vocabulary database (one writer); without dictation they open their own.
  const vocabulary = dictation?.graph.vocabulary ?? openVocabularyOrMemory(join(dataDir, VOCABULARY_DB_FILE), log);
  const ownVocabulary = dictation?.graph.vocabulary === undefined || dictation.graph.vocabulary === null;
  const ipc = setupAppIpc({ dataDir, logsDir, config, secrets, history, recordings: recordings.recordings, vocabulary, dictation, trusted: served.trusted, windows, uiLanguage, broadcast: () => ipcRef?.broadcast ?? null, tray: () => tray, log });
  ipcRef = ipc;
  const stopConfigLog = config.onChange((e) => log.info('config changed', { keyPath: e.keyPath }));
  // The tray speaks the UI language, and switches when the setting changes.
  const trayLabels = () => messagesFor(uiLanguage()).tray;
  const stopTrayLanguage = followUiLanguage((l) => config.onChange(l), () => tray, trayLabels);

  windows.ready(windowFactoryDeps(join(import.meta.dirname, '../preload/index.cjs'), served, log));
  // The capture window (microphone) and the panel are created hidden up front, so the first
  // dictation does not wait for a renderer to boot; Settings and History open on demand.
  windows.open('capture');
  windows.open('panel');
  windows.open('indicator');
  tray = createTrayOrSettings({ logsDir, dictation, labels: trayLabels(), windows, log });
  // A repaired config.json is shown to the user, not just logged: Settings lists the fields that were reset.
  if (process.env.TINGXIE_OPEN_SETTINGS === '1' || config.loadIssues.length > 0) windows.show('settings');

  dictation?.start().catch((err: unknown) => log.error('dictation start-up step failed', { error: err }));

  onQuit(
    async () => {
      log.info('quitting');
      stopConfigLog();
      stopTrayLanguage();
      stopRetention();
      recordings.stop();
      await shutDown({ dictation, ipc, vocabulary: ownVocabulary ? vocabulary : null, history, tray, held });
    },
    (err) => log.error('shutdown step failed', { error: err }),
  );
  log.info('ready', { windows: windows.kinds() });
  // After "ready", on a later turn: the LLM SDK's import (~250 ms) is paid now, not by the first dictation.
  prewarmSdk({ needed: () => sdkNeeded(config.get()), load: preloadSdk, log: (m, f) => log.info(m, f) });
}

/** The last steps of quit, in order: dictation, IPC, the vocabulary opened here (if any), history, tray, the data-folder lock. */
async function shutDown(parts: { dictation: DictationApp | null; ipc: { dispose(): void }; vocabulary: VocabularyStore | null; history: HistoryService; tray: AppTray | null; held: HeldDataFolder }): Promise<void> {
  await parts.dictation?.close();
  parts.ipc.dispose();
  parts.vocabulary?.close();
  await parts.history.close();
  parts.tray?.destroy();
  parts.held.lock.release();
}

/** The vocabulary database, or an empty in-memory one when the folder refuses it (read-only): Settings still opens. */
function openVocabularyOrMemory(file: string, log: Logger): VocabularyStore {
  try {
    return VocabularyStore.open(file);
  } catch (err) {
    log.warn('the vocabulary database cannot be opened; Settings shows an empty, unsaved vocabulary', { error: err });
    return VocabularyStore.open(':memory:');
  }
}
