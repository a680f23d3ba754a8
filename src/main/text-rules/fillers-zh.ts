import type { Span } from './spans.ts';
import { atClauseStart, isCjk, isPause, isSpace, skipSpaces } from './text-chars.ts';

/**
 * Chinese fillers, found without a model. Only forms that are hesitation whatever the sentence are
 * removed; a word that is also a content word (那个人, 就是他, 然后我们去, 金额, 好啊) stays unless its
 * position says it is a filler. The labelled corpus in test/fixtures/text-rules/ measures this.
 *
 * - 嗯 呃: hesitation sounds wherever they stand (neither is part of a common word).
 * - 额 唔: only standing alone at a clause start (额 is in 金额, 额外; 唔 is Cantonese "not").
 * - 啊: only at a clause start before an ellipsis or another filler (啊！ and 是啊 are meant).
 * - 那个 这个 就是 就是说: only at a clause start followed by a pause (那个，我想问一下); never
 *   before a noun (那个人) or in a list (这个，那个，都要).
 * - Repeats: 那个那个 这个这个 就是就是 然后然后 我们我们…: one copy stays.
 * - Stutters: a pronoun or demonstrative said two or more times at a clause start (我我想), or three or
 *   more times anywhere (给我我我): one stays.
 */

const ALWAYS = new Set(['嗯', '呃']);
const ALONE = new Set(['额', '唔']);
// Traditional forms too: the text is in the script asr.chinese_script chose (asr/chinese-script.ts).
const PHRASES = ['就是说', '就是說', '那个', '这个', '那個', '這個', '就是'];
const DOUBLED = new Set([
  ...['那个', '这个', '就是', '然后', '我们', '你们', '他们', '她们', '咱们', '因为', '所以', '但是', '可是', '如果', '还有'],
  ...['那個', '這個', '然後', '我們', '你們', '他們', '她們', '咱們', '因為', '還有'],
]);
/** 这个 / 那个 in either script (lists of demonstratives are never fillers). */
const DEMONSTRATIVES = ['这个', '那个', '這個', '那個'];
/** What follows the second item of a list of demonstratives (这个，那个都要). */
const LIST_TAIL = new Set(['都', '也', '和', '或', '还', '跟']);
const STUTTER = new Set(['我', '你', '他', '她', '它', '咱', '这', '這', '那', '就']);

/** True when a pause (or the end) follows the text at `i`, spaces skipped. */
function pauseAt(s: string, i: number): boolean {
  const j = skipSpaces(s, i);
  return j >= s.length || isPause(s[j]);
}

/** End of the span that removes a filler ending at `end`: its following pause and spaces go with it. */
function withPause(s: string, end: number): number {
  let j = skipSpaces(s, end);
  if (j < s.length && isPause(s[j]) && s[j] !== '—' && s[j] !== '-') j += 1;
  while (j < s.length && s[j] === '…') j += 1;
  return skipSpaces(s, j);
}

/** True when another filler starts at `i` (spaces and one pause skipped). */
function fillerNext(s: string, i: number): boolean {
  const j = skipSpaces(s, i);
  const c = s[j];
  return c !== undefined && (ALWAYS.has(c) || DEMONSTRATIVES.some((d) => s.startsWith(d, j)));
}

/** The span of a hesitation sound at `i`, or null. */
function hesitation(s: string, i: number, clauseStart: boolean): Span | null {
  const c = s[i] ?? '';
  if (!ALWAYS.has(c) && !ALONE.has(c) && c !== '啊') return null;
  let end = i + 1;
  while (end < s.length && (s[end] === c || ALWAYS.has(s[end] ?? ''))) end += 1;
  if (ALWAYS.has(c)) return { start: i, end: withPause(s, end), kind: 'filler' };
  if (ALONE.has(c) && clauseStart && (pauseAt(s, end) || fillerNext(s, end))) return { start: i, end: withPause(s, end), kind: 'filler' };
  if (c === '啊' && clauseStart) {
    const j = skipSpaces(s, end);
    if (s[j] === '…' || fillerNext(s, j) || ((s[j] === '，' || s[j] === ',') && fillerNext(s, j + 1))) return { start: i, end: withPause(s, end), kind: 'filler' };
  }
  return null;
}

/** True when the clause after a 这个/那个 pause opens with 这个/那个 as well: a list, not a filler. */
function listNext(s: string, after: number): boolean {
  const j = skipSpaces(s, after);
  if (!DEMONSTRATIVES.some((d) => s.startsWith(d, j))) return false;
  const k = skipSpaces(s, j + 2);
  return k >= s.length || isPause(s[k]) || LIST_TAIL.has(s[k] ?? '');
}

/** True when the clause before `i` was 这个/那个 as well (这个，那个，都要): a list. */
function listBefore(s: string, i: number): boolean {
  let j = i;
  while (j > 0 && isSpace(s[j - 1])) j -= 1;
  if (!(j > 0 && isPause(s[j - 1]))) return false;
  j -= 1;
  while (j > 0 && isSpace(s[j - 1])) j -= 1;
  return DEMONSTRATIVES.some((d) => s.endsWith(d, j));
}

/** The span of a filler phrase or a repeated word at `i`, or null. */
function phrase(s: string, i: number, clauseStart: boolean): Span | null {
  for (const w of DOUBLED) {
    if (!s.startsWith(w, i) || !s.startsWith(w, i + w.length)) continue;
    let end = i + w.length;
    while (s.startsWith(w, end + w.length)) end += w.length;
    return { start: i, end, kind: 'stutter' };
  }
  if (!clauseStart) return null;
  for (const w of PHRASES) {
    if (!s.startsWith(w, i) || !pauseAt(s, i + w.length)) continue;
    const after = withPause(s, i + w.length);
    if (after >= s.length || listNext(s, after) || listBefore(s, i)) return null;
    return { start: i, end: after, kind: 'filler' };
  }
  return null;
}

/** The span of a stuttered pronoun at `i` (all copies but the last), or null. */
function stutter(s: string, i: number, clauseStart: boolean): Span | null {
  const c = s[i] ?? '';
  if (!STUTTER.has(c)) return null;
  let end = i + 1;
  while (end < s.length && (s[end] === c || (isSpace(s[end]) && s[end + 1] === c))) end += 1;
  let copies = 0;
  for (let k = i; k < end; k += 1) if (s[k] === c) copies += 1;
  if (copies >= 3 || (copies === 2 && clauseStart)) return { start: i, end: end - 1, kind: 'stutter' };
  return null;
}

/** Every Chinese filler span in `s`; one left-to-right pass. */
export function chineseFillers(s: string): Span[] {
  const spans: Span[] = [];
  let i = 0;
  let clauseStart = true;
  while (i < s.length) {
    const c = s[i];
    if (!isCjk(c)) {
      if (!isSpace(c)) clauseStart = atClauseStart(s, i + 1);
      i += 1;
      continue;
    }
    const found = hesitation(s, i, clauseStart) ?? phrase(s, i, clauseStart) ?? stutter(s, i, clauseStart);
    if (found !== null) {
      spans.push(found);
      // A removed filler leaves the clause where it was: 嗯，那个，我们 → both go.
      i = found.end;
      continue;
    }
    clauseStart = false;
    i += 1;
  }
  return spans;
}
