/**
 * The Electron half of the secure window factory: creates BrowserWindows from the pure specs in
 * window-policy.ts and wires every guard onto them — permission handlers, navigation and window.open
 * denial, <webview> refusal, a CSP response header, and registration as a trusted IPC sender.
 * Every Tingxie window is created here; nothing else calls `new BrowserWindow`.
 */
import { BrowserWindow, shell } from 'electron';
import type { App, Session, WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY } from '../../shared/csp.ts';
import { navigationAction, pageUrl, permissionDecision, windowSpec } from './window-policy.ts';
import type { OwnPages, WindowKind, WindowPaths } from './window-policy.ts';

/** What the factory needs from the rest of main (injected by the composition root). */
export interface WindowFactoryDeps {
  readonly paths: WindowPaths;
  readonly pages: OwnPages;
  /** Registers a webContents as a trusted IPC sender of its window kind, which sets its IPC scope (TrustedSenders.add). */
  readonly trustSender: (webContents: WebContents, kind: WindowKind) => void;
  /** The https allow-list for links handed to the system browser. */
  readonly isAllowedExternalUrl: (url: string) => boolean;
  /** Where refused requests are reported (the main log). */
  readonly log: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
}

/** webContents id → window kind, so session-wide permission handlers know who is asking. */
const kindsByContents = new Map<number, WindowKind>();
const guardedSessions = new WeakSet<Session>();

/** The kind of a webContents created by this factory, or undefined for anything else. */
export function windowKindOf(webContents: WebContents | null | undefined): WindowKind | undefined {
  return webContents ? kindsByContents.get(webContents.id) : undefined;
}

/** Creates a locked-down window of `kind` and starts loading its page. */
export function createSecureWindow(kind: WindowKind, deps: WindowFactoryDeps): BrowserWindow {
  const win = new BrowserWindow(windowSpec(kind, deps.paths, process.platform));
  const contents = win.webContents;
  const id = contents.id;
  kindsByContents.set(id, kind);
  contents.once('destroyed', () => kindsByContents.delete(id));

  guardSession(contents.session, deps);
  guardContents(kind, contents, deps);
  deps.trustSender(contents, kind);

  // Hidden windows (capture, panel, indicator) are shown by their owners when needed.
  if (kind === 'settings' || kind === 'history' || kind === 'onboarding') win.once('ready-to-show', () => win.show());
  if (kind === 'indicator') {
    // Click-through and above full-screen apps: it must never get in the way of the app being dictated into.
    win.setIgnoreMouseEvents(true);
    win.setAlwaysOnTop(true, 'screen-saver');
    win.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true });
  }
  // The panel floats over the app being dictated into, full-screen ones included.
  if (kind === 'panel') win.setAlwaysOnTop(true, 'floating');
  const url = pageUrl(kind, deps.pages);
  win.loadURL(url).catch((err: unknown) => deps.log('warn', 'window page failed to load', { kind, url, error: String(err) }));
  return win;
}

/**
 * App-wide backstop for any webContents the factory did not make (devtools, a future oversight):
 * no <webview>, no window.open. The factory's own per-window handlers replace these for its windows.
 */
export function installGlobalGuards(app: App, log: { warn: (message: string, fields?: Record<string, unknown>) => void }): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => {
      event.preventDefault();
      log.warn('webview refused', { id: contents.id });
    });
    contents.setWindowOpenHandler(({ url }) => {
      log.warn('window.open refused', { id: contents.id, url });
      return { action: 'deny' };
    });
  });
}

/** Navigation, window.open and <webview> guards for one webContents. */
function guardContents(kind: WindowKind, contents: WebContents, deps: WindowFactoryDeps): void {
  const onNavigate = (event: { preventDefault: () => void }, url: string): void => {
    const action = navigationAction(kind, url, deps.pages, deps.isAllowedExternalUrl, false);
    if (action.kind === 'allow') return;
    event.preventDefault();
    if (action.kind === 'open-external') openExternal(action.url, deps);
    else deps.log('warn', 'navigation refused', { kind, url });
  };
  contents.on('will-navigate', onNavigate);
  contents.on('will-redirect', onNavigate);
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    deps.log('warn', 'webview refused', { kind });
  });
  contents.setWindowOpenHandler(({ url }) => {
    const action = navigationAction(kind, url, deps.pages, deps.isAllowedExternalUrl, true);
    if (action.kind === 'open-external') openExternal(action.url, deps);
    else deps.log('warn', 'window.open refused', { kind, url });
    return { action: 'deny' };
  });
}

/** Session-wide handlers, installed once per session (all our windows share the default one). */
function guardSession(session: Session, deps: WindowFactoryDeps): void {
  if (guardedSessions.has(session)) return;
  guardedSessions.add(session);

  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    const verdict = permissionDecision(
      windowKindOf(contents),
      permission,
      { mediaTypes, requestingUrl: details.requestingUrl, isMainFrame: details.isMainFrame },
      deps.pages,
    );
    if (!verdict.allow) deps.log('warn', 'permission request refused', { permission, reason: verdict.reason });
    callback(verdict.allow);
  });
  session.setPermissionCheckHandler((contents, permission, _origin, details) => {
    const mediaTypes = details.mediaType === undefined ? undefined : [details.mediaType];
    const { requestingUrl } = details;
    return permissionDecision(
      windowKindOf(contents),
      permission,
      { mediaTypes, isMainFrame: details.isMainFrame, ...(requestingUrl === undefined ? {} : { requestingUrl }) },
      deps.pages,
    ).allow;
  });
  // The HTML entries carry the same policy in a <meta> tag; the header covers pages served over
  // http (the dev server) in case a meta tag is ever missing. app:// pages get it from app-protocol.ts too.
  // Under `electron-vite dev` the dev server's pages need the dev policy (see csp.ts); built pages never do.
  const policy = deps.pages.devServerUrl === undefined ? CONTENT_SECURITY_POLICY : DEV_CONTENT_SECURITY_POLICY;
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] },
    });
  });
}

function openExternal(url: string, deps: WindowFactoryDeps): void {
  deps.log('info', 'opening link in the system browser', { url });
  shell.openExternal(url).catch((err: unknown) => deps.log('warn', 'openExternal failed', { url, error: String(err) }));
}
