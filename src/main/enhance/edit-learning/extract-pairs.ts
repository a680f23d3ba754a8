/**
 * Vocabulary pairs from one edit: the text the user was shown (recognized or enhanced) and the text
 * they confirmed. Chinese has no spaces, so the texts are aligned character by character; each change
 * is widened to the smallest span that is a word (Intl.Segmenter's dictionary word breaks,
 * https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/Segmenter —
 * a lone character is joined to its neighbour word, since a one-character pair would fire everywhere),
 * and kept only when it sounds like what was there (a mis-recognition: 平平 → 萍萍, 在说 → 再说), not when
 * the meaning was changed (开心 → 高兴). English is compared by word (cloud → Claude, get hub → GitHub),
 * and across scripts by pinyin (克劳德 → Claude). Pure apart from the segmenter; bounded by align.ts.
 */
import { hunksOf, isHan, isLatin, isSpace, textOf, tokenize, type Hunk, type Token } from './align.ts';
import { hanSoundsAlike, latinSoundsAlike, pinyinWord } from './sound.ts';

/** Why a pair is proposed: the engine mis-heard Chinese (same pinyin), or an English term / cross-script spelling. */
export type PairKind = 'homophone' | 'term';

/** A proposed vocabulary pair. */
export interface LearnedPair {
  readonly wrong: string;
  readonly right: string;
  readonly kind: PairKind;
}

/** Most pairs one edit proposes (more changes than this read as a rewrite of the text). */
export const MAX_PAIRS_PER_EDIT = 3;
/** Longest text the extractor looks at (a dictation is far shorter). */
export const MAX_EDIT_CHARS = 5000;
/** Most separate changes an edit may hold and still be read as corrections. */
const MAX_HUNKS = 12;
/** Longest Chinese span of a pair, in characters. */
const MAX_HAN_SPAN = 6;
/** Most words on either side of an English pair. */
const MAX_LATIN_WORDS = 3;

// Characters whose changes are grammar or reference, not vocabulary (他 → 她, 的 → 地): never a pair on
// their own, and never the neighbour a lone character is widened with.
const FUNCTION_CHARS = new Set(Array.from('的地得了着过和跟与及或在是不也都就还又把被给对向从到为以而且吗呢吧啊呀嘛我你您他她它们这那个一'));
// English function words: a change of one of these is grammar, not a term.
const EN_FUNCTION = new Set(
  'a an the to of in on at by for with from as and or but not no is are was were be been am do does did have has had will would can could should may might must i you he she it we they me him her us them my your his its our their this that these those there here so if then than'.split(
    ' ',
  ),
);

// Single characters a name or term is not made of: where the run of single characters around a change stops.
const BOUNDARY_CHARS = new Set([...FUNCTION_CHARS, ...Array.from('要来去说到有会能想让叫请问看做写吃喝走回买发打开关用找等听读送拿放带很太最')]);
const HAN_RUN = /^\p{Script=Han}+$/u;

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** The confirmed text cut into words once per edit. */
interface Words {
  readonly text: string;
  readonly segs: readonly { readonly start: number; readonly end: number; readonly text: string }[];
}

function wordsOf(text: string): Words {
  return { text, segs: Array.from(segmenter.segment(text), (s) => ({ start: s.index, end: s.index + s.segment.length, text: s.segment })) };
}

/** The vocabulary pairs an edit from `before` to `after` proposes (none for a rewrite), at most {@link MAX_PAIRS_PER_EDIT}. */
export function extractPairs(before: string, after: string): LearnedPair[] {
  if (before === after || before.length > MAX_EDIT_CHARS || after.length > MAX_EDIT_CHARS) return [];
  const a = tokenize(before);
  const b = tokenize(after);
  const hunks = hunksOf(a, b);
  // Many separate changes are a rewrite too; stopping here also keeps the work below proportional to the text.
  if (hunks === null || hunks.length === 0 || hunks.length > MAX_HUNKS) return [];
  // An edit that changed most of the text is a rewrite: nothing in it is a mis-hearing to learn.
  // (A short text is judged by its hunks alone: "cloud" → "Claude" changes all of it and is still a term.)
  const count = (tokens: readonly Token[], from: number, to: number): number => tokens.slice(from, to).filter((t) => !isSpace(t)).length;
  const changed = hunks.reduce((n, h) => n + Math.max(count(a, h.aStart, h.aEnd), count(b, h.bStart, h.bEnd)), 0);
  const total = count(a, 0, a.length);
  if (total >= 8 && changed > 0.6 * total) return [];
  const out: LearnedPair[] = [];
  const words = wordsOf(after);
  for (const h of hunks) {
    const p = firstPair(a, b, h, words);
    if (p !== null && !out.some((q) => q.wrong === p.wrong && q.right === p.right)) out.push(p);
  }
  return out.length > MAX_PAIRS_PER_EDIT ? [] : out;
}

