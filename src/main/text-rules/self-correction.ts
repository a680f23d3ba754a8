import type { Span } from './spans.ts';
import { atSentenceStart, isCjk, isPause, isSentenceEnd, isSpace, isWordChar, lower, skipSpaces, startsWithAt } from './text-chars.ts';
import { TextWords, type WordAt } from './word-boundaries.ts';

/**
 * Spoken self-corrections, only in forms that say unambiguously what they replace:
 *
 * - "X，不对，Y" / "X, I mean Y" (markers below, set off by a pause): Y replaces the end of X when the two
 *   line up — the same number pattern (明天三点，不对，四点 → 明天四点; at 3, I mean 4 → at 4), Y opening
 *   with a word X has (我们去北京，不对，去上海 → 我们去上海), or Y ending with the word X ends with and
 *   as many words before it (明天开会，不对，后天开会 → 后天开会). When nothing lines up the text stays as
 *   said: a marker that is content ("你说得不对，不对") is never acted on without that evidence.
 * - "scratch that" / "删掉上一句" set off on their own drop the sentence before them.
 *
 * Only deletes (Y already follows X), so what is left is always words the speaker said, in order.
 */

/** Markers that need a pause after them, and markers that may run straight into the correction. */
const MARKERS_PAUSED = ['不对不对', '不對不對', '不对', '不對', '不是', '说错了', '說錯了', '我说错了', '我說錯了', '哦不', '不不', 'no wait', 'no', 'sorry', 'wait', 'or rather'];
const MARKERS_OPEN = ['我是说', '我是說', '我的意思是', 'i mean', 'i meant'];
const SCRATCH = ['scratch that', 'delete that', '删掉上一句', '刪掉上一句', '删掉刚才那句', '刪掉剛才那句', '刚才那句不要了', '剛才那句不要了', '上一句不要了', '刚才那句删掉', '剛才那句刪掉'];
/** How far back a correction may reach (characters): corrections fix the last words, and it keeps the scan linear. */
const REACH = 200;

const NUMERAL_CHARS = new Set([...'0123456789〇零一二两兩三四五六七八九十百千万萬半']);
const NUMBER_WORDS = new Set([
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen',
  'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred', 'half',
]);

/** Length of the numeral (digits, 3:30, CJK numerals, an English number word) starting at `i` of `s`, 0 if none. */
function numeralAt(s: string, i: number): number {
  let j = i;
  while (j < s.length && (NUMERAL_CHARS.has(s[j] ?? '') || ((s[j] === ':' || s[j] === '.') && j > i && /[0-9]/.test(s[j + 1] ?? '')))) j += 1;
  if (j > i) return j - i;
  if (!isWordChar(s[i]) || isWordChar(s[i - 1])) return 0;
  while (j < s.length && isWordChar(s[j])) j += 1;
  return NUMBER_WORDS.has(s.slice(i, j).toLowerCase()) ? j - i : 0;
}

/** Start of the numeral that ends exactly at `end` of `s`, or -1. */
function numeralEndingAt(s: string, end: number): number {
  let j = end;
  while (j > 0 && (NUMERAL_CHARS.has(s[j - 1] ?? '') || ((s[j - 1] === ':' || s[j - 1] === '.') && j < end && /[0-9]/.test(s[j - 2] ?? '')))) j -= 1;
  if (j < end) return j;
  let k = end;
  while (k > 0 && isWordChar(s[k - 1])) k -= 1;
  return k < end && !isWordChar(s[end]) && NUMBER_WORDS.has(s.slice(k, end).toLowerCase()) ? k : -1;
}

/** True when `x` ends with `suffix` (case-insensitive for Latin letters). */
function endsWithI(x: string, suffix: string): boolean {
  return suffix.length <= x.length && startsWithAt(x, x.length - suffix.length, suffix);
}

/** Where in X the correction Y starts replacing, by number pattern: Y = P + number + S lined up with X's end. */
function numberAnchor(x: string, y: string): number {
  let v = 0;
  while (v < y.length && numeralAt(y, v) === 0) v += 1;
  if (v >= y.length) return -1;
  const p = y.slice(0, v).trimEnd();
  const rest = y.slice(v + numeralAt(y, v)).trimStart();
  for (let k = rest.length; k >= 0; k -= 1) {
    const suffix = rest.slice(0, k).trimEnd();
    if (k > 0 && suffix.length !== k) continue;
    if (!endsWithI(x, suffix)) continue;
    let end = x.length - suffix.length;
    while (end > 0 && isSpace(x[end - 1])) end -= 1;
    const num = numeralEndingAt(x, end);
    if (num < 0) continue;
    let start = num;
    while (start > 0 && isSpace(x[start - 1])) start -= 1;
    if (p.length > 0) {
      if (!endsWithI(x.slice(0, start), p)) continue;
      start -= p.length;
    }
    return start;
  }
  return -1;
}

const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'tomorrow', 'yesterday', '今天', '明天', '后天', '後天', '昨天', '前天'];
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const CLASSES: readonly ReadonlySet<string>[] = [new Set(DAY_NAMES), new Set(MONTH_NAMES)];

