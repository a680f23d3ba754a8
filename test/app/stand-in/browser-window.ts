/**
 * BrowserWindow as a real Chromium page: the page is created with the window's size as its viewport,
 * the window's real preload script runs in it before the page's scripts, and `loadURL` of an app://
 * page is answered by the app's own protocol handler through a per-window http origin (protocol.ts: a
 * mapping, since Chromium under playwright cannot load custom schemes); a file:// URL under the app
 * folder is served from it over http (Chromium refuses module scripts from file://). Each window gets its
 * own origin, so the microphone can be granted to exactly the pages the app's permission check handler allows. Visibility, focus and bounds are state a test reads; the
 * options are recorded as given so tests can assert them (sandbox, contextIsolation, sizes…).
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { startStaticServer, type StaticServer } from '../../helpers/browser-static-server.ts';
import { ipcMainDispatch } from './ipc-main.ts';
import { startSchemeMapping, type MappedOrigin } from './protocol.ts';
import { INVOKE_BINDING, pageEnvironmentScript } from './page-environment.ts';
import { appPath, browserContext } from './runtime.ts';
import { strict } from './strict.ts';
import { defaultSession, StandInWebContents } from './web-contents.ts';
import { decodeWire, encodeWire } from './wire-codec.ts';

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every window created and not yet destroyed, in creation order. */
const open: StandInBrowserWindow[] = [];
/** Listeners for webContents creation (app 'web-contents-created'). */
export const contentsCreated = new EventEmitter();

/** A window is a page of the shared Chromium. */
export class StandInBrowserWindow extends EventEmitter {
  static getAllWindows(): StandInBrowserWindow[] {
    return [...open];
  }

  readonly id: number;
  readonly options: Readonly<Record<string, unknown>>;
  readonly webContents: StandInWebContents;
  private bounds: Rect;
  private visible = false;
  private focused = false;
  private destroyed = false;
  alwaysOnTop: string | false = false;
  ignoreMouseEvents = false;
  visibleOnAllWorkspaces = false;
  private readonly pageReady: Promise<Page>;
  private server: StaticServer | MappedOrigin | null = null;
  private shownOnce = false;

  constructor(options: Record<string, unknown> = {}) {
    super();
    this.options = structuredClone(options);
    const width = Number(options.width ?? 800);
    const height = Number(options.height ?? 600);
    this.bounds = { x: Number(options.x ?? 0), y: Number(options.y ?? 0), width, height };
    this.webContents = strict('webContents', new StandInWebContents());
    this.id = this.webContents.id;
    this.alwaysOnTop = options.alwaysOnTop === true ? 'floating' : false;
    if (options.show !== false) this.visible = true;
    open.push(this);
    this.pageReady = browserContext().then((context) => this.createPage(context));
    this.pageReady.catch(() => undefined);
    contentsCreated.emit('created', this.webContents);
  }

