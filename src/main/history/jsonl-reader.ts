import { storedRecordSchema, type StoredRecord } from '../../shared/history/record.ts';
import { MAX_LINE_BYTES, scanLines, type RawLine } from './line-scan.ts';

export { MAX_LINE_BYTES } from './line-scan.ts';

/** A line that could not be read as a record; its text is kept so nothing is lost. */
export interface BadLine {
  /** 1-based line number in the file. */
  readonly line: number;
  /** The line exactly as found (without its newline). */
  readonly text: string;
  /** Why it was rejected (JSON error, schema issue, NUL bytes, torn tail, too long). */
  readonly reason: string;
}

/** Where a line too long to read sits in its file (its text is never loaded; it is copied from here). */
export interface OversizedLine {
  readonly offset: number;
  readonly bytes: number;
}

/** Result of reading a JSONL history file tolerantly. */
export interface JsonlReadResult {
  /** Records in file order. */
  readonly records: StoredRecord[];
  /** Rejected lines in file order (a torn tail is reported here too, as the last entry). */
  readonly bad: BadLine[];
  /** True when the last line has no trailing newline and does not parse (an interrupted append). */
  readonly tornTail: boolean;
  /** Size of the file in bytes (UTF-8 length of the text for `parseJsonlText`). */
  readonly bytes: number;
}

/** Whether a line is present but blank (ignored, as WenZi's reader did). */
function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Parses one non-blank line; returns the record or the reason it was rejected. */
export function parseJsonlLine(text: string): { ok: true; record: StoredRecord } | { ok: false; reason: string } {
  // NUL runs are what a filesystem leaves after a crash that extended the file but not its data.
  if (text.includes('\u0000')) return { ok: false, reason: 'contains NUL bytes' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `invalid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'not a JSON object' };
  }
  const parsed = storedRecordSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { ok: false, reason: `invalid record: ${issues}` };
  }
  return { ok: true, record: parsed.data };
}

/**
 * One non-blank line of a JSONL file with its raw text, so rewrites can copy it byte for byte. A bad
 * line read from a file that is longer than MAX_LINE_BYTES carries `oversized` and only the start of
 * its text: whoever sets it aside copies it from the file (see jsonl-log.ts `rewriteLines`).
 */
export type JsonlLine =
  | { readonly kind: 'record'; readonly line: number; readonly text: string; readonly record: StoredRecord }
  | { readonly kind: 'bad'; readonly line: number; readonly text: string; readonly reason: string; readonly torn: boolean; readonly oversized?: OversizedLine };

/** Why an oversized line was rejected. */
export function oversizedReason(bytes: number, maxLineBytes: number = MAX_LINE_BYTES): string {
  return `line of ${bytes} bytes is longer than the ${Math.round(maxLineBytes / 1048576)} MiB limit`;
}

/**
 * One line as the tolerant reader sees it: a record or a bad line (null for a blank line). `raw` is the
 * line as in the file (a CR included): the length limit counts its bytes, as the streaming reader does.
 */
function lineOf(lineNo: number, text: string, last: boolean, maxLineBytes: number, raw: string = text): JsonlLine | null {
  if (isBlank(text)) return null;
  // Cheap test first: a string of n UTF-16 units never takes more than 3n bytes.
  if (raw.length * 3 > maxLineBytes && Buffer.byteLength(raw, 'utf8') > maxLineBytes) {
    return { kind: 'bad', line: lineNo, text, reason: oversizedReason(Buffer.byteLength(raw, 'utf8'), maxLineBytes), torn: last };
  }
  const result = parseJsonlLine(text);
  if (result.ok) return { kind: 'record', line: lineNo, text, record: result.record };
  if (last) return { kind: 'bad', line: lineNo, text, reason: `torn tail (no trailing newline): ${result.reason}`, torn: true };
  return { kind: 'bad', line: lineNo, text, reason: result.reason, torn: false };
}

/** A streamed line as a JsonlLine: an oversized one becomes a bad line that says where it is. */
export function jsonlLineOfRaw(raw: RawLine, maxLineBytes: number = MAX_LINE_BYTES): JsonlLine | null {
  if (raw.text !== null) return lineOf(raw.line, raw.text, !raw.terminated, maxLineBytes);
  return {
    kind: 'bad',
    line: raw.line,
    text: raw.head,
    reason: oversizedReason(raw.bytes, maxLineBytes),
    torn: !raw.terminated,
    oversized: { offset: raw.offset, bytes: raw.bytes },
  };
}

/** Splits JSONL text into record and bad lines (blank lines dropped), flagging an unterminated unparseable last line as torn. */
export function parseJsonlLines(text: string, maxLineBytes: number = MAX_LINE_BYTES): JsonlLine[] {
  const out: JsonlLine[] = [];
  const lines = text.split('\n');
  // A file ending in '\n' splits into a final empty string: that is not a line.
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    // Tolerate CRLF files written by hand on Windows.
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const l = lineOf(i + 1, line, i === lines.length - 1 && !endsWithNewline, maxLineBytes, raw);
    if (l) out.push(l);
  }
  return out;
}

/** Parses the text of a JSONL history file: blank lines ignored, bad lines reported, torn tail detected. Pure. */
export function parseJsonlText(text: string): JsonlReadResult {
  return { ...summarize(parseJsonlLines(text)), bytes: Buffer.byteLength(text, 'utf8') };
}

function summarize(lines: readonly JsonlLine[]): Omit<JsonlReadResult, 'bytes'> {
  const records: StoredRecord[] = [];
  const bad: BadLine[] = [];
  let tornTail = false;
  for (const l of lines) {
    if (l.kind === 'record') {
      records.push(l.record);
    } else {
      if (l.torn) tornTail = true;
      bad.push({ line: l.line, text: l.text, reason: l.reason });
    }
  }
  return { records, bad, tornTail };
}

/**
 * Streams a file's lines in batches (see `parseJsonlLines`), never holding the whole file: a line
 * longer than `maxLineBytes` is reported as an oversized bad line without being decoded. A missing
 * file yields nothing; an unreadable one (a directory, no permission) throws.
 */
export async function* readJsonlBatches(filePath: string, maxLineBytes: number = MAX_LINE_BYTES): AsyncGenerator<{ lines: JsonlLine[]; bytes: number }> {
  for await (const batch of scanLines(filePath, { maxLineBytes })) {
    const lines: JsonlLine[] = [];
    let bytes = 0;
    for (const raw of batch) {
      bytes += raw.bytes + (raw.terminated ? 1 : 0);
      const l = jsonlLineOfRaw(raw, maxLineBytes);
      if (l) lines.push(l);
    }
    yield { lines, bytes };
  }
}

/** Reads a file's raw lines (see `parseJsonlLines`), streaming; a missing file reads as no lines. */
export async function readJsonlLines(filePath: string, maxLineBytes: number = MAX_LINE_BYTES): Promise<{ lines: JsonlLine[]; bytes: number }> {
  const lines: JsonlLine[] = [];
  let bytes = 0;
  for await (const b of readJsonlBatches(filePath, maxLineBytes)) {
    for (const l of b.lines) lines.push(l);
    bytes += b.bytes;
  }
  return { lines, bytes };
}

/** Reads and parses a JSONL history file (streaming, oversized lines reported as bad); a missing file reads as empty. */
export async function readJsonlFile(filePath: string, maxLineBytes: number = MAX_LINE_BYTES): Promise<JsonlReadResult> {
  const { lines, bytes } = await readJsonlLines(filePath, maxLineBytes);
  return { ...summarize(lines), bytes };
}
