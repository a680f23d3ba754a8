import type { Span } from './spans.ts';
import { atSentenceStart, isPause, isSentenceEnd, isSpace, isWordChar, lower, skipSpaces } from './text-chars.ts';

/**
 * English fillers, found without a model: hesitation sounds (um, uh, er, erm, hmm, mm), "you know" set
 * off as an aside ("I was, you know, tired" — never "you know the answer", "do you know?", "as you
 * know,"), and stutters of short function words ("I I I", "the the", "I-I"). "ER" in capitals (the
 * emergency room) and words that are only sometimes fillers ("like", "so", "well") are kept.
 */

const SOUNDS = new Set(['um', 'umm', 'ummm', 'uh', 'uhh', 'uhm', 'erm', 'er', 'hmm', 'hmmm', 'hm', 'mm', 'mmm']);
/** Said twice in a row these are always a stutter. */
const TWICE = new Set(['i', 'the', 'a', 'an', 'and', "i'm", 'my', 'we', 'they', 'he', 'she', 'to', 'of']);
/** These only when said three or more times ("that that" and "you you" can be meant). */
const THRICE = new Set(['you', 'it', 'that', 'is', 'in', 'it\'s', 'this', 'so', 'but', 'if']);

interface Word {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The Latin words of `s` (letters, digits, inner apostrophes), in order; one pass. */
function words(s: string): Word[] {
  const out: Word[] = [];
  let i = 0;
  while (i < s.length) {
    if (!isWordChar(s[i])) {
      i += 1;
      continue;
    }
    const start = i;
    while (i < s.length && (isWordChar(s[i]) || ((s[i] === "'" || s[i] === '’') && isWordChar(s[i + 1])))) i += 1;
    let text = '';
    for (let k = start; k < i; k += 1) text += s[k] === '’' ? "'" : lower(s[k] ?? '');
    out.push({ start, end: i, text });
  }
  return out;
}

/** True when only spaces (and at most one hyphen or comma) lie between two words. */
function adjacent(s: string, a: Word, b: Word): boolean {
  let seen = 0;
  for (let k = a.end; k < b.start; k += 1) {
    const c = s[k];
    if (isSpace(c) && c !== '\n') continue;
    if ((c === '-' || c === ',') && seen === 0) seen += 1;
    else return false;
  }
  return true;
}

/** True when the text after `end` (spaces skipped) is a pause, a sentence end other than "?", or nothing. */
function asideEnds(s: string, end: number): boolean {
  const j = skipSpaces(s, end);
  return j >= s.length || isPause(s[j]) || (isSentenceEnd(s[j]) && s[j] !== '?' && s[j] !== '？');
}

/** True when the text before `start` (spaces skipped) is a pause or a sentence start. */
function asideStarts(s: string, start: number): boolean {
  let j = start - 1;
  while (j >= 0 && isSpace(s[j]) && s[j] !== '\n') j -= 1;
  return j < 0 || isPause(s[j]) || isSentenceEnd(s[j]);
}

/** The span removing an aside from `start` to `end`: with its trailing comma, or its leading one before a sentence end. */
function asideSpan(s: string, start: number, end: number): Span {
  const capitalize = atSentenceStart(s, start) && (s[start] ?? '') !== (s[start] ?? '').toLowerCase();
  let j = skipSpaces(s, end);
  if (isPause(s[j])) {
    // Set off by commas on both sides ("I was, you know, tired"): both commas go with it.
    let b = start;
    while (b > 0 && isSpace(s[b - 1]) && s[b - 1] !== '\n') b -= 1;
    const both = b > 0 && (s[b - 1] === ',' || s[b - 1] === '，') && (s[j] === ',' || s[j] === '，');
    return both ? { start: b - 1, end: j + 1, kind: 'filler', capitalize } : { start, end: skipSpaces(s, j + 1), kind: 'filler', capitalize };
  }
  // At a sentence end ("…, um.") the comma before it goes instead, the full stop stays.
  let b = start;
  while (b > 0 && isSpace(s[b - 1]) && s[b - 1] !== '\n') b -= 1;
  if (b > 0 && isPause(s[b - 1])) b -= 1;
  j = end;
  return { start: b, end: j, kind: 'filler', capitalize };
}

/** The span of a stutter starting at word `k` (all copies but the last), and how many words it covers. */
function stutterAt(s: string, ws: readonly Word[], k: number): { span: Span; count: number } | null {
  const w = ws[k];
  if (w === undefined || (!TWICE.has(w.text) && !THRICE.has(w.text))) return null;
  let n = k + 1;
  while (n < ws.length && ws[n]?.text === w.text && adjacent(s, ws[n - 1] as Word, ws[n] as Word)) n += 1;
  const copies = n - k;
  if (copies < 2 || (copies === 2 && !TWICE.has(w.text))) return null;
  const last = ws[n - 1] as Word;
  return { span: { start: w.start, end: last.start, kind: 'stutter' }, count: copies - 1 };
}

/** Every English filler span in `s`. */
export function englishFillers(s: string): Span[] {
  const ws = words(s);
  const spans: Span[] = [];
  for (let k = 0; k < ws.length; k += 1) {
    const w = ws[k] as Word;
    const raw = s.slice(w.start, w.end);
    if (SOUNDS.has(w.text) && !(w.text === 'er' && raw === 'ER') && !afterDigit(s, w.start)) {
      spans.push(asideSpan(s, w.start, w.end));
      continue;
    }
    const next = ws[k + 1];
    if (w.text === 'you' && next?.text === 'know' && adjacentPlain(s, w, next) && asideStarts(s, w.start) && asideEnds(s, next.end)) {
      spans.push(asideSpan(s, w.start, next.end));
      k += 1;
      continue;
    }
    const st = stutterAt(s, ws, k);
    if (st !== null) {
      spans.push(st.span);
      k += st.count - 1;
    }
  }
  return spans;
}

/** Only spaces between two words. */
function adjacentPlain(s: string, a: Word, b: Word): boolean {
  for (let k = a.end; k < b.start; k += 1) if (!isSpace(s[k]) || s[k] === '\n') return false;
  return true;
}

/** True when a digit comes right before `start` (spaces skipped): "5 mm" is a unit, not a hum. */
function afterDigit(s: string, start: number): boolean {
  let j = start - 1;
  while (j >= 0 && isSpace(s[j])) j -= 1;
  const c = s.charCodeAt(j);
  return c >= 0x30 && c <= 0x39;
}