  private async createPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    await page.setViewportSize({ width: this.bounds.width, height: this.bounds.height });
    const prefs = (this.options.webPreferences ?? {}) as Record<string, unknown>;
    await page.exposeBinding(INVOKE_BINDING, async (_source, channel: string, wire: unknown) => {
      try {
        const args = decodeWire(wire) as unknown[];
        const value = await ipcMainDispatch(channel, { sender: this.webContents, senderFrame: { url: this.webContents.url } }, args);
        return { value: encodeWire(value) };
      } catch (err) {
        return { error: String(err) };
      }
    });
    if (typeof prefs.preload === 'string') await page.addInitScript({ content: pageEnvironmentScript(fs.readFileSync(prefs.preload, 'utf8')) });
    page.on('close', () => this.destroy());
    this.webContents.attach(page);
    return page;
  }

  /** The page behind this window (tests; resolves once Chromium made it). */
  page(): Promise<Page> {
    return this.pageReady;
  }

  async loadURL(url: string): Promise<void> {
    const page = await this.pageReady;
    this.webContents.url = url;
    await page.goto(await this.servedUrl(url, page.context()), { waitUntil: 'load' });
    this.webContents.emit('did-finish-load');
    if (!this.shownOnce) {
      this.shownOnce = true;
      this.emit('ready-to-show');
    }
  }

  async loadFile(file: string): Promise<void> {
    await this.loadURL(pathToFileURL(path.resolve(file)).href);
  }

  /**
   * app://host/path → this window's own http origin answered by the app's protocol handler; file:// under
   * the app folder → its own http origin serving the file. The microphone only where the app allows it.
   */
  private async servedUrl(url: string, context: BrowserContext): Promise<string> {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
    let pathPart: string;
    if (parsed.protocol === 'file:') {
      const root = appPath();
      const file = fileURLToPath(parsed);
      const rel = path.relative(root, file);
      if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`electron stand-in: loadURL outside the app folder is not served: ${url}`);
      this.server ??= await startStaticServer(root);
      pathPart = `/${rel.split(path.sep).map(encodeURIComponent).join('/')}`;
    } else {
      // A custom scheme: only through the handler the app registered for it (throws loudly otherwise).
      this.server ??= await startSchemeMapping(parsed.protocol.slice(0, -1), parsed.host);
      pathPart = parsed.pathname;
    }
    const origin = this.server.origin;
    const check = defaultSession.permissionCheckHandler;
    const mayUseMic = check !== null && check(this.webContents, 'media', origin, { mediaType: 'audio', isMainFrame: true, requestingUrl: url }) === true;
    if (mayUseMic) await context.grantPermissions(['microphone'], { origin });
    return `${origin}${pathPart}${parsed.search}${parsed.hash}`;
  }

  show(): void {
    this.visible = true;
    this.focused = true;
    this.emit('show');
  }
  showInactive(): void {
    this.visible = true;
    this.emit('show');
  }
  hide(): void {
    this.visible = false;
    this.focused = false;
    this.emit('hide');
  }
  focus(): void {
    this.focused = true;
    this.emit('focus');
  }
  isVisible(): boolean {
    return this.visible;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getBounds(): Rect {
    return { ...this.bounds };
  }
  setBounds(b: Partial<Rect>): void {
    this.bounds = { ...this.bounds, ...b };
    void this.pageReady.then((p) => p.setViewportSize({ width: this.bounds.width, height: this.bounds.height })).catch(() => undefined);
  }
  getSize(): [number, number] {
    return [this.bounds.width, this.bounds.height];
  }
  setSize(width: number, height: number): void {
    this.setBounds({ width, height });
  }
  getPosition(): [number, number] {
    return [this.bounds.x, this.bounds.y];
  }
  setPosition(x: number, y: number): void {
    this.bounds = { ...this.bounds, x, y };
  }
  setAlwaysOnTop(flag: boolean, level = 'floating'): void {
    this.alwaysOnTop = flag ? level : false;
  }
  isAlwaysOnTop(): boolean {
    return this.alwaysOnTop !== false;
  }
  setIgnoreMouseEvents(ignore: boolean): void {
    this.ignoreMouseEvents = ignore;
  }
  setVisibleOnAllWorkspaces(visible: boolean): void {
    this.visibleOnAllWorkspaces = visible;
  }

  close(): void {
    if (this.destroyed) return;
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (!prevented) this.destroy();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.visible = false;
    // By id: `this` is the strict proxy when the app calls close()/destroy(), the raw instance in `open`.
    const at = open.findIndex((w) => w.id === this.id);
    if (at >= 0) open.splice(at, 1);
    void this.pageReady.then((p) => p.close()).catch(() => undefined);
    void this.server?.close();
    this.webContents.markDestroyed();
    this.emit('closed');
  }
}

/** The BrowserWindow class as the app sees it (instances guarded against unimplemented APIs). */
export const BrowserWindow = new Proxy(StandInBrowserWindow, {
  construct: (target, args: [Record<string, unknown>?]) => strict('BrowserWindow', new target(...args)),
});
