/**
 * The History's player loads a record's audio from the app's own origin, `app://tingxie/recordings/<key>.wav`
 * (Electron security checklist item 18, https://www.electronjs.org/docs/latest/tutorial/security#18-avoid-usage-of-the-file-protocol-and-prefer-usage-of-custom-protocols):
 * the page names a record key, never a path, and main answers with that record's kept audio
 * (dictation/recordings/recordings.ts) or 404. Only GET/HEAD; a key is a plain record id.
 */

/** The path prefix the recordings are served under. */
export const RECORDINGS_PREFIX = '/recordings/';

/** Record keys the route accepts: Tingxie's ids (WenZi's `ts:` keys never have audio). */
const KEY_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** The record key a request path asks for; null when the path is not a recording's, undefined when it is one but malformed. */
export function recordingKeyOf(pathname: string): string | null | undefined {
  if (!pathname.startsWith(RECORDINGS_PREFIX)) return null;
  const m = /^([^/]+)\.wav$/.exec(pathname.slice(RECORDINGS_PREFIX.length));
  const key = m?.[1];
  return key !== undefined && KEY_RE.test(key) ? key : undefined;
}

/** Reads a record's audio as WAV bytes; null when it has none. */
export type RecordingReader = (key: string) => Uint8Array | null;

/** Answers a recording request (`pathname` already decoded and checked by the protocol). */
export function serveRecording(pathname: string, method: string, read: RecordingReader | undefined): Response | null {
  const key = recordingKeyOf(pathname);
  if (key === null) return null;
  if (key === undefined || read === undefined) return new Response(null, { status: 404 });
  let body: Uint8Array | null;
  try {
    body = read(key);
  } catch {
    body = null;
  }
  if (body === null) return new Response(null, { status: 404 });
  // No caching: a recording deleted or re-linked must not play from a cache.
  const headers = { 'Content-Type': 'audio/wav', 'Content-Length': String(body.byteLength), 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };
  return new Response(method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers });
}