/**
 * A change next to a deletion or insertion forms one hunk ("嗯，既使" → "即使"): when the two sides differ in
 * length, the shorter side is also tried against the end and the start of the longer one, the rest being
 * the deletion (or insertion).
 */
function firstPair(a: readonly Token[], b: readonly Token[], h: Hunk, after: Words): LearnedPair | null {
  const whole = pairOf(a, b, h, after);
  const n = h.aEnd - h.aStart;
  const m = h.bEnd - h.bStart;
  if (whole !== null || n === m || Math.min(n, m) === 0) return whole;
  const k = Math.min(n, m);
  const tail: Hunk = { aStart: h.aEnd - k, aEnd: h.aEnd, bStart: h.bEnd - k, bEnd: h.bEnd };
  const head: Hunk = { aStart: h.aStart, aEnd: h.aStart + k, bStart: h.bStart, bEnd: h.bStart + k };
  return pairOf(a, b, tail, after) ?? pairOf(a, b, head, after);
}

function pairOf(a: readonly Token[], b: readonly Token[], h: Hunk, after: Words): LearnedPair | null {
  const from = a.slice(h.aStart, h.aEnd).filter((t) => !isSpace(t));
  const to = b.slice(h.bStart, h.bEnd).filter((t) => !isSpace(t));
  if (from.length === 0 || to.length === 0) return null; // an insertion or a deletion is not a pair
  if (from.every(isHan) && to.every(isHan)) return hanPair(a, b, h, after);
  if (from.every(isLatin) && to.every(isLatin)) return latinPair(textOf(a, h.aStart, h.aEnd).trim(), textOf(b, h.bStart, h.bEnd).trim(), from, to);
  if (from.every(isHan) && to.every(isLatin) && to.length <= MAX_LATIN_WORDS) return crossPair(textOf(a, h.aStart, h.aEnd), textOf(b, h.bStart, h.bEnd).trim(), 'han-to-latin');
  if (from.every(isLatin) && to.every(isHan) && from.length <= MAX_LATIN_WORDS) return crossPair(textOf(a, h.aStart, h.aEnd).trim(), textOf(b, h.bStart, h.bEnd), 'latin-to-han');
  return null;
}

/** A Chinese change: sounds alike, then widened to a word on the confirmed side, the same context on the other. */
function hanPair(a: readonly Token[], b: readonly Token[], h: Hunk, words: Words): LearnedPair | null {
  const after = words.text;
  const wrongCore = textOf(a, h.aStart, h.aEnd);
  const rightCore = textOf(b, h.bStart, h.bEnd);
  if (!hanSoundsAlike(wrongCore, rightCore)) return null;
  if (Array.from(rightCore).every((c) => FUNCTION_CHARS.has(c))) return null;
  const start = b[h.bStart]?.start ?? 0;
  const end = (b[h.bEnd - 1]?.start ?? 0) + (b[h.bEnd - 1]?.text.length ?? 0);
  const span = wordSpan(words, start, end);
  if (span === null) return null;
  const left = after.slice(span.start, start);
  const right = after.slice(end, span.end);
  // The widened context must be unchanged on the recognized side too (no second change inside the word).
  const beforeHunk = textOf(a, Math.max(0, h.aStart - Array.from(left).length), h.aStart);
  const afterHunk = textOf(a, h.aEnd, h.aEnd + Array.from(right).length);
  if (beforeHunk !== left || afterHunk !== right) return null;
  return { wrong: left + wrongCore + right, right: after.slice(span.start, span.end), kind: 'homophone' };
}

