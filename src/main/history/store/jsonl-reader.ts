import { storedRecordSchema, type StoredRecord } from '../../../shared/history/record.ts';
import { MAX_LINE_BYTES, scanLines, type RawLine } from './line-scan.ts';

export { MAX_LINE_BYTES } from './line-scan.ts';

/** A line that could not be read as a record; its text is kept so nothing is lost. */
export interface BadLine {
  /** 1-based line number in the file. */
  readonly line: number;
  /** The line exactly as found (without its newline). */
  readonly text: string;
  /** Why it was rejected (JSON error, schema issue, NUL bytes, invalid UTF-8, torn tail, too long). */
  readonly reason: string;
  /** The line's bytes are not valid UTF-8: `text` is lossy, the file must not be rewritten from it. */
  readonly invalidUtf8?: boolean;
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
  | {
      readonly kind: 'bad';
      readonly line: number;
      readonly text: string;
      readonly reason: string;
      readonly torn: boolean;
      readonly oversized?: OversizedLine;
      /** Not valid UTF-8: `text` shows U+FFFD where the bytes were, so it must never be written back (store-files.ts `assertRewritable`). */
      readonly invalidUtf8?: boolean;
    };

/** Why a line whose bytes are not valid UTF-8 was rejected. */
export const INVALID_UTF8_REASON = 'not valid UTF-8 (left in the file byte for byte; never decoded into a record)';

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
  // Checked before parsing: a JSON string holding U+FFFD would parse, and a rewrite would then save it changed.
  if (raw.invalidUtf8 === true) return { kind: 'bad', line: raw.line, text: raw.text ?? raw.head, reason: INVALID_UTF8_REASON, torn: !raw.terminated, invalidUtf8: true };
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
      bad.push({ line: l.line, text: l.text, reason: l.reason, ...(l.invalidUtf8 === true ? { invalidUtf8: true } : {}) });
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

/** Where one top-level member's value sits in a JSON object's text. */
interface MemberSpan {
  readonly key: string;
  /** Index of the member's key (its opening quote). */
  readonly start: number;
  readonly valueStart: number;
  readonly valueEnd: number;
}

/** Index just past the JSON string starting at `i` (a quote). */
function endOfString(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === 0x5c) j += 2; // backslash: skip the escaped character
    else if (c === 0x22) return j + 1;
    else j++;
  }
  throw new Error('unterminated JSON string');
}

/** Index just past the JSON value starting at `i`: one loop with a depth counter, never recursion. */
function endOfValue(text: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === 0x22) {
      j = endOfString(text, j);
      if (depth === 0) return j;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return j; // the enclosing object's end
      depth--;
      if (depth === 0) return j + 1;
    } else if (c === 0x2c && depth === 0) return j;
    j++;
  }
  return j;
}

const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** Top-level members of a JSON object's text (already known to parse), in order. Linear in the text. */
function memberSpans(text: string): { members: MemberSpan[]; close: number } {
  const members: MemberSpan[] = [];
  let i = text.indexOf('{') + 1;
  for (;;) {
    while (i < text.length && (isJsonSpace(text.charCodeAt(i)) || text.charCodeAt(i) === 0x2c)) i++;
    if (i >= text.length || text.charCodeAt(i) === 0x7d) return { members, close: i };
    const keyEnd = endOfString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    let v = text.indexOf(':', keyEnd) + 1;
    while (isJsonSpace(text.charCodeAt(v))) v++;
    let end = endOfValue(text, v);
    const valueEnd = end;
    // Trailing spaces before the comma or brace belong to the layout, not the value.
    let trimmed = valueEnd;
    while (trimmed > v && isJsonSpace(text.charCodeAt(trimmed - 1))) trimmed--;
    members.push({ key, start: i, valueStart: v, valueEnd: trimmed });
    end = valueEnd;
    i = end;
  }
}

/**
 * A record line with some top-level fields set, every other byte kept: unknown fields (however deeply
 * nested: JSON.stringify of a 10,000-deep value throws RangeError) and WenZi's spellings (`1.50`,
 * `\u4f60`, `", "` separators) stay exactly as they were. `text` must be a JSON object that parses;
 * fields whose value is undefined are left as they are. Linear in the line.
 */
export function setTopLevelFields(text: string, fields: Readonly<Record<string, unknown>>): string {
  const { members, close } = memberSpans(text);
  const values = new Map<string, string>();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) values.set(k, JSON.stringify(v));
  let out = '';
  let at = 0;
  for (const m of members) {
    const value = values.get(m.key);
    if (value === undefined) continue;
    out += text.slice(at, m.valueStart) + value;
    at = m.valueEnd;
  }
  const present = new Set(members.map((m) => m.key));
  const sep = /^\{\s*"(?:[^"\\]|\\.)*": /.test(text) ? ', ' : ',';
  const colon = sep === ', ' ? ': ' : ':';
  let added = '';
  for (const [k, v] of values) if (!present.has(k)) added += `${members.length > 0 || added ? sep : ''}${JSON.stringify(k)}${colon}${v}`;
  // New members go right after the last one (before any space preceding the closing brace).
  const lastEnd = members.length > 0 ? (members[members.length - 1] as MemberSpan).valueEnd : text.indexOf('{') + 1;
  if (added === '') return out + text.slice(at);
  return out + text.slice(at, lastEnd) + added + text.slice(Math.max(at, lastEnd), close) + text.slice(close);
}
