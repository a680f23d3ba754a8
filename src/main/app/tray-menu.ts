/**
 * The tray menu as data: a pure function of the app state and the UI strings, so tests can check
 * what the user sees without Electron. tray.ts turns the template into a real Menu and binds the
 * actions. Later features add items here (mode switch, recent dictations, pause), not in tray.ts.
 */

/** What the tray shows: the dictation pipeline's coarse state. */
export type TrayStatus = 'idle' | 'recording' | 'transcribing' | 'enhancing' | 'preview' | 'error';

/** Every tray status, in pipeline order. */
export const TRAY_STATUSES: readonly TrayStatus[] = ['idle', 'recording', 'transcribing', 'enhancing', 'preview', 'error'];

/** Input of buildTrayMenu. */
export interface TrayState {
  readonly status: TrayStatus;
  /** Extra words for the status line, e.g. the error message (shortened). */
  readonly detail?: string;
}

/** Actions a tray item can trigger; tray.ts maps each to a callback. */
export type TrayAction = 'open-settings' | 'open-history' | 'open-logs' | 'quit';

/** One entry of the menu template. */
export type TrayMenuItem =
  | { readonly type: 'status'; readonly label: string }
  | { readonly type: 'separator' }
  | { readonly type: 'action'; readonly action: TrayAction; readonly label: string; readonly accelerator?: string };

/** The strings the menu uses (English defaults below; a later i18n feature swaps them). */
export interface TrayLabels {
  readonly status: Readonly<Record<TrayStatus, string>>;
  readonly settings: string;
  readonly history: string;
  readonly openLogs: string;
  readonly quit: string;
  readonly tooltip: string;
}

/** English UI strings for the tray. */
export const DEFAULT_TRAY_LABELS: TrayLabels = {
  status: {
    idle: 'Ready',
    recording: 'Listening…',
    transcribing: 'Transcribing…',
    enhancing: 'Enhancing…',
    preview: 'Waiting for confirmation',
    error: 'Something went wrong',
  },
  settings: 'Settings…',
  history: 'History…',
  openLogs: 'Open Logs Folder',
  quit: 'Quit Tingxie',
  tooltip: 'Tingxie',
};

const MAX_DETAIL = 60;

/** The menu template for a state: status line, Settings…, History…, Open logs, Quit. */
export function buildTrayMenu(state: TrayState, labels: TrayLabels = DEFAULT_TRAY_LABELS): readonly TrayMenuItem[] {
  return [
    { type: 'status', label: statusLine(state, labels) },
    { type: 'separator' },
    { type: 'action', action: 'open-settings', label: labels.settings, accelerator: 'CmdOrCtrl+,' },
    { type: 'action', action: 'open-history', label: labels.history },
    { type: 'action', action: 'open-logs', label: labels.openLogs },
    { type: 'separator' },
    { type: 'action', action: 'quit', label: labels.quit, accelerator: 'CmdOrCtrl+Q' },
  ];
}

/** The status line (and tooltip) text: "Tingxie — Ready", with a shortened detail for errors. */
export function statusLine(state: TrayState, labels: TrayLabels = DEFAULT_TRAY_LABELS): string {
  const base = `${labels.tooltip} — ${labels.status[state.status]}`;
  const detail = state.detail?.replace(/\s+/g, ' ').trim();
  if (!detail) return base;
  const short = detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL - 1)}…` : detail;
  return `${base}: ${short}`;
}

/**
 * The icon file (relative to assets/tray) for a status. macOS gets monochrome template images,
 * which the OS tints for light/dark menu bars; @2x variants sit next to them and are picked by Electron.
 */
export function trayIconFile(status: TrayStatus, platform: NodeJS.Platform): string {
  return platform === 'darwin' ? `tray-${status}Template.png` : `tray-${status}.png`;
}
