/*
 * Pure decisions of a model download (model-manager.ts does the I/O): how many bytes a download may write
 * before it is refused, and whether a response to a (possibly ranged) request continues the part file, starts
 * it over, or is an error. A server that sends an endless body, or answers a resume from the wrong byte,
 * must neither fill the disk nor turn the part file into a longer, wrong file.
 */

const MiB = 1024 * 1024;

/**
 * The cap when neither the catalog nor the server says how large the file is: every catalog entry has a size,
 * so this only guards an entry that lost it. The largest whisper.cpp model (large-v3, ~3.1 GB) fits under it,
 * and the free-space reserve is re-checked as the bytes arrive (model-manager.ts), so a wrong guess still
 * cannot fill the disk.
 */
export const UNKNOWN_SIZE_CAP = 4 * 1024 * MiB;

/** How far a file may run past its expected size: catalog sizes are rounded to a MiB (model-catalog.ts `entry`). */
export function sizeMargin(expected: number): number {
  return Math.max(Math.ceil(expected * 0.01), MiB);
}

/**
 * Most bytes the part file may hold: the catalog size (when known) plus `sizeMargin`, else the size the
 * server announced (Content-Length / Content-Range) plus the margin, else `UNKNOWN_SIZE_CAP`.
 */
export function downloadCap(catalogBytes: number | undefined, announcedTotal: number | undefined): number {
  const expected = catalogBytes !== undefined && catalogBytes > 0 ? catalogBytes : announcedTotal;
  return expected !== undefined && expected > 0 ? expected + sizeMargin(expected) : UNKNOWN_SIZE_CAP;
}

/** A parsed `Content-Range: bytes first-last/complete` (complete undefined for `*`). */
export interface ContentRange {
  readonly first: number;
  readonly last: number;
  readonly complete: number | undefined;
}

/** Parses a byte-range `Content-Range` value (RFC 9110 §14.4); null when it is absent or not one. */
export function parseContentRange(value: string | null): ContentRange | null {
  const m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(value ?? '');
  if (m === null) return null;
  const first = Number(m[1]);
  const last = Number(m[2]);
  const complete = m[3] === '*' ? undefined : Number(m[3]);
  // RFC 9110 §14.4: a range whose last is before its first, or not inside the complete length, is invalid.
  if (last < first || (complete !== undefined && last >= complete)) return null;
  return { first, last, complete };
}

/** What to do with a response: write the body from `offset` (0 truncates the part file), or refuse it. */
export type ResponsePlan = { readonly kind: 'write'; readonly offset: number; readonly total: number | undefined } | { readonly kind: 'refuse'; readonly reason: string };

/** The response to a download request asking for the bytes from `asked` on (0: the whole file, no Range header). */
export interface DownloadResponse {
  readonly status: number;
  readonly contentRange: string | null;
  readonly contentLength: string | null;
}

/**
 * Decides what a response means for the part file that holds `asked` bytes. A 206 continues it only when
 * its Content-Range starts at exactly `asked` (RFC 9110 §15.3.7: a 206 carries the range it sends, in
 * Content-Range, §14.4) and its complete length, when given, agrees with the catalog size (within
 * `sizeMargin`); a 200 is the whole file (the server ignored Range, RFC 9110 §14.2), so the part starts over;
 * anything else is refused with the reason.
 */
export function planResponse(res: DownloadResponse, asked: number, catalogBytes: number | undefined): ResponsePlan {
  const length = res.contentLength !== null && /^\d+$/.test(res.contentLength.trim()) ? Number(res.contentLength) : undefined;
  if (res.status === 200) return { kind: 'write', offset: 0, total: length };
  if (res.status !== 206) return { kind: 'refuse', reason: `HTTP ${res.status}` };
  const range = parseContentRange(res.contentRange);
  if (range === null) return { kind: 'refuse', reason: `HTTP 206 without a usable Content-Range (${res.contentRange ?? 'none'})` };
  if (range.first !== asked) return { kind: 'refuse', reason: `HTTP 206 from byte ${range.first}, but the download asked for the bytes from ${asked} on` };
  if (catalogBytes !== undefined && catalogBytes > 0 && range.complete !== undefined && Math.abs(range.complete - catalogBytes) > sizeMargin(catalogBytes)) {
    return { kind: 'refuse', reason: `HTTP 206 for a file of ${range.complete} bytes, but the model is about ${catalogBytes} bytes` };
  }
  return { kind: 'write', offset: asked, total: range.complete ?? (length !== undefined ? asked + length : undefined) };
}
