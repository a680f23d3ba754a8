/**
 * The composition root of the Electron main process: it decides nothing itself, it only builds the
 * services in order and connects them — data folder, locks, log, config, secrets, IPC, windows, tray.
 * Order matters: the single-instance lock is keyed on userData, so the data folder is set first;
 * the data-folder lock comes before anything writes there.
 */
import { join } from 'node:path';
import { app, clipboard, dialog, ipcMain, protocol, shell } from 'electron';
import type { BrowserWindow } from 'electron';
import type { UiLanguage } from '../shared/ipc/wire-types.ts';
import { createDictationApp } from './app/dictation-app.ts';
import type { DictationApp } from './app/dictation-app.ts';
import { handleAppProtocol, registerAppScheme } from './app/app-protocol.ts';
import { claimSingleInstance, hideDockIcon, onQuit, stayAliveWithoutWindows } from './app/lifecycle.ts';
import { format, messagesFor } from './app/messages.ts';
import { enablePortalShortcuts } from './app/wayland-shortcuts.ts';
import { prewarmSdk, sdkNeeded } from './app/sdk-prewarm.ts';
import { createAppTray } from './app/tray.ts';
import { trayDownloadTracker } from './app/tray-download.ts';
import type { AppTray } from './app/tray.ts';
import { createSecureWindow, installGlobalGuards } from './app/window-factory.ts';
import type { WindowFactoryDeps } from './app/window-factory.ts';
import type { WindowKind } from './app/window-policy.ts';
import { isAllowedExternalUrl } from './ipc/external-urls.ts';
import type { Broadcast } from './ipc/register.ts';
import { setupIpc } from './ipc/setup.ts';
import { historyApiOf, historyChangesOf } from './ipc/handlers/history.ts';
import { createSettingsApi } from './ipc/settings-services.ts';
import { electronFileDialogs } from './ipc/file-dialogs-electron.ts';
import { ModelManager } from './asr/model-manager.ts';
import { REMOTE_SPEECH_SECRET, verifyRemoteSpeech } from './asr/verify-remote-speech.ts';
import { preloadSdk } from './enhance/llm-client.ts';
import { VOCABULARY_DB_FILE, VocabularyStore } from './enhance/vocabulary-store.ts';
import { HistoryService } from './history/history-service.ts';
import { startRetentionSweeps } from './history/retention-schedule.ts';
import { TrustedSenders } from './ipc/trusted-senders.ts';
import { DataDirLockedError, acquireDataLock, lockFailedUnwritable } from './platform/data-lock.ts';
import type { DataLock } from './platform/data-lock.ts';
import { createFileLogger } from './platform/logger.ts';
import type { Logger } from './platform/logger.ts';
import { ConfigStore } from './settings/config-store.ts';
import { defaultDataDir } from './settings/data-dir.ts';
import { adoptFoundSecrets } from './settings/found-secrets.ts';
import { keyOriginResolver } from './settings/key-origin.ts';
import { SecretStore, SECRETS_FILE } from './settings/secrets.ts';
import { electronSafeStorage } from './settings/secrets-electron.ts';

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
const windows = new Map<WindowKind, BrowserWindow>();
let factoryDeps: WindowFactoryDeps | null = null;

/** Shows (creating if needed) the window of `kind`. */
function showWindow(kind: WindowKind): void {
  const existing = windows.get(kind);
  if (existing !== undefined && !existing.isDestroyed()) {
    existing.show();
    existing.focus();
    return;
  }
  if (factoryDeps === null) return; // not ready yet: the tray is not up either
  openWindow(kind, factoryDeps);
}

function openWindow(kind: WindowKind, deps: WindowFactoryDeps): BrowserWindow {
  const win = createSecureWindow(kind, deps);
  windows.set(kind, win);
  win.on('closed', () => {
    if (windows.get(kind) === win) windows.delete(kind);
  });
  return win;
}

