/**
 * The `app://tingxie/` protocol every built Tingxie page is served from (Electron security checklist
 * item 18: "Avoid usage of the file protocol and prefer usage of custom protocols",
 * https://www.electronjs.org/docs/latest/tutorial/security#18-avoid-usage-of-the-file-protocol-and-prefer-usage-of-custom-protocols).
 * A page on `file://` can read any file the user can; a page on `app://tingxie/` reaches only the built
 * renderer folder, through {@link resolveAppRequest}: no path traversal, only GET/HEAD, only the file types
 * the renderer ships, each with its MIME type, and HTML with the CSP header.
 *
 * No runtime electron import (types only): index.ts passes `protocol` in, so this runs under plain Node in
 * tests and in the whole-app harness's stand-in.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { CustomScheme, Protocol } from 'electron';
import { APP_HOST, APP_ORIGIN, APP_SCHEME } from '../../shared/app-origin.ts';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.ts';
import { serveRecording, type RecordingReader } from './recording-route.ts';

/**
 * The scheme's privileges (protocol.registerSchemesAsPrivileged, https://www.electronjs.org/docs/latest/api/protocol):
 * `standard` so relative URLs and the origin work like http (module scripts, `'self'`); `secure` so pages
 * are a secure context (getUserMedia and AudioWorklet in the capture window need one); `supportFetchAPI`
 * for the AudioWorklet module load; `stream` so the indicator's <audio> sounds can be read in ranges.
 * No `bypassCSP`, no `allowServiceWorkers`. No `corsEnabled` either: our pages load their module scripts
 * from their own origin, which needs no CORS, and without it Electron refuses cross-origin CORS-mode
 * requests to the scheme, so no other origin can read the app's files (electron/electron#52908).
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
};

/** File types the renderer ships, and the Content-Type each is served with. Anything else is 404. */
export const APP_MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wav': 'audio/wav',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
};

/** What to answer for one request: a file of the renderer folder, or a refusal with its reason. */
export type AppRequestPlan =
  | { readonly kind: 'file'; readonly file: string; readonly mime: string }
  | { readonly kind: 'refused'; readonly status: 400 | 404 | 405; readonly reason: string };

const refused = (status: 400 | 404 | 405, reason: string): AppRequestPlan => ({ kind: 'refused', status, reason });

/** The app:// URL of a file under the renderer folder (`settings/index.html` → app://tingxie/settings/index.html). */
export function appUrl(relativePath: string): string {
  return `${APP_ORIGIN}/${relativePath.split(/[\\/]/).map(encodeURIComponent).join('/')}`;
}

/**
 * Decides what `app://…` request `url` gets: a file strictly inside `rendererDir` with a known type, or a
 * refusal. Pure: it never touches the disk (a missing file is found when reading).
 */
export function resolveAppRequest(url: string, method: string, rendererDir: string): AppRequestPlan {
  if (method !== 'GET' && method !== 'HEAD') return refused(405, `method ${method} is not served`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refused(400, 'not a URL');
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST || parsed.username !== '' || parsed.password !== '') {
    return refused(404, `only ${APP_ORIGIN}/ is served`);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(parsed.pathname);
  } catch {
    return refused(400, 'malformed percent-encoding');
  }
  // The URL parser already removed `.`/`..` segments; what is left after decoding (%2F, %5C, a backslash,
  // NUL) could still climb out or confuse the file system, so any of it is refused outright.
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').some((s) => s === '..' || s === '.')) {
    return refused(400, 'path traversal refused');
  }
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${decoded}`);
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return refused(404, 'outside the renderer folder');
  const mime = APP_MIME_TYPES[path.extname(file).toLowerCase()];
  if (mime === undefined) return refused(404, `type ${path.extname(file) || '(none)'} is not served`);
  return { kind: 'file', file, mime };
}

/** How {@link serveAppRequest} reads a file (replaced in tests). */
export type ReadFile = (file: string) => Promise<Uint8Array>;

/** What a refused or failed request is reported to. */
export type AppProtocolLog = (message: string, fields: Record<string, unknown>) => void;

/** Answers one request of the protocol with a web Response (what protocol.handle expects). */
export async function serveAppRequest(
  request: Pick<Request, 'url' | 'method'>,
  rendererDir: string,
  log: AppProtocolLog,
  readFile: ReadFile = (f) => fsp.readFile(f),
  recordings?: RecordingReader,
): Promise<Response> {
  const plan = resolveAppRequest(request.url, request.method, rendererDir);
  // A record's kept audio (recording-route.ts): same checks as a page's file, then answered by key, not from the folder.
  const recording = plan.kind === 'file' ? serveRecording(new URL(request.url).pathname, request.method, recordings) : null;
  if (recording !== null) return recording;
  if (plan.kind === 'refused') {
    log('app:// request refused', { url: request.url.slice(0, 300), status: plan.status, reason: plan.reason });
    return new Response(null, { status: plan.status });
  }
  let body: Uint8Array;
  try {
    body = await readFile(plan.file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    log('app:// file not served', { url: request.url.slice(0, 300), code });
    return new Response(null, { status: 404 });
  }
  const headers: Record<string, string> = {
    'Content-Type': plan.mime,
    // The type above is the truth; Chromium must not sniff another one.
    'X-Content-Type-Options': 'nosniff',
  };
  // file:// had no headers, so the CSP lived in the meta tag only; now the header carries it too, with
  // the header-only directives (frame-ancestors) the meta tag cannot hold.
  if (plan.mime.startsWith('text/html')) headers['Content-Security-Policy'] = CONTENT_SECURITY_POLICY;
  return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers });
}

/**
 * Registers `app` as a privileged scheme. Electron requires this before the app's 'ready' event
 * (https://www.electronjs.org/docs/latest/api/protocol#protocolregisterschemesasprivilegedcustomschemes).
 */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

/** Serves the renderer folder (and the History's recordings) on app://tingxie/ in the default session (after 'ready'). */
export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string, log: AppProtocolLog, recordings?: RecordingReader): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, rendererDir, log, undefined, recordings));
}
