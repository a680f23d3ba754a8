/**
 * How the built pages reach the windows: served on app://tingxie/ (app-protocol.ts), or from
 * electron-vite's dev server in development, and which webContents are trusted to call IPC.
 */
import { app, protocol } from 'electron';
import { isAllowedExternalUrl } from '../ipc/external-urls.ts';
import { TrustedSenders } from '../ipc/trusted-senders.ts';
import type { Logger } from '../platform/logger.ts';
import { handleAppProtocol } from './app-protocol.ts';
import type { RecordingReader } from './recording-route.ts';
import type { WindowFactoryDeps } from './window-factory.ts';

/** The pages the windows load, and the trusted senders of IPC. */
export interface ServedRenderer {
  readonly pages: WindowFactoryDeps['pages'];
  readonly trusted: TrustedSenders;
}

/** Answers app:// from `rendererDir` (and the History's recordings from `recordings`) and sets up the trusted senders for those pages. */
export function serveRenderer(rendererDir: string, log: Logger, recordings?: RecordingReader): ServedRenderer {
  // electron-vite dev sets ELECTRON_RENDERER_URL; an empty value (or a packaged app) means the built files.
  const devServerUrl = !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : undefined;
  const pages = devServerUrl === undefined ? { rendererDir } : { rendererDir, devServerUrl };
  const protocolLog = log.child('protocol');
  handleAppProtocol(protocol, rendererDir, (message, fields) => protocolLog.warn(message, fields), recordings);
  return { pages, trusted: new TrustedSenders(pages) };
}

/** What the secure window factory is given: the preload, the pages, the trusted senders, the link allow-list, the log. */
export function windowFactoryDeps(preload: string, served: ServedRenderer, log: Logger): WindowFactoryDeps {
  const windowLog = log.child('window');
  return {
    // DevTools only in development: a packaged app's windows cannot open them.
    paths: { preload, devTools: !app.isPackaged },
    pages: served.pages,
    trustSender: (contents, kind) => served.trusted.add(contents, kind),
    isAllowedExternalUrl: (url) => isAllowedExternalUrl(url),
    log: (level, message, fields) => windowLog.log(level, message, fields),
  };
}
