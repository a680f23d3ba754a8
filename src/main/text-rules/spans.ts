import { isCjk, isPause, isPunct, isSentenceEnd, isSpace, isWordChar } from './text-chars.ts';

/**
 * A stretch of the text a rule removes, in UTF-16 positions of the text it was found in. The removal
 * stages (fillers, self-corrections) only ever delete: what is left is the speaker's words, in order,
 * with the punctuation and spaces at each seam mended (`joinSeam`).
 */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly kind: 'filler' | 'stutter' | 'self-correction';
  /** The removed text began a sentence with a capital: the next word gets the capital. */
  readonly capitalize?: boolean;
}

/** Sorted, merged spans (overlapping or touching spans become one; the first one's kind and capital win). */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && s.start <= last.end) out[out.length - 1] = { ...last, end: Math.max(last.end, s.end) };
    else out.push(s);
  }
  return out;
}

/** The text with `spans` deleted, and for each unit of the result the position it had in `text`. */
export interface Removed {
  readonly text: string;
  /** `map[i]`: where unit i of the result was in the input. */
  readonly map: Int32Array;
}

/** Uppercases the first ASCII letter of `s`. */
function capitalFirst(s: string): string {
  const c = s.charCodeAt(0);
  return c >= 0x61 && c <= 0x7a ? String.fromCharCode(c - 32) + s.slice(1) : s;
}

/**
 * Joins what is left on either side of a removal: no doubled or leading pause, no pause before a
 * sentence end, one space between Latin words (or where the speaker's text had one, except between
 * two CJK characters), a capital where a removed sentence opener had one.
 */
function joinSeam(left: string, right: string, capitalize: boolean): { readonly lead: number; readonly cut: number; readonly join: string; readonly right: string } {
  let cut = left.length;
  while (cut > 0 && isSpace(left[cut - 1]) && left[cut - 1] !== '\n') cut -= 1;
  const hadSpace = cut < left.length || (right.length > 0 && isSpace(right[0]) && right[0] !== '\n');
  let lead = 0;
  while (lead < right.length && isSpace(right[lead]) && right[lead] !== '\n') lead += 1;
  const lastL = cut > 0 ? left[cut - 1] : undefined;
  // A pause after nothing, after a pause or a sentence end goes; a pause before a sentence end goes.
  while (lead < right.length && isPause(right[lead]) && (lastL === undefined || isPunct(lastL))) {
    lead += 1;
    while (lead < right.length && isSpace(right[lead]) && right[lead] !== '\n') lead += 1;
  }
  if (lastL !== undefined && isPause(lastL) && (lead >= right.length || isSentenceEnd(right[lead]))) cut -= 1;
  const last = cut > 0 ? left[cut - 1] : undefined;
  let rest = right.slice(lead);
  if (capitalize && (last === undefined || isSentenceEnd(last))) rest = capitalFirst(rest);
  const first = rest[0];
  const space = last !== undefined && first !== undefined && last !== '\n' && !isPunct(first) && !(isCjk(last) && isCjk(first)) && (hadSpace || (isWordChar(last) && isWordChar(first)) || (isPunct(last) && isWordChar(first) && !isCjk(last)));
  return { lead, cut, join: space ? ' ' : '', right: rest };
}

/** Output built in pieces, so mending a seam never copies what was already written (linear overall). */
class Pieces {
  private readonly chunks: string[] = [];
  readonly map: number[] = [];

  /** The last `n` units written (a seam only looks at the end). */
  tail(n: number): string {
    let t = '';
    for (let k = this.chunks.length - 1; k >= 0 && t.length < n; k -= 1) t = (this.chunks[k] ?? '').slice(-n) + t;
    return t.slice(-n);
  }

  /** Drops the last `n` units. */
  drop(n: number): void {
    let left = n;
    this.map.length -= n;
    while (left > 0 && this.chunks.length > 0) {
      const last = this.chunks[this.chunks.length - 1] ?? '';
      if (last.length <= left) {
        this.chunks.pop();
        left -= last.length;
      } else {
        this.chunks[this.chunks.length - 1] = last.slice(0, last.length - left);
        left = 0;
      }
    }
  }

  /** Appends `piece`, whose first unit was at `from` of the input (`at`: one position for every unit). */
  push(piece: string, from: number, at?: number): void {
    if (piece === '') return;
    this.chunks.push(piece);
    for (let i = 0; i < piece.length; i += 1) this.map.push(at ?? from + i);
  }

  text(): string {
    return this.chunks.join('');
  }
}

/** How far back a seam looks: the spaces and the one pause it may trim, and the character before them. */
const SEAM_TAIL = 64;

/** Deletes `spans` (merged first) from `text`, mending each seam; linear in the text's length. */
export function removeSpans(text: string, spans: readonly Span[]): Removed {
  const merged = mergeSpans(spans);
  if (merged.length === 0) return { text, map: Int32Array.from({ length: text.length }, (_, i) => i) };
  const out = new Pieces();
  let pos = 0;
  for (let k = 0; k <= merged.length; k += 1) {
    const span = merged[k];
    const pieceEnd = span?.start ?? text.length;
    let piece = text.slice(pos, pieceEnd);
    let from = pos;
    if (k > 0) {
      const tail = out.tail(SEAM_TAIL);
      const seam = joinSeam(tail, piece, merged[k - 1]?.capitalize === true);
      out.drop(tail.length - seam.cut);
      out.push(seam.join, 0, pos > 0 ? pos - 1 : 0);
      from = pos + seam.lead;
      piece = seam.right;
    }
    out.push(piece, from);
    if (span !== undefined) pos = span.end;
  }
  return { text: out.text(), map: Int32Array.from(out.map) };
}

/** A span of a derived text (see {@link Removed}) as a span of the original text. */
export function spanInOriginal(span: Span, map: Int32Array, originalLength: number): Span {
  const start = span.start < map.length ? (map[span.start] ?? originalLength) : originalLength;
  const end = span.end - 1 < map.length && span.end > 0 ? (map[span.end - 1] ?? originalLength - 1) + 1 : originalLength;
  return { ...span, start, end: Math.max(start, end) };
}