/**
 * The smallest run of whole words of `text` covering `[start, end)`, all Han. A single character is widened:
 * with a single character next to it (the segmenter cuts a word it does not know, such as a name, into
 * single characters: 李/萍, 嘉/怡), else to the word before it, else the word after it; null when only
 * function characters are next to it.
 */
function wordSpan(words: Words, start: number, end: number): { readonly start: number; readonly end: number } | null {
  const { text, segs } = words;
  const at = segs.findIndex((s) => s.end > start);
  let last = at;
  while (segs[last + 1] !== undefined && (segs[last + 1]?.start ?? end) < end) last++;
  const first = segs[at];
  const lastSeg = segs[last];
  if (first === undefined || lastSeg === undefined) return null;
  let span = { start: first.start, end: lastSeg.end };
  if (!HAN_RUN.test(text.slice(span.start, span.end))) return null;
  if (Array.from(text.slice(span.start, span.end)).length === 1) {
    const single = (k: number): boolean => {
      const t = segs[k]?.text ?? '';
      return /^\p{Script=Han}$/u.test(t) && !BOUNDARY_CHARS.has(t);
    };
    // A name is two characters more often than not (surname + given name): one single neighbour, the one before first.
    const from = single(at - 1) ? at - 1 : at;
    const to = from === at && single(at + 1) ? at + 1 : at;
    const prev = segs[at - 1];
    const next = segs[at + 1];
    const joinable = (s: typeof prev): s is NonNullable<typeof prev> => s !== undefined && HAN_RUN.test(s.text) && !Array.from(s.text).every((c) => FUNCTION_CHARS.has(c));
    if (to > from) span = { start: segs[from]?.start ?? span.start, end: segs[to]?.end ?? span.end };
    else if (joinable(prev)) span = { start: prev.start, end: span.end };
    else if (joinable(next)) span = { start: span.start, end: next.end };
    else return null;
  }
  return Array.from(text.slice(span.start, span.end)).length <= MAX_HAN_SPAN ? span : null;
}

/** An English change of one to three words that sounds alike and reads as a term (capitals, digits or symbols). */
function latinPair(wrong: string, right: string, from: readonly Token[], to: readonly Token[]): LearnedPair | null {
  if (from.length > MAX_LATIN_WORDS || to.length > MAX_LATIN_WORDS) return null;
  if (from.every((t) => /^[0-9.]+$/.test(t.text)) || to.every((t) => /^[0-9.]+$/.test(t.text))) return null; // numbers are not vocabulary
  if (to.every((t) => EN_FUNCTION.has(t.text.toLowerCase())) || from.every((t) => EN_FUNCTION.has(t.text.toLowerCase()))) return null;
  // A term is written with a capital, a digit or a symbol; a change between two plain lower-case words is grammar or style.
  if (!/[A-Z0-9.#+]/.test(right)) return null;
  const bare = (s: string): string => s.replace(/\s+/g, '');
  // Only the first letter capitalised ("claude" → "Claude") is sentence case, not a term's spelling.
  if (bare(wrong) === bare(right) || right === capitalised(wrong)) return null;
  if (!latinSoundsAlike(wrong, right)) return null;
  return { wrong, right, kind: 'term' };
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** 克劳德 → Claude (or "ping ping" → 萍萍): the pinyin of the Han side sounds like the Latin side. */
function crossPair(wrong: string, right: string, dir: 'han-to-latin' | 'latin-to-han'): LearnedPair | null {
  const han = dir === 'han-to-latin' ? wrong : right;
  const latin = dir === 'han-to-latin' ? right : wrong;
  if (Array.from(han).length < 2 || Array.from(han).length > MAX_HAN_SPAN) return null;
  if (dir === 'han-to-latin' && !/[A-Z0-9]/.test(latin)) return null;
  return latinSoundsAlike(pinyinWord(han), latin) ? { wrong, right, kind: 'term' } : null;
}
