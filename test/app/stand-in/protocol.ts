/**
 * `protocol`: custom schemes as Electron documents them (https://www.electronjs.org/docs/latest/api/protocol).
 * `registerSchemesAsPrivileged` only before 'ready', `handle` only after, one handler per scheme.
 *
 * Chromium under playwright cannot load a custom scheme (context.route intercepts http(s) only), so a
 * window that loads `app://host/path` gets its own http origin on 127.0.0.1 whose every request is turned
 * back into `app://host/<same path>` and answered by **the app's own protocol handler** — the status,
 * headers (CSP, Content-Type) and body the page receives are exactly what the handler returned. This is a
 * mapping, named as such: the page's location is http://127.0.0.1:PORT/…, while the app and its checks see
 * the app:// URL it asked for (webContents URL, permission and IPC frame URLs).
 *
 * Like Electron, a scheme that was not registered as privileged `standard` + `secure` is refused here:
 * without them the page would be an opaque, insecure origin (no relative module scripts, no getUserMedia).
 */
import { createServer } from 'node:http';
import { listenOnLoopback } from '../../helpers/browser-static-server.ts';
import { app } from './app.ts';
import { ElectronStandInError, strict } from './strict.ts';

type ProtocolHandler = (request: Request) => Response | Promise<Response>;

interface CustomScheme {
  readonly scheme: string;
  readonly privileges?: Readonly<Record<string, boolean | undefined>>;
}

class StandInProtocol {
  /** The schemes the app registered as privileged, as given (tests read them). */
  readonly privileged: CustomScheme[] = [];
  private readonly handlers = new Map<string, ProtocolHandler>();

  registerSchemesAsPrivileged(schemes: readonly CustomScheme[]): void {
    // Electron: "This method can only be used before the ready event of the app module gets emitted".
    if (app.isReady()) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    this.privileged.push(...schemes.map((s) => structuredClone(s)));
  }

  handle(scheme: string, handler: ProtocolHandler): void {
    if (!app.isReady()) throw new Error('protocol.handle can only be used after the ready event');
    if (this.handlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`);
    if (typeof handler !== 'function') throw new TypeError('protocol.handle: handler must be a function');
    this.handlers.set(scheme, handler);
  }

  unhandle(scheme: string): void {
    this.handlers.delete(scheme);
  }

  isProtocolHandled(scheme: string): boolean {
    return this.handlers.has(scheme);
  }

  /** The handler for `scheme` (browser-window.ts), or undefined when the app handles none. */
  handlerFor(scheme: string): ProtocolHandler | undefined {
    return this.handlers.get(scheme);
  }

  /** Throws unless `scheme` was registered with the privileges a page needs (Electron's behaviour, made loud). */
  assertPagePrivileges(scheme: string): void {
    const entry = this.privileged.find((s) => s.scheme === scheme);
    if (entry?.privileges?.standard !== true || entry.privileges.secure !== true) {
      throw new ElectronStandInError(
        `loading ${scheme}:// pages without registerSchemesAsPrivileged({ standard: true, secure: true }) before 'ready' ` +
          '(Electron would give them an opaque, insecure origin)',
      );
    }
  }
}

/** The default session's protocol module. */
export const protocol = strict('protocol', new StandInProtocol());

/** A per-window http origin that answers every request with the app's handler for `scheme://host`. */
export interface MappedOrigin {
  readonly origin: string;
  close(): Promise<void>;
}

/** Starts the mapping http origin for pages of `scheme://host` (see the file comment). */
export async function startSchemeMapping(scheme: string, host: string): Promise<MappedOrigin> {
  const handler = protocol.handlerFor(scheme);
  if (handler === undefined) throw new Error(`net::ERR_UNKNOWN_URL_SCHEME: no protocol handler for ${scheme}://`);
  protocol.assertPagePrivileges(scheme);
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const request = new Request(`${scheme}://${host}${req.url ?? '/'}`, { method: req.method ?? 'GET' });
        const response = await handler(request);
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => (headers[name] = value));
        res.writeHead(response.status, headers);
        res.end(Buffer.from(await response.arrayBuffer()));
      } catch (err) {
        // Electron fails the request (net::ERR_FAILED) when the handler throws; say so on stderr.
        process.stderr.write(`electron stand-in: ${scheme}:// handler failed for ${req.url}: ${String(err)}\n`);
        res.writeHead(500).end();
      }
    })();
  });
  return listenOnLoopback(server);
}
