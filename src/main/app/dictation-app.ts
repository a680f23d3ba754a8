/**
 * Dictation in the running app: builds the service graph and the controller, and connects them to
 * Electron — the capture window (configure + frames), the panel and indicator windows, start/stop
 * sounds, hotkeys, paste, the tray's dictation items, crash recovery at start, macOS permissions and
 * launch at login. index.ts creates it and hands it the windows. This file is the composition only:
 * each concern is its own factory in this folder, and every decision lives in the pure or
 * Node-testable modules those connect.
 */
import { join } from 'node:path';
import { app, dialog, utilityProcess } from 'electron';
import type { BrowserWindow } from 'electron';
import type { CaptureStatus } from '../../shared/ipc/dictation-types.ts';
import type { UiLanguage } from '../../shared/ipc/wire-types.ts';
import type { Notice } from '../../shared/notices/notice.ts';
import type { EngineWarmUp } from '../asr/engine-warm-up.ts';
import { utilityHostLauncher, type UtilityFork } from '../asr/host-launcher.ts';
import { utilityLlmLauncher, type UtilityForkFn } from '../enhance/local-llm/llm-launcher.ts';
import type { SpeechReadiness } from '../asr/speech-readiness.ts';
import type { DictationController } from '../dictation/controller.ts';
import { openServiceGraph, type ServiceGraph } from '../dictation/service-graph.ts';
import type { SecretReader } from '../enhance/enhancer.ts';
import type { HistoryService } from '../history/history-service.ts';
import type { Broadcast } from '../ipc/register.ts';
import type { DictationIpcService } from '../dictation/dictation-service.ts';
import { disposeKeystrokes } from '../platform/keystroke.ts';
import type { Logger } from '../platform/logger.ts';
import type { ConfigStore } from '../settings/config-store.ts';
import { createAppController } from './app-controller.ts';
import { createNotifier } from './app-notices.ts';
import { warmEngine, watchSpeechModel } from './app-warm-up.ts';
import { createAppCapture } from './capture-wiring.ts';
import { reactToConfigChanges } from './config-reactions.ts';
import { dictationEventFanOut } from './dictation-events.ts';
import { dictationIpc } from './dictation-ipc.ts';
import { dictationTray, type RootTrayActions } from './dictation-tray.ts';
import { enhanceSelectionFlow } from './enhance-selection.ts';
import { createDictationHotkeys } from './hotkey-wiring.ts';
import type { AppHotkeys } from './hotkeys.ts';
import { createIndicatorControl } from './indicator-control.ts';
import { createLastDictation } from './last-dictation.ts';
import { launchAtLoginSync } from './login-item-sync.ts';
import { messagesFor, noticeMessage } from './messages.ts';
import { createMicTester, type MicTester } from './mic-test.ts';
import { panelVisibility } from './panel-visibility.ts';
import { createPasteOutput } from './paste-output.ts';
import { offerRecovery, runStartupChecks } from './recovery-offer.ts';
import { watchStorage } from './storage-notices.ts';
import type { TrayState } from './tray-menu.ts';
import type { TrayHandlers } from './tray.ts';
import { trayProblems } from './tray-problems.ts';

/** What the dictation wiring needs from the composition root. */
export interface DictationAppDeps {
  readonly dataDir: string;
  readonly config: ConfigStore;
  readonly secrets: SecretReader;
  readonly history: HistoryService;
  readonly log: Logger;
  readonly uiLanguage: () => UiLanguage;
  /** The open window of a kind, if any. */
  readonly window: (kind: 'capture' | 'panel' | 'indicator') => BrowserWindow | undefined;
  /** Sends an event to every trusted window (set once IPC is up). */
  readonly broadcast: () => Broadcast | null;
  /** Tray updates (null when there is no tray). */
  readonly tray: () => { update(patch: Partial<TrayState>): void } | null;
  /** Shows the onboarding window: where a new user (or one whose speech engine is unusable) picks one. */
  readonly openOnboarding: () => void;
}