if (claimSingleInstance(() => app.whenReady().then(() => showWindow('settings')))) {
  start().catch((err: unknown) => {
    // Last resort: something in start-up threw. Say so where the user looks, then exit non-zero.
    console.error('Tingxie failed to start:', err);
    dialog.showErrorBox(startupMessages().failedTitle, err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
}

async function start(): Promise<void> {
  let lock: DataLock;
  let lockProblem: string | null = null;
  try {
    lock = acquireDataLock(dataDir, { role: 'app' });
  } catch (err) {
    // A folder that cannot be written (read-only, full) cannot hold a lock file, and needs none: nothing
    // can write there. The app starts degraded (history browsable, records kept in memory) instead of not at all.
    if (lockFailedUnwritable(err)) {
      lockProblem = `${(err as NodeJS.ErrnoException).code}: ${(err as Error).message}`;
      lock = { path: '', owner: { pid: process.pid, hostname: '', startedAt: '', role: 'app' }, tookOverFrom: null, release: () => undefined };
    } else {
      const m = startupMessages();
      const message = err instanceof DataDirLockedError ? err.message : format(m.lockFailed, { dir: dataDir, error: String(err) });
      console.error(message);
      dialog.showErrorBox(m.lockedTitle, message);
      app.exit(1);
      return;
    }
  }

  const log = createFileLogger({ dir: logsDir, level: process.env.TINGXIE_LOG_LEVEL === 'debug' ? 'debug' : 'info' });
  log.info('starting', { version: app.getVersion(), electron: process.versions.electron, dataDir, pid: process.pid });
  if (lock.tookOverFrom) log.warn('took over a stale data-folder lock', { from: lock.tookOverFrom });
  if (lockProblem !== null) log.warn('the data folder cannot be written; starting without its lock, history read-only', { error: lockProblem });

  hideDockIcon();
  stayAliveWithoutWindows();
  installGlobalGuards(app, log.child('window'));

  // safeStorage answers only after 'ready'; the store is opened early only when config.json holds keys,
  // which must be in it before the file is backed up or rewritten.
  let openedSecrets: SecretStore | undefined;
  const openSecrets = async (plaintextConsent: boolean): Promise<SecretStore> => {
    await app.whenReady();
    openedSecrets ??= await SecretStore.open({ file: join(dataDir, SECRETS_FILE), safeStorage: electronSafeStorage(), plaintextConsent });
    return openedSecrets;
  };
  const config = await ConfigStore.open({
    dataDir,
    keepSecrets: async (found, c) => adoptFoundSecrets(found, c, await openSecrets(c.secrets.plaintext_consent), (m, f) => log.info(m, f)),
  });
  for (const issue of config.loadIssues) log.warn('config field fell back to its default', { ...issue });
  if (config.backupPath) log.warn('the original config.json was kept as a backup', { backupPath: config.backupPath });

  await app.whenReady();

  const secrets = await openSecrets(config.get().secrets.plaintext_consent);
  for (const issue of secrets.loadIssues) log.warn('secret store problem', { issue });
  // Each key is sent only to the server it was entered for; keys saved before this rule are bound to today's.
  await secrets.bindOrigins(keyOriginResolver(() => config.get())).catch((err: unknown) => log.error('could not bind API keys to their servers', { error: err }));

  const rendererDir = join(import.meta.dirname, '../renderer');
  // electron-vite dev sets ELECTRON_RENDERER_URL; an empty value (or a packaged app) means the built files.
  const devServerUrl = !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : undefined;
  const pages = devServerUrl === undefined ? { rendererDir } : { rendererDir, devServerUrl };
  const protocolLog = log.child('protocol');
  handleAppProtocol(protocol, rendererDir, (message, fields) => protocolLog.warn(message, fields));
  const trusted = new TrustedSenders(pages);
  const history = await HistoryService.open({
    dataDir,
    enabled: () => config.get().history.enabled,
    warn: (message) => log.warn(message),
  });
  const stopRetention = startRetentionSweeps(history, () => config.get().history.retention_days, log);

  // Dictation (services, controller, hotkeys, paste): windows, IPC and the tray are bound late, by reference.
  let ipcRef: { readonly broadcast: Broadcast } | null = null;
  let tray: AppTray | null = null;
  let dictation: DictationApp | null = null;
  try {
    dictation = await createDictationApp({
      dataDir,
      config,
      secrets,
      history,
      log,
      uiLanguage: () => resolveUiLanguage(config.get().ui.language),
      window: (kind) => windows.get(kind),
      broadcast: () => ipcRef?.broadcast ?? null,
      tray: () => tray,
      openOnboarding: () => showWindow('onboarding'),
    });
  } catch (err) {
    // Settings and History still work; the user is told why dictation does not.
    log.error('dictation could not start', { error: err });
    dialog.showErrorBox(messagesFor(resolveUiLanguage(config.get().ui.language)).startup.dictationUnavailableTitle, err instanceof Error ? err.message : String(err));
  }

  // Settings' services share the dictation graph's vocabulary database (one writer); without dictation they open their own.
  const vocabulary = dictation?.graph.vocabulary ?? openVocabularyOrMemory(join(dataDir, VOCABULARY_DB_FILE), log);
  const ownVocabulary = dictation?.graph.vocabulary === undefined || dictation.graph.vocabulary === null;
  // A model download shows on the tray ("Downloading base… 42%") until it ends.
  const trayDownload = trayDownloadTracker((patch) => tray?.update(patch));
  const settings = createSettingsApi({
    dataDir,
    config,
    secretValue: (name) => secrets.get(name),
    vocabulary,
    // Read at each download: a mirror changed in Settings or onboarding applies to the next one.
    models: new ModelManager({ dataDir, mirror: () => config.get().asr.local.models_mirror }),
    historyStore: history.store,
    history,
    dialogs: electronFileDialogs(),
    promptLanguage: () => resolveUiLanguage(config.get().ui.language),
    log: (message, fields) => log.warn(message, fields),
    onModelProgress: (name, download) => {
      ipcRef?.broadcast('models:progress', { name, download });
      trayDownload(name, download);
      if (download.state === 'done') dictation?.modelInstalled(name);
    },
  });
  const ipc = setupIpc(ipcMain, {
    historyChanges: historyChangesOf(history),
    services: {
      config,
      secrets,
      history: historyApiOf(history),
      ...(dictation === null ? {} : { dictation: dictation.ipc }),
      settings,
      onboarding: {
        open: () => showWindow('onboarding'),
        close: () => windows.get('onboarding')?.close(),
        verifySpeech: () => verifyRemoteSpeech(config.get(), secrets.get(REMOTE_SPEECH_SECRET)),
      },
      app: {
        version: app.getVersion(),
        platform: process.platform,
        dataDir,
        uiLanguage: () => resolveUiLanguage(config.get().ui.language),
        openExternal: (url) => shell.openExternal(url),
        openLogs: async () => {
          const error = await shell.openPath(logsDir);
          if (error !== '') throw new Error(`cannot open ${logsDir}: ${error}`);
        },
        copyText: (text) => clipboard.writeText(text),
      },
    },
    trusted,
    log: log.child('ipc'),
  });
  ipcRef = ipc;
  const stopConfigLog = config.onChange((e) => log.info('config changed', { keyPath: e.keyPath }));
  // The tray speaks the UI language, and switches when the setting changes.
  const trayLabels = () => messagesFor(resolveUiLanguage(config.get().ui.language)).tray;
  const stopTrayLanguage = config.onChange(({ keyPath }) => {
    if (keyPath === '' || keyPath === 'ui' || keyPath.startsWith('ui.')) tray?.setLabels(trayLabels());
  });

  const windowLog = log.child('window');
  factoryDeps = {
    // DevTools only in development: a packaged app's windows cannot open them.
    paths: { preload: join(import.meta.dirname, '../preload/index.cjs'), devTools: !app.isPackaged },
    pages,
    trustSender: (contents, kind) => trusted.add(contents, kind),
    isAllowedExternalUrl: (url) => isAllowedExternalUrl(url),
    log: (level, message, fields) => windowLog.log(level, message, fields),
  };
  // The capture window (microphone) and the panel are created hidden up front, so the first
  // dictation does not wait for a renderer to boot; Settings and History open on demand.
  openWindow('capture', factoryDeps);
  openWindow('panel', factoryDeps);
  openWindow('indicator', factoryDeps);

  try {
    const actions = {
      'open-settings': () => showWindow('settings'),
      'open-history': () => showWindow('history'),
      'open-logs': () => void shell.openPath(logsDir),
      quit: () => app.quit(),
    };
    tray = createAppTray({
      assetsDir: join(app.getAppPath(), 'assets'),
      handlers: dictation?.trayHandlers(actions) ?? { actions: { ...actions, 'enhance-selection': () => undefined, 'retry-last': () => undefined } },
      labels: trayLabels(),
      initial: { status: 'idle', ...dictation?.trayState() },
    });
  } catch (err) {
    // Some Linux desktops have no tray; the app stays reachable by launching it again (→ Settings).
    log.error('could not create the tray icon', { error: err });
    showWindow('settings');
  }
  // A repaired config.json is shown to the user, not just logged: Settings lists the fields that were reset.
  if (process.env.TINGXIE_OPEN_SETTINGS === '1' || config.loadIssues.length > 0) showWindow('settings');

  dictation?.start().catch((err: unknown) => log.error('dictation start-up step failed', { error: err }));

  onQuit(
    async () => {
      log.info('quitting');
      stopConfigLog();
      stopTrayLanguage();
      stopRetention();
      await dictation?.close();
      ipc.dispose();
      if (ownVocabulary) vocabulary.close();
      await history.close();
      tray?.destroy();
      lock.release();
    },
    (err) => log.error('shutdown step failed', { error: err }),
  );
  log.info('ready', { windows: [...windows.keys()] });
  // After "ready", on a later turn: the LLM SDK's import (~250 ms) is paid now, not by the first dictation.
  prewarmSdk({ needed: () => sdkNeeded(config.get()), load: preloadSdk, log: (m, f) => log.info(m, f) });
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

/**
 * The start-up dialogs' strings: before the config is read only the OS language is known (the
 * config may be what failed), so these follow the system like `ui.language: system` does.
 */
function startupMessages(): ReturnType<typeof messagesFor>['startup'] {
  // getLocale() is only reliable after 'ready'; the preferred system languages are known before it.
  const os = app.getPreferredSystemLanguages()[0] ?? app.getLocale();
  return messagesFor(os.toLowerCase().startsWith('zh') ? 'zh' : 'en').startup;
}

function resolveUiLanguage(setting: 'system' | UiLanguage): UiLanguage {
  if (setting !== 'system') return setting;
  return app.getLocale().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
