/**
 * The tray menu as data: a pure function of the app state and the UI strings, so tests can check
 * what the user sees without Electron. tray.ts turns the template into a real Menu and binds the
 * actions. Later features add items here, not in tray.ts.
 */

/** What the tray icon shows: the dictation pipeline's coarse state (each has its own icon). */
export type TrayStatus = 'idle' | 'recording' | 'transcribing' | 'enhancing' | 'preview' | 'error';

/** Every tray status, in pipeline order. */
export const TRAY_STATUSES: readonly TrayStatus[] = ['idle', 'recording', 'transcribing', 'enhancing', 'preview', 'error'];

/** The four settings the tray can switch (persisted in config.json). */
export type TrayToggle = 'enhance' | 'preview' | 'history' | 'vocabulary';

/** Every tray toggle, in menu order, with its config key path. */
export const TRAY_TOGGLES: readonly { readonly toggle: TrayToggle; readonly keyPath: string }[] = [
  { toggle: 'enhance', keyPath: 'ai_enhance.enabled' },
  { toggle: 'preview', keyPath: 'output.preview' },
  { toggle: 'history', keyPath: 'ai_enhance.conversation_history.enabled' },
  { toggle: 'vocabulary', keyPath: 'ai_enhance.vocabulary.enabled' },
];

/** Input of buildTrayMenu. */
export interface TrayState {
  readonly status: TrayStatus;
  /** Extra words for the status line, e.g. the error message (shortened). */
  readonly detail?: string;
  /** A model download in progress: shown in the status line, with the percentage. */
  readonly download?: { readonly name: string; readonly percent: number } | null;
  /** A problem the user must know about (e.g. the hotkey could not be registered), shown as its own line. */
  readonly problem?: string | null;
  /** The current enhancement mode and the selectable ones (id + label). */
  readonly mode?: string;
  readonly modes?: readonly { readonly id: string; readonly label: string }[];
  readonly toggles?: Readonly<Record<TrayToggle, boolean>>;
  /** Whether a failed or cancelled dictation can be retried from its journaled audio. */
  readonly canRetry?: boolean;
  /** The last-dictation shortcuts as configured ('' = none), shown beside their items. */
  readonly lastKeys?: { readonly paste: string; readonly copy: string; readonly reopen: string };
  /** No usable speech engine yet: the status line says set-up is needed instead of "Ready". */
  readonly setupNeeded?: boolean;
  /** The hold-to-talk key as the OS names it, in the UI language, beside Start Dictation; absent in toggle mode. */
  readonly holdKey?: string;
  /** The toggle shortcut (an accelerator), shown beside Start Dictation in toggle mode. */
  readonly toggleShortcut?: string;
}

/** Actions a tray item can trigger; tray.ts maps each to a callback. */
export type TrayAction = 'open-settings' | 'open-history' | 'open-logs' | 'quit' | 'enhance-selection' | 'retry-last' | 'paste-last' | 'copy-last' | 'reopen-last' | 'start-dictation' | 'open-setup';

/** One entry of the menu template. */
export type TrayMenuItem =
  | { readonly type: 'status'; readonly label: string }
  | { readonly type: 'separator' }
  | { readonly type: 'action'; readonly action: TrayAction; readonly label: string; readonly accelerator?: string; readonly enabled?: boolean }
  | { readonly type: 'toggle'; readonly toggle: TrayToggle; readonly label: string; readonly checked: boolean }
  | { readonly type: 'modes'; readonly label: string; readonly enabled: boolean; readonly items: readonly { readonly id: string; readonly label: string; readonly checked: boolean }[] };

/** The strings the menu uses (English defaults below; a later i18n feature swaps them). */
export interface TrayLabels {
  readonly status: Readonly<Record<TrayStatus, string>>;
  /** The status line before a speech engine is set up (instead of "Ready"). */
  readonly setupNeeded: string;
  readonly startDictation: string;
  readonly stopDictation: string;
  /** Start Dictation with the hold key named: "Start Dictation (or hold {key})". */
  readonly startWithKey: string;
  /** Opens the setup guide. */
  readonly setup: string;
  readonly downloading: string;
  readonly mode: string;
  readonly toggles: Readonly<Record<TrayToggle, string>>;
  readonly enhanceSelection: string;
  readonly retryLast: string;
  /** The last dictation one click away (last-dictation.ts). */
  readonly pasteLast: string;
  readonly copyLast: string;
  readonly reopenLast: string;
  readonly settings: string;
  readonly history: string;
  readonly openLogs: string;
  readonly quit: string;
  readonly tooltip: string;
}

/** English UI strings for the tray. */
export const DEFAULT_TRAY_LABELS: TrayLabels = {
  setupNeeded: 'Set-up needed',
  startDictation: 'Start Dictation',
  stopDictation: 'Stop Dictation',
  startWithKey: 'Start Dictation (or hold {key})',
  setup: 'Set Up…',
  status: {
    idle: 'Ready',
    recording: 'Listening…',
    transcribing: 'Transcribing…',
    enhancing: 'Enhancing…',
    preview: 'Waiting for confirmation',
    error: 'Something went wrong',
  },
  downloading: 'Downloading {name}… {percent}%',
  mode: 'Enhancement Mode',
  toggles: { enhance: 'AI Enhancement', preview: 'Preview Before Pasting', history: 'Use Recent Dictations as Context', vocabulary: 'Use Vocabulary' },
  enhanceSelection: 'Enhance Selected Text',
  retryLast: 'Retry Last Dictation',
  pasteLast: 'Paste Last Dictation',
  copyLast: 'Copy Last Dictation',
  reopenLast: 'Reopen Last Preview',
  settings: 'Settings…',
  history: 'History…',
  openLogs: 'Open Logs Folder',
  quit: 'Quit Tingxie',
  tooltip: 'Tingxie',
};

