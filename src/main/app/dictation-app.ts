/**
 * Dictation in the running app: builds the service graph and the controller, and connects them to
 * Electron — the capture window (configure + frames), the panel and indicator windows, start/stop
 * sounds, hotkeys, paste, the tray's dictation items, crash recovery at start, macOS permissions and
 * launch at login. index.ts creates it and hands it the windows; every decision lives in the pure or
 * Node-testable modules this file only connects.
 */
import { join } from 'node:path';
import { app, dialog, screen, utilityProcess } from 'electron';
import type { BrowserWindow } from 'electron';
import type { DictationEvent } from '../../shared/ipc/dictation-types.ts';
import type { UiLanguage } from '../../shared/ipc/wire-types.ts';
import { liveTextShown } from '../../shared/live-text.ts';
import type { Notice, NoticeLevel } from '../../shared/notices/notice.ts';
import { keepEngineWarm, type EngineWarmUp } from '../asr/engine-warm-up.ts';
import { utilityHostLauncher, type UtilityFork } from '../asr/host-launcher.ts';
import { watchSpeechReadiness, type SpeechReadiness } from '../asr/speech-readiness.ts';
import { CaptureLink } from '../dictation/capture-link.ts';
import { DictationController } from '../dictation/controller.ts';
import { panelIpcService } from '../dictation/panel-service.ts';
import { openServiceGraph, type ServiceGraph } from '../dictation/service-graph.ts';
import type { SecretReader } from '../enhance/enhancer.ts';
import { SoundingCapture } from '../dictation/sounding-capture.ts';
import type { HistoryService } from '../history/history-service.ts';
import type { Broadcast } from '../ipc/register.ts';
import type { DictationIpcService } from '../dictation/dictation-service.ts';
import { electronClipboard } from '../platform/clipboard-electron.ts';
import { platformFocus } from '../platform/focus.ts';
import { platformInputContext } from '../platform/input-context.ts';
import { disposeKeystrokes, platformKeystrokes, prepareKeystrokes } from '../platform/keystroke.ts';
import { applyLaunchAtLogin } from '../platform/login-item.ts';
import type { Logger } from '../platform/logger.ts';
import { displayServer } from '../platform/paste-plan.ts';
import { PasteService } from '../platform/paste.ts';
import { checkMacPermissions } from '../platform/permissions.ts';
import { SOUND_MS } from '../platform/sounds.ts';
import type { ConfigStore } from '../settings/config-store.ts';
import { enhanceSelectionFlow } from './enhance-selection.ts';
import { createHotkeys, type AppHotkeys } from './hotkeys.ts';
import { IndicatorWindow, indicatorPosition } from './indicator-window.ts';
import { format, messagesFor, noticeMessage, type MainMessages } from './messages.ts';
import { panelBounds } from './panel-placement.ts';
import { watchStorage, type StorageProblemSource } from './storage-notices.ts';
import { TRAY_TOGGLES, trayStatusOf, type TrayAction, type TrayState, type TrayToggle } from './tray-menu.ts';
import type { TrayHandlers } from './tray.ts';

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
  /** Tray item handlers (the composition root adds Settings/History/Logs/Quit). */
  trayHandlers(actions: Pick<Readonly<Record<TrayAction, () => void>>, 'open-settings' | 'open-history' | 'open-logs' | 'quit'>): TrayHandlers;
  /** The tray's dictation fields from the config and the controller now. */
  trayState(): Partial<TrayState>;
  /** After the windows exist: capture and engine warm-up, hotkeys, speech readiness, permissions, login item, recovery offer. */
  start(): Promise<void>;
  /** A model download finished: the speech readiness and the warm engine may change. */
  modelInstalled(name: string): void;
  close(): Promise<void>;
}