/** Where in X the correction starts replacing when X ends with a day (month) name and Y opens with another one. */
function classAnchor(x: string, xw: readonly WordAt[], yw: readonly WordAt[]): number {
  const last = xw[xw.length - 1];
  const first = yw[0];
  if (last === undefined || first === undefined) return -1;
  return CLASSES.some((c) => c.has(last.text) && c.has(first.text)) && last.end === x.trimEnd().length ? last.start : -1;
}

/** Where in X the correction starts replacing, by its first word found in X (the last such place), or by its last word ending X. */
function wordAnchor(xw: readonly WordAt[], yw: readonly WordAt[]): number {
  const first = yw[0];
  const last = yw[yw.length - 1];
  if (first === undefined || last === undefined) return -1;
  for (let k = xw.length - 1; k >= 0; k -= 1) if (xw[k]?.text === first.text) return xw[k]?.start ?? -1;
  const xl = xw[xw.length - 1];
  if (yw.length >= 2 && xl?.text === last.text && xw.length >= yw.length) return xw[xw.length - yw.length]?.start ?? -1;
  return -1;
}

/** Start of the stretch a correction may reach back to from `at`: the sentence start, at most REACH back. */
function reachBack(s: string, at: number, floor: number): number {
  let j = at;
  const stop = Math.max(floor, at - REACH);
  while (j > stop && !isSentenceEnd(s[j - 1])) j -= 1;
  return skipSpaces(s, j);
}

/** The marker starting at `i` (its length), when it is set off as one: after a pause, and before one when it must be. */
function markerAt(s: string, i: number): { len: number; open: boolean; scratch: boolean } | null {
  for (const list of [SCRATCH, MARKERS_OPEN, MARKERS_PAUSED]) {
    for (const m of list) {
      if (!startsWithAt(s, i, m) || isWordChar(s[i - 1]) || isWordChar(s[i + m.length])) continue;
      const scratch = list === SCRATCH;
      const open = list === MARKERS_OPEN;
      const after = skipSpaces(s, i + m.length);
      const setOff = after >= s.length || isPause(s[after]) || isSentenceEnd(s[after]);
      if (!setOff && !open) continue;
      return { len: m.length, open, scratch };
    }
  }
  return null;
}

/** The span a scratch marker at [i, end) removes: the sentence before it (or this one up to it) and the marker. */
function scratchSpan(s: string, i: number, end: number, floor: number): Span | null {
  let j = i;
  while (j > floor && isSpace(s[j - 1])) j -= 1;
  // Set off on its own: "I need to scratch that." is a sentence, not a command.
  if (!(j > floor && (isPause(s[j - 1]) || isSentenceEnd(s[j - 1])))) return null;
  j -= 1;
  const from = reachBack(s, j, floor);
  if (from >= j) return null;
  let after = skipSpaces(s, end);
  if (isPause(s[after]) || isSentenceEnd(s[after])) after = skipSpaces(s, after + 1);
  const capitalize = atSentenceStart(s, from) && (s[from] ?? '') !== (s[from] ?? '').toLowerCase();
  return { start: from, end: after, kind: 'self-correction', capitalize };
}

/** The span a correction marker at [i, end) removes, or null when X and Y do not line up. */
function correctionSpan(s: string, i: number, end: number, floor: number, words: TextWords): Span | null {
  let xEnd = i;
  while (xEnd > floor && isSpace(s[xEnd - 1])) xEnd -= 1;
  if (!(xEnd > floor && isPause(s[xEnd - 1]))) return null;
  xEnd -= 1;
  const xStart = reachBack(s, xEnd, floor);
  let yStart = skipSpaces(s, end);
  if (isPause(s[yStart])) yStart = skipSpaces(s, yStart + 1);
  let yEnd = yStart;
  while (yEnd < s.length && !isPause(s[yEnd]) && !isSentenceEnd(s[yEnd]) && yEnd - yStart < REACH) yEnd += 1;
  const x = s.slice(xStart, xEnd).trimEnd();
  const y = s.slice(yStart, yEnd).trimEnd();
  if (x === '' || y === '') return null;
  let p = numberAnchor(x, y);
  if (p < 0) {
    const xw = words.within(xStart, xStart + x.length);
    const yw = words.within(yStart, yStart + y.length);
    p = classAnchor(x, xw, yw);
    if (p < 0) p = wordAnchor(xw, yw);
  }
  // Y said again is a repetition ("no, no, no"), not a correction.
  if (p < 0 || x.slice(p).trim().toLowerCase() === y.toLowerCase()) return null;
  return { start: xStart + p, end: yStart, kind: 'self-correction' };
}

/** Every self-correction span of `s`; one left-to-right pass (each correction reaches back at most REACH). */
export function selfCorrections(s: string): Span[] {
  const spans: Span[] = [];
  const words = new TextWords(s);
  let floor = 0;
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i] ?? '';
    if (!(isCjk(c) || isWordChar(c)) || isWordChar(s[i - 1])) continue;
    const first = lower(c);
    if (!'不说說哦我删刪刚剛上inswod'.includes(first)) continue;
    const m = markerAt(s, i);
    if (m === null) continue;
    const span = m.scratch ? scratchSpan(s, i, i + m.len, floor) : correctionSpan(s, i, i + m.len, floor, words);
    if (span === null) continue;
    spans.push(span);
    floor = span.end;
    i = span.end - 1;
  }
  return spans;
}
