import { isCjk, isWordChar } from './text-chars.ts';

/**
 * Word boundaries in Chinese, which has no spaces. The dictionary segmentation of ICU (the Unicode
 * library inside V8/Node and Chromium) through `Intl.Segmenter` with `granularity: 'word'`:
 * https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/Segmenter
 * ICU segments Chinese with its CJK dictionary (https://unicode-org.github.io/icu/userguide/boundaryanalysis/#dictionary-based-breakiterator),
 * so "现在" and "平平安安" are one word each. Text is segmented in bounded pieces, so the cost is linear.
 */

/** One word of a text, with its position; Latin words lowercased. */
export interface WordAt {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

let segmenter: Intl.Segmenter | null = null;
function zhSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  return segmenter;
}

/** Longest piece handed to ICU at once; pieces are cut at punctuation or spaces where possible. */
const PIECE = 4096;

/** The word-like segments of `text` (CJK words and Latin words; punctuation and spaces skipped). */
export function wordsOf(text: string): WordAt[] {
  const out: WordAt[] = [];
  for (let from = 0; from < text.length; ) {
    const to = pieceEnd(text, from);
    for (const seg of zhSegmenter().segment(text.slice(from, to))) {
      if (!seg.isWordLike) continue;
      const start = from + seg.index;
      out.push({ start, end: start + seg.segment.length, text: seg.segment.toLowerCase() });
    }
    from = to;
  }
  return out;
}

/** End of the ICU piece starting at `from`: at most PIECE units, cut after a non-word character when there is one. */
function pieceEnd(text: string, from: number): number {
  const hard = Math.min(text.length, from + PIECE);
  if (hard === text.length) return hard;
  for (let j = hard; j > from + PIECE / 2; j -= 1) if (!isCjk(text[j - 1]) && !isWordChar(text[j - 1])) return j;
  return hard;
}

/**
 * For each position of `text`, the start and end of the word it is in (ICU segmentation), so "is this
 * match inside a longer word" is two look-ups. Built once per text, linear.
 */
export class WordIndex {
  private readonly startOf: Int32Array;
  private readonly endOf: Int32Array;

  constructor(text: string) {
    this.startOf = new Int32Array(text.length).fill(-1);
    this.endOf = new Int32Array(text.length).fill(-1);
    for (const w of wordsOf(text)) {
      for (let i = w.start; i < w.end; i += 1) {
        this.startOf[i] = w.start;
        this.endOf[i] = w.end;
      }
    }
  }

  /** True when [start, end) lies inside one word that is longer than it (现在 for 在, 平平安安 for 平平). */
  insideLongerWord(start: number, end: number): boolean {
    const ws = this.startOf[start] ?? -1;
    const we = this.endOf[start] ?? -1;
    if (ws < 0) return false;
    return ws <= start && we >= end && we - ws > end - start;
  }
}

/**
 * The words of one text, segmented once (on first use) and looked up by range: a correction's X and Y are
 * ranges of the text, so many markers in one text never segment it again. Word positions here are
 * relative to the range's start.
 */
export class TextWords {
  private all: WordAt[] | null = null;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** The words inside [start, end), positions relative to `start`. */
  within(start: number, end: number): WordAt[] {
    this.all ??= wordsOf(this.text);
    const all = this.all;
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((all[mid]?.start ?? 0) < start) lo = mid + 1;
      else hi = mid;
    }
    const out: WordAt[] = [];
    for (let k = lo; k < all.length; k += 1) {
      const w = all[k] as WordAt;
      if (w.end > end) break;
      out.push({ start: w.start - start, end: w.end - start, text: w.text });
    }
    return out;
  }
}