/** Builds the dictation services and the controller (windows come later, in `start`). */
export async function createDictationApp(deps: DictationAppDeps): Promise<DictationApp> {
  const { config, log } = deps;
  const dlog = log.child('dictation');
  const msg = (): MainMessages => messagesFor(deps.uiLanguage());
  /** Words for the tray and dialogs (the windows translate the codes themselves). */
  const words = (notice: Notice): string => noticeMessage(notice, deps.uiLanguage());
  const notify = (level: NoticeLevel, notice: Notice): void => {
    dlog.log(level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'info', 'notice', { notice });
    deps.broadcast()?.('app:notice', { level, notice });
    indicator.notice(notice);
  };
  /** The recording indicator: recording/processing, and a short message with the next step after a failure. */
  const indicator = new IndicatorWindow({
    window: () => {
      const w = deps.window('indicator');
      return w === undefined || w.isDestroyed() ? undefined : w;
    },
    settings: () => {
      const cfg = config.get();
      const { visual_indicator, live_text } = cfg.feedback;
      const live = liveTextShown({ visual_indicator, live_text, engine: cfg.asr.engine, decode_while_speaking: cfg.asr.local.decode_while_speaking });
      return { visual_indicator, preview: cfg.output.preview, preview_on_failure: cfg.output.preview_on_failure, live_text: live };
    },
    // Bottom centre of the display the pointer is on: where the user is looking.
    place: (size) => indicatorPosition(screen.getDisplayNearestPoint(screen.getCursorScreenPoint()).workArea, size),
  });

  const graph = await openServiceGraph({
    dataDir: deps.dataDir,
    config: () => config.get(),
    secrets: deps.secrets,
    lang: deps.uiLanguage,
    history: deps.history,
    // electron-vite builds src/main/asr/engine-host.ts next to index.js (see electron.vite.config.ts).
    launcher: utilityHostLauncher(utilityProcess.fork as unknown as UtilityFork, join(import.meta.dirname, 'engine-host.js'), app.isPackaged),
    warn: (m) => dlog.warn(m),
  });

  let controller: DictationController | null = null;
  const link = new CaptureLink({
    send: (command) => deps.broadcast()?.('capture:command', command),
    received: (id) => controller?.receivedBatches(id) ?? 0,
    onStatus: (s) => {
      if (s.state === 'error') notify('error', { code: 'microphone-error', reason: s.message });
      else if (s.state === 'ready') dlog.info('microphone ready', { device: s.deviceLabel, sampleRate: s.sampleRate });
    },
    onGraceExpired: (sessionId, detail) => dlog.warn('capture stop waited the full grace period', { sessionId, ...detail }),
  });
  const capture = new SoundingCapture({
    inner: link,
    enabled: () => config.get().feedback.sound_enabled,
    play: (which) => deps.broadcast()?.('dictation:sound', { which, volume: config.get().feedback.sound_volume }),
    startSoundMs: SOUND_MS.start,
  });

  let hotkeys: AppHotkeys | null = null;
  // One focus port for the paste and the input context: key-down's two lookups of the focused window share one run.
  const focus = platformFocus(process.platform, displayServer(process.env));
  const paste = new PasteService({
    platform: process.platform,
    clipboard: electronClipboard(),
    focus,
    keys: {
      // Resolved per keystroke: the hook's keyTap appears once the hotkeys are up.
      send: (k) => platformKeystrokes({ platform: process.platform, display: displayServer(process.env), keyTap: hotkeys?.keyTap() ?? null }).send(k),
      prepare: () => prepareKeystrokes({ platform: process.platform, display: displayServer(process.env) }),
    },
    restoreClipboard: () => config.get().output.restore_clipboard,
    log: (level, m, f) => dlog.log(level, m, f),
  });

  let lastError: string | null = null;
  /** Problems the tray shows on their own line until fixed, by source (hotkeys, speech model, history folder, mode file). */
  const problems = new Map<'hotkeys' | 'speech' | StorageProblemSource, string>();
  const setProblem = (source: 'hotkeys' | 'speech' | StorageProblemSource, text: string | null): void => {
    if (text === null) problems.delete(source);
    else problems.set(source, text);
    deps.tray()?.update({ problem: problems.size === 0 ? null : [...problems.values()].join(' ') });
  };
  /** Shows the panel next to the cursor (on the cursor's display, fully visible) or hides it. */
  const showPanel = (show: boolean): void => {
    const w = deps.window('panel');
    if (w === undefined || w.isDestroyed()) return;
    if (!show) {
      w.hide();
      return;
    }
    if (!w.isVisible()) {
      const [width = 520, height = 260] = w.getSize();
      const displays = screen.getAllDisplays().map((d) => ({ bounds: d.bounds, workArea: d.workArea }));
      w.setBounds(panelBounds(screen.getCursorScreenPoint(), displays, { width, height }));
    }
    // macOS: the panel is a non-activating NSPanel (window-policy.ts), so show() gives it the keyboard
    // without activating Tingxie or touching the target app's selection; focus() would activate the app.
    // Elsewhere it takes focus, and the paste re-focuses the remembered target app first.
    w.show();
    if (process.platform !== 'darwin') w.focus();
  };
  const c = new DictationController({
    dataDir: deps.dataDir,
    config: () => config.get(),
    capture,
    asr: graph.ports.asr,
    enhance: graph.ports.enhance,
    history: graph.ports.history,
    vocabulary: graph.ports.vocabulary,
    // Read at key-down (press), as the focus is remembered for the paste.
    inputContext: platformInputContext(process.platform, displayServer(process.env), undefined, focus),
    output: paste,
    ui: {
      emit: (e) => {
        deps.broadcast()?.('dictation:event', e);
        onEvent(e);
      },
      panel: (show) => showPanel(show),
      // Sounds are played by SoundingCapture around the real capture, so they are never recorded.
      sound: () => undefined,
    },
    log: (level, m, f) => dlog.log(level, m, f),
  });
  controller = c;

  const onEvent = (e: DictationEvent): void => {
    if (e.kind === 'state') {
      // First: the recording keys are consumed before the indicator says "recording".
      hotkeys?.recordingChanged(e.state === 'recording');
      if (e.state !== 'idle') lastError = null;
      indicator.stateChanged(e.state);
      deps.tray()?.update({ status: lastError !== null && e.state === 'idle' ? 'error' : trayStatusOf(e.state), detail: lastError ?? '', mode: e.mode, canRetry: c.lastRetryable() !== null });
    } else if (e.kind === 'notice') {
      indicator.notice(e.notice);
      if (e.level !== 'error') return;
      lastError = words(e.notice);
      // A dictation found no model: onboarding is where it is fixed (the audio is kept for a retry).
      if (e.notice.code === 'speech-model-missing') deps.openOnboarding();
      if (c.state.state === 'idle') deps.tray()?.update({ status: 'error', detail: lastError, canRetry: c.lastRetryable() !== null });
    } else if (e.kind === 'done') {
      deps.tray()?.update({ canRetry: c.lastRetryable() !== null });
    }
  };

  const configureCapture = (): void => {
    const a = config.get().audio;
    link.configure(a.device, a.pre_roll_ms);
  };

  /** "Enhance Selected Text": the tray item and its shortcut (recording.enhance_selection_shortcut). */
  const selectionFlow = enhanceSelectionFlow({ rememberTarget: () => paste.rememberTarget(), copySelection: () => paste.copySelection(), enhanceText: (t) => c.enhanceText(t), notify });
  const enhanceSelection = (): void => void selectionFlow();

  hotkeys = createHotkeys({
    config: () => config.get(),
    platform: process.platform,
    session: displayServer(process.env),
    target: {
      recording: () => c.state.state === 'recording',
      idle: () => c.state.state === 'idle',
      press: (t) => c.press(t),
      release: () => c.release(),
      cancel: () => c.cancel(),
      restart: () => c.restart(),
      stepMode: (d) => c.stepMode(d),
    },
    beforeStart: () => paste.rememberTarget(),
    enhanceSelection,
    notify: (level, notices) => {
      for (const n of notices) notify(level, n);
      setProblem('hotkeys', notices.map(words).join(' '));
    },
    log: (level, m, f) => dlog.log(level, m, f),
  });
  const hk = hotkeys;

  const modes = (): { id: string; label: string }[] => graph.enhancer.modes.map((m) => ({ id: m.id, label: m.label }));
  const toggles = (): Record<TrayToggle, boolean> => {
    const cfg = config.get();
    return {
      enhance: cfg.ai_enhance.enabled,
      preview: cfg.output.preview,
      history: cfg.ai_enhance.conversation_history.enabled,
      vocabulary: cfg.ai_enhance.vocabulary.enabled,
    };
  };
  const trayState = (): Partial<TrayState> => ({ mode: config.get().ai_enhance.mode, modes: modes(), toggles: toggles(), canRetry: c.lastRetryable() !== null });

  const stopConfig = config.onChange(({ keyPath }) => {
    const top = keyPath.split('.')[0] ?? '';
    if (keyPath === '' || top === 'hotkeys' || top === 'recording' || top === 'feedback') {
      const s = hk.apply();
      if (s.hookError === null && (s.toggle === null || s.toggle.registered) && s.problems.length === 0) setProblem('hotkeys', null);
    }
    if (keyPath === '' || top === 'audio') configureCapture();
    if (keyPath === '' || keyPath.startsWith('app.launch_at_login') || keyPath === 'app') launchAtLogin();
    deps.tray()?.update(trayState());
  });

  const launchAtLogin = (): void => {
    try {
      applyLaunchAtLogin(config.get().app.launch_at_login, { platform: process.platform, execPath: process.execPath, setLoginItem: (s) => app.setLoginItemSettings(s) });
    } catch (err) {
      notify('warning', { code: 'launch-at-login-failed', reason: String(err) });
    }
  };

  const offerRecovery = async (): Promise<void> => {
    const sessions = c.recoverable();
    dlog.info('recovery checked', { offered: sessions.length });
    const newest = sessions.at(-1);
    if (newest === undefined) return;
    const more = sessions.length - 1;
    const m = msg().recovery;
    const what = newest.asrText ? `"${newest.asrText.slice(0, 120)}"` : format(m.audio, { seconds: newest.durationSeconds.toFixed(1) });
    const { response } = await dialog.showMessageBox({
      type: 'question',
      buttons: [m.finish, m.discard, m.later],
      defaultId: 0,
      cancelId: 2,
      title: m.title,
      message: m.message,
      detail: format(more > 0 ? m.detailMore : m.detailOne, { what, when: newest.createdAt, more }),
    });
    if (response === 0) c.recover(newest.id, 'finish');
    else if (response === 1) c.recover(newest.id, 'discard');
  };

  let engineWarmUp: EngineWarmUp | null = null;
  let stopStorage = (): void => undefined;
  let readiness: SpeechReadiness | null = null;

  const ipc: DictationIpcService = {
    frames: (id, seq, rate, pcm) => {
      c.frames(id, seq, rate, pcm);
      link.check(id);
    },
    captureStatus: (s) => link.report(s),
    snapshot: () => c.snapshot(),
    confirm: (id, text, action) => c.confirm(id, text, action),
    cancel: (id) => c.cancel(id),
    recoverable: () => c.recoverable(),
    recover: (id, action) => c.recover(id, action),
    hotkeys: () => hk.status(),
    // The preview panel's calls (mode list and re-run, prompt on demand, reopened previews).
    ...panelIpcService(c, graph.enhancer),
  };

  return {
    controller: c,
    graph,
    ipc,
    hotkeys: hk,
    trayState,
    trayHandlers: (actions) => ({
      actions: {
        ...actions,
        'enhance-selection': enhanceSelection,
        'retry-last': () => {
          if (!c.retryLast()) notify('info', { code: 'no-retry' });
        },
      },
      mode: (id) => {
        void config.set('ai_enhance.mode', id).catch((err: unknown) => notify('error', { code: 'mode-switch-failed', reason: String(err) }));
        if (c.state.state !== 'idle') c.setMode(id);
      },
      toggle: (t, checked) => {
        const keyPath = TRAY_TOGGLES.find((x) => x.toggle === t)?.keyPath;
        if (keyPath !== undefined) void config.set(keyPath, checked).catch((err: unknown) => notify('error', { code: 'setting-save-failed', reason: String(err) }));
      },
    }),
    async start() {
      const captureWin = deps.window('capture');
      // The capture page must be loaded before it can take the configure command; re-sent on every load.
      captureWin?.webContents.on('did-finish-load', configureCapture);
      hk.apply();
      // Not awaited: the model loads in the engine's own process while the app finishes starting.
      engineWarmUp = keepEngineWarm({ config: () => config.get(), onChange: (l) => config.onChange(l), warm: (cfg) => graph.asr.warmUp(cfg), log: (level, m, f) => dlog.log(level, m, f) });
      // No usable speech engine (a first start, or the model was removed): onboarding now, not a failure at the first key-up.
      // The Settings › Speech banner still says it whenever Settings is opened.
      readiness = watchSpeechReadiness({
        dataDir: deps.dataDir,
        config: () => config.get(),
        onChange: (l) => config.onChange(l),
        report: (missing, when) => {
          const notice = missing === null ? null : ({ code: 'speech-model-missing', model: missing } as const);
          setProblem('speech', notice === null ? null : words(notice));
          if (notice !== null && when === 'start') {
            notify('warning', notice);
            deps.openOnboarding();
          }
        },
      });
      launchAtLogin();
      // A read-only or full data folder, unreadable history, a broken mode file: said now, kept on the tray.
      stopStorage = watchStorage({
        history: graph.history,
        vocabulary: graph.vocabulary,
        modeIssue: () => graph.enhancer.chosenModeIssue(config.get().ai_enhance.mode),
        onConfigChange: (l) => config.onChange(l),
        notify,
        setProblem,
        words,
      });
      deps.tray()?.update(trayState());
      for (const p of await checkMacPermissions()) {
        notify('warning', { code: p.permission === 'microphone' ? 'permission-microphone' : 'permission-accessibility' });
      }
      // Dictations that reached the user before a crash or quit but not the disk go to history, not to the offer.
      const logged = await c.logJournaledRecords().catch((err: unknown) => dlog.warn('journaled records not logged', { error: String(err) }));
      if (typeof logged === 'number' && logged > 0) dlog.info('journaled records logged', { count: logged });
      await offerRecovery().catch((err: unknown) => dlog.warn('recovery offer failed', { error: String(err) }));
    },
    modelInstalled(name) {
      readiness?.recheck();
      if (name === config.get().asr.local.model) engineWarmUp?.warm(`installed ${name}`);
    },
    async close() {
      stopConfig();
      stopStorage();
      readiness?.stop();
      engineWarmUp?.stop();
      hk.dispose();
      disposeKeystrokes();
      link.release();
      await graph.close();
    },
  };
}
