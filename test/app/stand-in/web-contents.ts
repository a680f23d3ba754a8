/**
 * webContents and the default session. Each webContents is one Chromium page; `send` delivers to the
 * page's preload listeners, in order. The session records the handlers the app installs; the
 * permission check handler decides for real whether a page may use the microphone (the grant is per
 * origin, and every window is served from its own origin).
 */
import { EventEmitter } from 'node:events';
import type { Page } from 'playwright-core';
import { DELIVER_FUNCTION } from './page-environment.ts';
import { strict } from './strict.ts';
import { encodeWire } from './wire-codec.ts';

type Handler = (...args: unknown[]) => unknown;

/** The default session: handlers the app sets, kept for the stand-in and for tests to read. */
class StandInSession {
  permissionRequestHandler: Handler | null = null;
  permissionCheckHandler: Handler | null = null;
  headersReceived: Handler | null = null;
  readonly webRequest = strict('session.webRequest', {
    onHeadersReceived: (listener: Handler): void => {
      this.headersReceived = listener;
    },
  });
  setPermissionRequestHandler(handler: Handler | null): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Handler | null): void {
    this.permissionCheckHandler = handler;
  }
}

/** The one session all windows share (as the app's windows share Electron's default session). */
export const defaultSession = strict('session', new StandInSession());

let nextId = 1;

/** One page's webContents. */
export class StandInWebContents extends EventEmitter {
  readonly id = nextId++;
  readonly session = defaultSession;
  windowOpenHandler: Handler | null = null;
  /** The URL the app loaded (file:// for built pages), as Electron reports it. */
  url = '';
  private destroyed = false;
  private page: Page | null = null;
  private delivery: Promise<void> = Promise.resolve();
  /** Events that could not be delivered (page gone or not loaded yet), for tests. */
  readonly undelivered: string[] = [];

  attach(page: Page): void {
    this.page = page;
  }

  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    const page = this.page;
    if (page === null) {
      this.undelivered.push(channel);
      return;
    }
    const wire = encodeWire(args);
    // Sent at once, not after the previous one was handled: DevTools keeps the order, and like Electron's
    // IPC, several messages can reach the page before it finished handling the first.
    const delivered = page
      .evaluate(([fn, c, w]) => (window as unknown as Record<string, (c: string, w: unknown) => void>)[fn]?.(c, w), [DELIVER_FUNCTION, channel, wire] as const)
      .catch(() => void this.undelivered.push(channel));
    this.delivery = Promise.all([this.delivery, delivered]).then(() => undefined);
  }

  setWindowOpenHandler(handler: Handler): void {
    this.windowOpenHandler = handler;
  }

  getURL(): string {
    return this.url;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** The window was destroyed (the stand-in's BrowserWindow calls this). */
  markDestroyed(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('destroyed');
  }

  /** Resolves when every event sent so far has reached the page (tests). */
  flushed(): Promise<void> {
    return this.delivery;
  }
}
