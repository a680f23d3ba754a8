/**
 * Character classes the text rules scan by. Every test looks at one UTF-16 unit: the rules walk the
 * text once, left to right, and never hand user text to a regular expression that could backtrack.
 */

/** A CJK ideograph (the BMP blocks dictation output uses: Unified, Extension A, Compatibility). */
export function isCjk(c: string | undefined): boolean {
  if (c === undefined || c === '') return false;
  const n = c.charCodeAt(0);
  return (n >= 0x4e00 && n <= 0x9fff) || (n >= 0x3400 && n <= 0x4dbf) || (n >= 0xf900 && n <= 0xfaff);
}

/** A letter or digit of a Latin-script word (ASCII, Latin-1 and Latin Extended letters, digits, the apostrophe inside words). */
export function isWordChar(c: string | undefined): boolean {
  if (c === undefined || c === '') return false;
  const n = c.charCodeAt(0);
  return (n >= 0x30 && n <= 0x39) || (n >= 0x41 && n <= 0x5a) || (n >= 0x61 && n <= 0x7a) || (n >= 0xc0 && n <= 0x24f && n !== 0xd7 && n !== 0xf7);
}

/** Whitespace as dictation output has it (spaces, tabs, line breaks, the ideographic space). */
export function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\u3000' || c === '\u00a0';
}

const PAUSES = new Set([',', '，', '、', '…', ';', '；', ':', '：', '—', '-']);
const ENDS = new Set(['.', '。', '!', '！', '?', '？', '\n']);

/** A pause inside a sentence: comma, enumeration comma, ellipsis, semicolon, colon, dash. */
export function isPause(c: string | undefined): boolean {
  return c !== undefined && PAUSES.has(c);
}

/** The end of a sentence: full stop, exclamation or question mark (either width) or a line break. */
export function isSentenceEnd(c: string | undefined): boolean {
  return c !== undefined && ENDS.has(c);
}

/** Any punctuation the rules treat as a boundary (pause or sentence end). */
export function isPunct(c: string | undefined): boolean {
  return isPause(c) || isSentenceEnd(c);
}

/** True when position `i` starts a clause: text start, or only spaces back to a pause or sentence end. */
export function atClauseStart(s: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && isSpace(s[j])) j -= 1;
  return j < 0 || isPunct(s[j]);
}

/** True when position `i` starts a sentence: text start, or only spaces back to a sentence end. */
export function atSentenceStart(s: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && isSpace(s[j])) j -= 1;
  return j < 0 || isSentenceEnd(s[j]);
}

/** Index of the first non-space at or after `i`. */
export function skipSpaces(s: string, i: number): number {
  let j = i;
  while (j < s.length && isSpace(s[j]) && s[j] !== '\n') j += 1;
  return j;
}

/** ASCII-lowercase of one unit (other scripts unchanged): case-insensitive matching without locale surprises. */
export function lower(c: string): string {
  const n = c.charCodeAt(0);
  return n >= 0x41 && n <= 0x5a ? String.fromCharCode(n + 32) : c.length === 1 && n >= 0xc0 && n <= 0x24f ? c.toLowerCase() : c;
}

/** True when `s` at `i` reads `word` (case-insensitive for Latin letters). */
export function startsWithAt(s: string, i: number, word: string): boolean {
  if (i + word.length > s.length) return false;
  for (let k = 0; k < word.length; k += 1) if (lower(s[i + k] ?? '') !== lower(word[k] ?? '')) return false;
  return true;
}
