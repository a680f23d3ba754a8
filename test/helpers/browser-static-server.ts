import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { APP_MIME_TYPES } from '../../src/main/app/app-protocol.ts';

/**
 * A tiny static file server for the built renderer (out/renderer) on 127.0.0.1. Chromium blocks
 * module scripts from file://, and Electron's own loading is not available here, so tests serve the
 * exact build output over http. Nothing but GET/HEAD of files under `root` is answered.
 */

/** The app's own types (what its app:// handler serves), plus source maps for debugging a test. */
const MIME: Readonly<Record<string, string>> = { ...APP_MIME_TYPES, '.map': 'application/json; charset=utf-8' };

/** A running static server; `close()` stops it. */
export interface StaticServer {
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves `root` on an ephemeral 127.0.0.1 port, optionally adding `headers` to every response. */
export async function startStaticServer(root: string, headers: Readonly<Record<string, string>> = {}): Promise<StaticServer> {
  const base = path.resolve(root);
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let file = path.resolve(base, '.' + decodeURIComponent(url.pathname));
      // Path traversal guard: never serve anything outside the build folder.
      if (file !== base && !file.startsWith(base + path.sep)) {
        res.writeHead(403).end();
        return;
      }
      try {
        if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
        const body = await readFile(file);
        const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...headers });
        res.end(req.method === 'HEAD' ? undefined : body);
      } catch {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    })();
  });
  return listenOnLoopback(server);
}

/** Listens on a free 127.0.0.1 port; `close()` also drops open keep-alive connections. */
export async function listenOnLoopback(server: Server): Promise<StaticServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
