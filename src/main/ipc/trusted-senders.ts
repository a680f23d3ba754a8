/**
 * The set of webContents allowed to call main (Electron security checklist item 17). The window factory
 * adds every window it creates; an entry leaves when its webContents is destroyed. A call is trusted
 * only when it comes from one of them AND from a frame showing our own page, so a window that somehow
 * navigated elsewhere loses its access. No electron import: the webContents shape is structural.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IpcSender } from './dispatcher.ts';

/** The parts of Electron's WebContents this module uses. */
export interface TrustableContents {
  readonly id: number;
  once(event: 'destroyed', listener: () => void): unknown;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/** Where our pages come from: the built renderer folder, or the dev server while developing. */
export interface OwnOrigins {
  /** Absolute directory of the built renderer (out/renderer). */
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

/** Whether `frameUrl` is one of our pages (a file under `rendererDir`, or under the dev server URL). */
export function isOwnFrameUrl(frameUrl: string, own: OwnOrigins): boolean {
  const url = parseUrl(frameUrl);
  if (url === null || url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'file:') {
    if (url.host !== '') return false; // file://server/share is not ours
    let file: string;
    try {
      file = fileURLToPath(url);
    } catch {
      return false;
    }
    const relative = path.relative(path.resolve(own.rendererDir), path.resolve(file));
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  }
  if (own.devServerUrl === undefined) return false;
  const dev = parseUrl(own.devServerUrl);
  if (dev === null || url.origin !== dev.origin) return false;
  const base = dev.pathname.endsWith('/') ? dev.pathname : `${dev.pathname}/`;
  return url.pathname.startsWith(base);
}

/** The trusted webContents registry. */
export class TrustedSenders {
  private readonly byId = new Map<number, TrustableContents>();
  private readonly own: OwnOrigins;

  constructor(own: OwnOrigins) {
    this.own = own;
  }

  /** Trusts `contents` until it is destroyed. */
  add(contents: TrustableContents): void {
    if (contents.isDestroyed()) return;
    this.byId.set(contents.id, contents);
    contents.once('destroyed', () => {
      // Ids are not reused while the app runs, but only remove the entry this registration made.
      if (this.byId.get(contents.id) === contents) this.byId.delete(contents.id);
    });
  }

  /** Whether a call from webContents `senderId`, sent by a frame at `frameUrl`, is trusted. */
  has(senderId: number, frameUrl: string): boolean {
    const contents = this.byId.get(senderId);
    if (contents === undefined || contents.isDestroyed()) return false;
    return typeof frameUrl === 'string' && isOwnFrameUrl(frameUrl, this.own);
  }

  /** {@link has} in the shape the dispatcher takes. */
  readonly isTrustedSender = (sender: IpcSender): boolean => this.has(sender.id, sender.frameUrl);

  /** The live trusted webContents (for broadcasting events). */
  contents(): readonly TrustableContents[] {
    return [...this.byId.values()].filter((c) => !c.isDestroyed());
  }

  /** How many webContents are trusted right now. */
  get size(): number {
    return this.contents().length;
  }
}