/** The dictation part of the running app. */
export interface DictationApp {
  readonly controller: DictationController;
  readonly graph: ServiceGraph;
  readonly ipc: DictationIpcService;
  readonly hotkeys: AppHotkeys;
  /** The setup guide's 2-second microphone test, through the capture window. */
  readonly micTest: MicTester;
  /** The capture window's last ready/error report (the setup guide's microphone check). */
  captureStatus(): CaptureStatus | null;
  /** Tray item handlers (the composition root adds Settings/History/Logs/Quit). */
  trayHandlers(actions: RootTrayActions): TrayHandlers;
  /** The tray's dictation fields from the config and the controller now. */
  trayState(): Partial<TrayState>;
  /** After the windows exist: capture and engine warm-up, hotkeys, speech readiness, permissions, login item, recovery offer. */
  start(): Promise<void>;
  /** A model download finished: the speech readiness and the warm engine may change. */
  modelInstalled(name: string): void;
  close(): Promise<void>;
}

/** What start leaves running, filled in step by step so close stops whatever did start. */
interface Running {
  engineWarmUp: EngineWarmUp | null;
  readiness: SpeechReadiness | null;
  stopStorage: () => void;
}

/** The service graph of the app: the local engine runs in Electron's utilityProcess. */
function openAppServiceGraph(deps: DictationAppDeps, log: Logger): Promise<ServiceGraph> {
  return openServiceGraph({
    dataDir: deps.dataDir,
    config: () => deps.config.get(),
    secrets: deps.secrets,
    lang: deps.uiLanguage,
    history: deps.history,
    // electron-vite builds src/main/asr/engine-host.ts next to index.js (see electron.vite.config.ts).
    launcher: utilityHostLauncher(utilityProcess.fork as unknown as UtilityFork, join(import.meta.dirname, 'engine-host.js'), app.isPackaged),
    llmLauncher: utilityLlmLauncher(utilityProcess.fork as unknown as UtilityForkFn, join(import.meta.dirname, 'llm-host.js')),
    warn: (m) => log.warn(m),
  });
}

