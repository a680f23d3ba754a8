/**
 * The set of webContents allowed to call main (Electron security checklist item 17). The window factory
 * adds every window it creates, with its kind; an entry leaves when its webContents is destroyed. A call
 * is trusted only when it comes from one of them AND from a frame showing our own page, so a window that
 * somehow navigated elsewhere loses its access; the recorded kind then decides which channels it may call
 * (per-window scopes, src/shared/ipc/window-scopes.ts). No electron import: the webContents shape is structural.
 */
import { windowMayCall } from '../../shared/ipc/window-scopes.ts';
import type { ScopedWindowKind } from '../../shared/ipc/window-scopes.ts';
import { APP_HOST, APP_SCHEME } from '../../shared/app-origin.ts';
import type { IpcSender, SenderScope } from './dispatcher.ts';

/** The parts of Electron's WebContents this module uses. */
export interface TrustableContents {
  readonly id: number;
  once(event: 'destroyed', listener: () => void): unknown;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/** Where our pages come from: app://tingxie/ (the built renderer folder), or the dev server while developing. */
export interface OwnOrigins {
  /** Absolute directory of the built renderer (out/renderer), which app://tingxie/ serves. */
  readonly rendererDir: string;
  /** The dev server URL (origin + base path) under `electron-vite dev`. */
  readonly devServerUrl?: string;
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Whether `frameUrl` is one of our pages: a page on app://tingxie/, or under the dev server URL while
 * developing. file:// is never ours any more (pages are served on app://, app-protocol.ts).
 */
export function isOwnFrameUrl(frameUrl: string, own: OwnOrigins): boolean {
  const url = parseUrl(frameUrl);
  if (url === null || url.username !== '' || url.password !== '') return false;
  if (url.protocol === `${APP_SCHEME}:`) return url.host === APP_HOST && url.pathname.length > 1;
  if (own.devServerUrl === undefined) return false;
  const dev = parseUrl(own.devServerUrl);
  if (dev === null || url.origin !== dev.origin) return false;
  const base = dev.pathname.endsWith('/') ? dev.pathname : `${dev.pathname}/`;
  return url.pathname.startsWith(base);
}

/** The trusted webContents registry. */
export class TrustedSenders {
  private readonly byId = new Map<number, { readonly contents: TrustableContents; readonly kind: ScopedWindowKind }>();
  private readonly own: OwnOrigins;

  constructor(own: OwnOrigins) {
    this.own = own;
  }

  /** Trusts `contents`, a window of `kind`, until it is destroyed. */
  add(contents: TrustableContents, kind: ScopedWindowKind): void {
    if (contents.isDestroyed()) return;
    const entry = { contents, kind };
    this.byId.set(contents.id, entry);
    contents.once('destroyed', () => {
      // Ids are not reused while the app runs, but only remove the entry this registration made.
      if (this.byId.get(contents.id) === entry) this.byId.delete(contents.id);
    });
  }

  /** Whether a call from webContents `senderId`, sent by a frame at `frameUrl`, is trusted. */
  has(senderId: number, frameUrl: string): boolean {
    const entry = this.byId.get(senderId);
    if (entry === undefined || entry.contents.isDestroyed()) return false;
    return typeof frameUrl === 'string' && isOwnFrameUrl(frameUrl, this.own);
  }

  /** {@link has} in the shape the dispatcher takes. */
  readonly isTrustedSender = (sender: IpcSender): boolean => this.has(sender.id, sender.frameUrl);

  /** The kind of window `sender` is and what it may call, or undefined for a sender never added. */
  readonly scopeOf = (sender: IpcSender): SenderScope | undefined => {
    const entry = this.byId.get(sender.id);
    if (entry === undefined) return undefined;
    const { kind } = entry;
    return { kind, mayCall: (channel) => windowMayCall(kind, channel) };
  };

  /** The live trusted webContents (for broadcasting events). */
  contents(): readonly TrustableContents[] {
    return [...this.byId.values()].map((e) => e.contents).filter((c) => !c.isDestroyed());
  }

  /** How many webContents are trusted right now. */
  get size(): number {
    return this.contents().length;
  }
}
