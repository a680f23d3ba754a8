/**
 * The pure half of the secure window factory: what every Tingxie window is allowed to do, decided by
 * plain functions of plain values so unit tests can assert every setting without an Electron binary.
 * window-factory.ts applies these decisions to real BrowserWindows and sessions.
 *
 * Nothing here imports electron at runtime (only types), on purpose: importing `electron` under Node
 * triggers the lazy binary download.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { appUrl } from './app-protocol.ts';

/** The kinds of window Tingxie ever opens. */
export type WindowKind = 'panel' | 'settings' | 'history' | 'capture' | 'indicator' | 'onboarding';

/** Every window kind, in a stable order (tests iterate over it). */
export const WINDOW_KINDS: readonly WindowKind[] = ['panel', 'settings', 'history', 'capture', 'indicator', 'onboarding'];

/** Where the built app lives relative to out/main/index.js, so specs stay pure and testable. */
export interface WindowPaths {
  /** Absolute path of the sandboxed preload bundle (out/preload/index.cjs). */
  readonly preload: string;
  /**
   * Whether DevTools may open: only in development (`!app.isPackaged`). A packaged app sets
   * `webPreferences.devTools: false`, so nobody can open a console in a window that holds IPC access.
   */
  readonly devTools: boolean;
}

/** The webPreferences every window shares: the Electron security checklist, spelled out. */
function secureWebPreferences(paths: WindowPaths, kind: WindowKind): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload: paths.preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    enableBlinkFeatures: '',
    // Middle-click (auxclick) would try to open links in a new window; window.open is denied anyway, this
    // stops the event at the source (electronegativity AUXCLICK_JS_CHECK).
    disableBlinkFeatures: 'Auxclick',
    navigateOnDragDrop: false,
    spellcheck: false,
    devTools: paths.devTools,
    // The capture window is hidden but must keep pulling audio frames at full rate.
    backgroundThrottling: kind !== 'capture',
  };
}

/** The onboarding window's default and smallest size (the layout test checks both). */
export const ONBOARDING_SIZE = { width: 600, height: 560 } as const;
export const ONBOARDING_MIN_SIZE = { width: 480, height: 460 } as const;

/** The preview panel's smallest size (its default is 520×260). */
export const PANEL_MIN_SIZE = { width: 420, height: 220 } as const;

/**
 * BrowserWindow options for one kind of window; every kind gets the same locked-down webPreferences.
 * `platform` matters for the panel only (a non-activating NSPanel on macOS).
 */
export function windowSpec(kind: WindowKind, paths: WindowPaths, platform: NodeJS.Platform = 'linux'): BrowserWindowConstructorOptions {
  const webPreferences = secureWebPreferences(paths, kind);
  switch (kind) {
    case 'panel':
      return panelSpec(webPreferences, platform);
    case 'settings':
      return { width: 860, height: 640, minWidth: 640, minHeight: 480, show: false, title: 'Tingxie Settings', webPreferences };
    case 'onboarding':
      // First run: a small, ordinary window (in the taskbar, so it is not lost behind others).
      return {
        ...ONBOARDING_SIZE,
        minWidth: ONBOARDING_MIN_SIZE.width,
        minHeight: ONBOARDING_MIN_SIZE.height,
        show: false,
        fullscreenable: false,
        maximizable: false,
        title: 'Tingxie',
        webPreferences,
      };
    case 'history':
      return { width: 1000, height: 700, minWidth: 640, minHeight: 480, show: false, title: 'Tingxie History', webPreferences };
    case 'capture':
      // Never shown: it exists only to run getUserMedia + the AudioWorklet.
      return {
        width: 200,
        height: 100,
        show: false,
        frame: false,
        skipTaskbar: true,
        focusable: false,
        paintWhenInitiallyHidden: false,
        title: 'Tingxie Capture',
        webPreferences,
      };
    case 'indicator':
      return indicatorSpec(webPreferences);
    default:
      return assertNever(kind);
  }
}

/** The preview panel's options (windowSpec). */
function panelSpec(webPreferences: BrowserWindowConstructorOptions['webPreferences'], platform: NodeJS.Platform): BrowserWindowConstructorOptions {
  // The preview panel floats over the app being dictated into: no frame, no taskbar entry,
  // and shown only once painted so it never flashes white.
  return {
    width: 520,
    height: 260,
    // The layout test (test/browser/layout.test.ts) checks the panel at this minimum too.
    minWidth: PANEL_MIN_SIZE.width,
    minHeight: PANEL_MIN_SIZE.height,
    show: false,
    frame: false,
    resizable: true,
    alwaysOnTop: true,
    skipTaskbar: true,
    fullscreenable: false,
    minimizable: false,
    maximizable: false,
    title: 'Tingxie',
    // macOS: a non-activating panel takes key focus without activating Tingxie, so the target app
    // keeps its selection and stays the active app (the paste lands there). Elsewhere the panel is
    // shown and focused, and the paste re-focuses the target first (platform/focus.ts).
    ...(platform === 'darwin' ? { type: 'panel' } : {}),
    webPreferences,
  };
}