const MAX_DETAIL = 60;

/**
 * The menu template: status line (+ download progress, + a problem line), mode submenu, the four
 * toggles, enhance selection / retry, History…, Settings…, Open logs, Quit.
 */
export function buildTrayMenu(state: TrayState, labels: TrayLabels = DEFAULT_TRAY_LABELS): readonly TrayMenuItem[] {
  const items: TrayMenuItem[] = [{ type: 'status', label: statusLine(state, labels) }];
  if (state.download) items.push({ type: 'status', label: downloadLine(state.download, labels) });
  if (state.problem) items.push({ type: 'status', label: shorten(`⚠ ${state.problem}`, 90) });
  items.push({ type: 'separator' });
  items.push(startItem(state, labels));
  const modes = state.modes ?? [];
  if (modes.length > 0) {
    // Modes only act with AI Enhancement on: greyed out, not hidden, so the user sees where they are.
    items.push({ type: 'modes', label: labels.mode, enabled: state.toggles?.enhance !== false, items: modes.map((m) => ({ id: m.id, label: m.label, checked: m.id === state.mode })) });
  }
  if (state.toggles) {
    for (const { toggle } of TRAY_TOGGLES) items.push({ type: 'toggle', toggle, label: labels.toggles[toggle], checked: state.toggles[toggle] });
  }
  if (modes.length > 0 || state.toggles) items.push({ type: 'separator' });
  // Enhancing a selection needs an idle pipeline: one session at a time.
  items.push({ type: 'action', action: 'enhance-selection', label: labels.enhanceSelection, enabled: state.status === 'idle' || state.status === 'error' });
  items.push({ type: 'action', action: 'retry-last', label: labels.retryLast, enabled: state.canRetry === true && (state.status === 'idle' || state.status === 'error') });
  const idle = state.status === 'idle' || state.status === 'error';
  for (const [action, label, key] of [['paste-last', labels.pasteLast, state.lastKeys?.paste], ['copy-last', labels.copyLast, state.lastKeys?.copy], ['reopen-last', labels.reopenLast, state.lastKeys?.reopen]] as const) {
    items.push({ type: 'action', action, label, enabled: idle, ...(key ? { accelerator: key } : {}) });
  }
  items.push({ type: 'separator' });
  items.push({ type: 'action', action: 'open-history', label: labels.history });
  items.push({ type: 'action', action: 'open-setup', label: labels.setup });
  items.push({ type: 'action', action: 'open-settings', label: labels.settings, accelerator: 'CmdOrCtrl+,' });
  items.push({ type: 'action', action: 'open-logs', label: labels.openLogs });
  items.push({ type: 'separator' });
  items.push({ type: 'action', action: 'quit', label: labels.quit, accelerator: 'CmdOrCtrl+Q' });
  return items;
}

/** Start (or, while recording, Stop) Dictation, with the key that does the same: "Start Dictation (or hold Right Alt)". */
function startItem(state: TrayState, labels: TrayLabels): TrayMenuItem {
  if (state.status === 'recording') return { type: 'action', action: 'start-dictation', label: labels.stopDictation };
  const idle = state.status === 'idle' || state.status === 'error';
  const label = state.holdKey ? labels.startWithKey.replace('{key}', state.holdKey) : labels.startDictation;
  return { type: 'action', action: 'start-dictation', label, enabled: idle, ...(state.holdKey === undefined && state.toggleShortcut ? { accelerator: state.toggleShortcut } : {}) };
}

/** The status line (and tooltip) text: "Tingxie — Ready", with a shortened detail for errors. */
export function statusLine(state: TrayState, labels: TrayLabels = DEFAULT_TRAY_LABELS): string {
  const base = `${labels.tooltip} — ${state.setupNeeded === true && state.status === 'idle' ? labels.setupNeeded : labels.status[state.status]}`;
  const detail = state.detail?.replace(/\s+/g, ' ').trim();
  if (!detail) return base;
  return `${base}: ${shorten(detail, MAX_DETAIL)}`;
}

/** "Downloading base… 42%" (percent clamped and rounded). */
export function downloadLine(d: { readonly name: string; readonly percent: number }, labels: TrayLabels = DEFAULT_TRAY_LABELS): string {
  const pct = Math.max(0, Math.min(100, Math.round(Number.isFinite(d.percent) ? d.percent : 0)));
  return labels.downloading.replace('{name}', d.name).replace('{percent}', String(pct));
}

/** The tray status for a dictation state (`output` shows as the step before it). */
export function trayStatusOf(state: 'idle' | 'recording' | 'transcribing' | 'enhancing' | 'preview' | 'output'): TrayStatus {
  return state === 'output' ? 'preview' : state;
}

/**
 * The icon file (relative to assets/tray) for a status. macOS gets monochrome template images,
 * which the OS tints for light/dark menu bars; @2x variants sit next to them and are picked by Electron.
 * A download shows the busy (transcribing) icon; its percentage is in the tooltip and menu.
 */
export function trayIconFile(status: TrayStatus, platform: NodeJS.Platform): string {
  return platform === 'darwin' ? `tray-${status}Template.png` : `tray-${status}.png`;
}

/** The status whose icon shows: a download while idle shows the busy icon. */
export function trayIconStatus(state: TrayState): TrayStatus {
  return state.download && state.status === 'idle' ? 'transcribing' : state.status;
}

/** Tooltip: the status line, plus the download progress when there is one. */
export function trayTooltip(state: TrayState, labels: TrayLabels = DEFAULT_TRAY_LABELS): string {
  return state.download ? `${statusLine(state, labels)}\n${downloadLine(state.download, labels)}` : statusLine(state, labels);
}

function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
