import { readFile } from 'node:fs/promises';
import { storedRecordSchema, type StoredRecord } from '../../shared/history/record.ts';

/** A line that could not be read as a record; its text is kept so nothing is lost. */
export interface BadLine {
  /** 1-based line number in the file. */
  readonly line: number;
  /** The line exactly as found (without its newline). */
  readonly text: string;
  /** Why it was rejected (JSON error, schema issue, NUL bytes, torn tail). */
  readonly reason: string;
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

/** One non-blank line of a JSONL file with its raw text, so rewrites can copy it byte for byte. */
export type JsonlLine =
  | { readonly kind: 'record'; readonly line: number; readonly text: string; readonly record: StoredRecord }
  | { readonly kind: 'bad'; readonly line: number; readonly text: string; readonly reason: string; readonly torn: boolean };

/** Splits JSONL text into record and bad lines (blank lines dropped), flagging an unterminated unparseable last line as torn. */
export function parseJsonlLines(text: string): JsonlLine[] {
  const out: JsonlLine[] = [];
  const lines = text.split('\n');
  // A file ending in '\n' splits into a final empty string: that is not a line.
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    // Tolerate CRLF files written by hand on Windows.
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (isBlank(line)) continue;
    const result = parseJsonlLine(line);
    if (result.ok) {
      out.push({ kind: 'record', line: i + 1, text: line, record: result.record });
    } else if (i === lines.length - 1 && !endsWithNewline) {
      out.push({ kind: 'bad', line: i + 1, text: line, reason: `torn tail (no trailing newline): ${result.reason}`, torn: true });
    } else {
      out.push({ kind: 'bad', line: i + 1, text: line, reason: result.reason, torn: false });
    }
  }
  return out;
}

/** Parses the text of a JSONL history file: blank lines ignored, bad lines reported, torn tail detected. Pure. */
export function parseJsonlText(text: string): JsonlReadResult {
  const records: StoredRecord[] = [];
  const bad: BadLine[] = [];
  let tornTail = false;
  for (const l of parseJsonlLines(text)) {
    if (l.kind === 'record') {
      records.push(l.record);
    } else {
      if (l.torn) tornTail = true;
      bad.push({ line: l.line, text: l.text, reason: l.reason });
    }
  }
  return { records, bad, tornTail, bytes: Buffer.byteLength(text, 'utf8') };
}

/** Reads a file's raw lines (see `parseJsonlLines`); a missing file reads as no lines. */
export async function readJsonlLines(filePath: string): Promise<{ lines: JsonlLine[]; bytes: number }> {
  let buf: Buffer;
  try {
    buf = await readFile(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], bytes: 0 };
    throw err;
  }
  return { lines: parseJsonlLines(buf.toString('utf8')), bytes: buf.length };
}

/** Reads and parses a JSONL history file; a missing file reads as empty. */
export async function readJsonlFile(filePath: string): Promise<JsonlReadResult> {
  let buf: Buffer;
  try {
    buf = await readFile(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], bad: [], tornTail: false, bytes: 0 };
    throw err;
  }
  const result = parseJsonlText(buf.toString('utf8'));
  // Report the on-disk size: invalid UTF-8 (e.g. half a character) decodes to U+FFFD and changes the length.
  return { ...result, bytes: buf.length };
}