/** The recording indicator's options (windowSpec). */
function indicatorSpec(webPreferences: BrowserWindowConstructorOptions['webPreferences']): BrowserWindowConstructorOptions {
  // The recording indicator: a small pill with a level meter over every app, never taking focus or
  // clicks (the factory makes it click-through). It also plays the start/stop sounds.
  return {
    width: 168,
    height: 40,
    show: false,
    frame: false,
    transparent: true,
    resizable: false,
    movable: false,
    alwaysOnTop: true,
    skipTaskbar: true,
    focusable: false,
    hasShadow: false,
    fullscreenable: false,
    minimizable: false,
    maximizable: false,
    title: 'Tingxie Indicator',
    webPreferences: { ...webPreferences, backgroundThrottling: false },
  };
}

/** Details of a permission request or check, reduced to what the decision needs. */
export interface PermissionDetails {
  /** For 'media' requests: the kinds of device asked for ('audio' = microphone, 'video' = camera). */
  readonly mediaTypes?: readonly string[];
  /** The URL of the requesting frame, when Electron gives one. */
  readonly requestingUrl?: string;
  /** Whether the main frame asked (sub-frames never get anything). */
  readonly isMainFrame?: boolean;
}

/** Outcome of a permission request, with the reason recorded in the log. */
export interface PermissionVerdict {
  readonly allow: boolean;
  readonly reason: string;
}

/**
 * Whether a window of `kind` may have `permission`. Everything is denied except the microphone
 * ('media' with audio only) for the hidden capture window, from its own main frame.
 */
export function permissionDecision(
  kind: WindowKind | undefined,
  permission: string,
  details: PermissionDetails,
  own: OwnPages,
): PermissionVerdict {
  if (kind === undefined) return { allow: false, reason: 'request from a web contents Tingxie did not create' };
  if (permission !== 'media') return { allow: false, reason: `permission '${permission}' is never granted` };
  if (kind !== 'capture') return { allow: false, reason: `only the capture window may use the microphone, not '${kind}'` };
  const types = details.mediaTypes ?? [];
  if (types.length === 0 || types.some((t) => t !== 'audio')) {
    return { allow: false, reason: `capture may ask for audio only, not [${types.join(', ') || 'unspecified'}]` };
  }
  if (details.isMainFrame === false) return { allow: false, reason: 'sub-frames never get the microphone' };
  if (details.requestingUrl !== undefined && !isOwnPage('capture', details.requestingUrl, own)) {
    return { allow: false, reason: `microphone asked for by a foreign page: ${details.requestingUrl}` };
  }
  return { allow: true, reason: 'microphone for the capture window' };
}

/**
 * Where our own pages are served from: the built files (out/renderer, served on app://tingxie/ by
 * app-protocol.ts; never file://) or, during development, the electron-vite dev server.
 */
export interface OwnPages {
  /** Absolute directory holding <kind>/index.html (out/renderer), what app://tingxie/ serves. */
  readonly rendererDir: string;
  /** The dev server origin + base (e.g. http://localhost:5173/), when running `electron-vite dev`. */
  readonly devServerUrl?: string;
}

/** The URL a window of `kind` loads. */
export function pageUrl(kind: WindowKind, own: OwnPages): string {
  if (own.devServerUrl !== undefined) return new URL(`${kind}/index.html`, withSlash(own.devServerUrl)).href;
  return appUrl(`${kind}/index.html`);
}

/** Whether `url` is the page a window of `kind` is meant to show (query and hash ignored). */
export function isOwnPage(kind: WindowKind, url: string, own: OwnPages): boolean {
  const target = parse(url);
  const expected = parse(pageUrl(kind, own));
  if (target === null || expected === null) return false;
  return (
    target.protocol === expected.protocol &&
    target.host === expected.host &&
    target.username === '' &&
    target.password === '' &&
    decodeURIComponent(target.pathname) === decodeURIComponent(expected.pathname)
  );
}

/**
 * Whether a window of `kind` may navigate to `url`. Our windows are single pages: the only
 * navigation allowed is a reload of the window's own page (e.g. a hash change). Everything else —
 * other files, other origins, javascript:, data: — is refused.
 */
export function isAllowedNavigation(kind: WindowKind, url: string, own: OwnPages): boolean {
  return isOwnPage(kind, url, own);
}

/** What to do with a navigation or window.open attempt. */
export type NavigationAction =
  | { readonly kind: 'allow' }
  | { readonly kind: 'deny' }
  | { readonly kind: 'open-external'; readonly url: string };

/**
 * The decision for a link the page tries to follow (will-navigate or window.open): stay on our own
 * page, hand an allow-listed https link to the system browser, refuse anything else. window.open
 * never creates a window, hence `forNewWindow` turns 'allow' into 'deny'.
 */
export function navigationAction(
  kind: WindowKind,
  url: string,
  own: OwnPages,
  isAllowedExternal: (url: string) => boolean,
  forNewWindow: boolean,
): NavigationAction {
  if (!forNewWindow && isAllowedNavigation(kind, url, own)) return { kind: 'allow' };
  if (isAllowedExternal(url)) return { kind: 'open-external', url };
  return { kind: 'deny' };
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function withSlash(s: string): string {
  return s.endsWith('/') ? s : `${s}/`;
}

function assertNever(x: never): never {
  throw new Error(`unexpected window kind: ${String(x)}`);
}