/** Builds the dictation services and the controller (windows come later, in `start`). */
export async function createDictationApp(deps: DictationAppDeps): Promise<DictationApp> {
  const { config, dataDir } = deps;
  const log = deps.log.child('dictation');
  /** Words for the tray and dialogs (the windows translate the codes themselves). */
  const words = (notice: Notice): string => noticeMessage(notice, deps.uiLanguage());
  const indicator = createIndicatorControl({ window: () => deps.window('indicator'), config: () => config.get() });
  const notify = createNotifier({ log, broadcast: deps.broadcast, indicator });
  const graph = await openAppServiceGraph(deps, log);
  let controller: DictationController | null = null;
  let micTest: MicTester | null = null;
  const received = (id: string): number => (micTest?.owns(id) === true ? micTest.received(id) : (controller?.receivedBatches(id) ?? 0));
  const capture = createAppCapture({ config: () => config.get(), broadcast: deps.broadcast, notify, log, received });
  let hotkeys: AppHotkeys | null = null;
  const { focus, paste } = createPasteOutput({ config: () => config.get(), log, keyTap: () => hotkeys?.keyTap() ?? null });
  const setProblem = trayProblems(deps.tray);
  const events = { broadcast: deps.broadcast, indicator, tray: deps.tray, words, openOnboarding: deps.openOnboarding };
  const emit = dictationEventFanOut({ ...events, recordingChanged: (on) => hotkeys?.recordingChanged(on), session: () => c });
  const last = createLastDictation({ history: graph.history, rememberTarget: () => paste.rememberTarget(), notify });
  const ports = { ...graph.ports, history: last.watch(graph.ports.history) };
  const c = createAppController({ dataDir, config: () => config.get(), capture: capture.capture, ports, focus, paste, emit, panel: panelVisibility(() => deps.window('panel')), log });
  last.attach(c);
  const lastDictation = { paste: () => void last.paste(), copy: () => void last.copy(), reopen: () => void last.reopen() };
  controller = c;
  const mic = createMicTester({ link: capture.link, idle: () => c.state.state === 'idle', level: (level) => deps.broadcast()?.('onboarding:mic-level', { level }) });
  micTest = mic;
  /** "Enhance Selected Text": the tray item and its shortcut (recording.enhance_selection_shortcut). */
  const selectionFlow = enhanceSelectionFlow({ rememberTarget: () => paste.rememberTarget(), copySelection: () => paste.copySelection(), enhanceText: (t) => c.enhanceText(t), notify });
  const enhanceSelection = (): void => void selectionFlow();
  const hk = createDictationHotkeys({ config: () => config.get(), controller: c, rememberTarget: () => paste.rememberTarget(), enhanceSelection, lastDictation, notify, setProblem, words, log });
  hotkeys = hk;
  // The tray's Start Dictation is a toggle press; the focused app is remembered first, as a hotkey does.
  const startDictation = (): void => {
    if (c.state.state === 'idle') paste.rememberTarget();
    c.press('toggle');
  };
  const tray = dictationTray({ config, controller: c, modes: () => graph.enhancer.modes, enhanceSelection, lastDictation, startDictation, lang: deps.uiLanguage, notify });
  const launchAtLogin = launchAtLoginSync({ enabled: () => config.get().app.launch_at_login, notify });
  const updateTray = (): void => deps.tray()?.update(tray.state());
  const stopConfig = reactToConfigChanges({ onChange: (l) => config.onChange(l), hotkeys: hk, setProblem, configureCapture: capture.configure, launchAtLogin, updateTray });
  const running: Running = { engineWarmUp: null, readiness: null, stopStorage: () => undefined };
  return {
    controller: c,
    graph,
    ipc: dictationIpc({ controller: c, link: capture.link, hotkeys: hk, enhancer: graph.enhancer, micTest: mic }),
    hotkeys: hk,
    micTest: mic,
    captureStatus: () => capture.link.status,
    trayState: () => tray.state(),
    trayHandlers: (actions) => tray.handlers(actions),
    async start() {
      // The capture page must be loaded before it can take the configure command; re-sent on every load.
      deps.window('capture')?.webContents.on('did-finish-load', capture.configure);
      hk.apply();
      // Not awaited: the model loads in the engine's own process while the app finishes starting.
      running.engineWarmUp = warmEngine({ config, warm: (cfg) => graph.asr.warmUp(cfg), log });
      running.readiness = watchSpeechModel({ dataDir, config, setProblem, words, notify, openOnboarding: deps.openOnboarding });
      launchAtLogin();
      // A read-only or full data folder, unreadable history, a broken mode file: said now, kept on the tray.
      const modeIssue = (): ReturnType<typeof graph.enhancer.chosenModeIssue> => graph.enhancer.chosenModeIssue(config.get().ai_enhance.mode);
      running.stopStorage = watchStorage({ history: graph.history, vocabulary: graph.vocabulary, modeIssue, onConfigChange: (l) => config.onChange(l), notify, setProblem, words });
      updateTray();
      const recovery = (): Promise<void> => offerRecovery({ session: c, messages: () => messagesFor(deps.uiLanguage()).recovery, log, ask: (o) => dialog.showMessageBox(o) });
      await runStartupChecks({ notify, session: c, log, offerRecovery: recovery });
    },
    modelInstalled(name) {
      running.readiness?.recheck();
      if (name === config.get().asr.local.model) running.engineWarmUp?.warm(`installed ${name}`);
    },
    async close() {
      stopConfig();
      running.stopStorage();
      running.readiness?.stop();
      running.engineWarmUp?.stop();
      hk.dispose();
      disposeKeystrokes();
      capture.link.release();
      await graph.close();
    },
  };
}
