/**
 * Words in a dictated text, counted the way each script is counted: a Chinese (or Japanese/Korean) character
 * is one word — Chinese word counts (字数) count characters — and a run of Latin letters or digits (with
 * inner apostrophes and hyphens: "don't", "e-mail") is one word. Punctuation and spaces count nothing. One
 * pass over the text.
 */
const CJK_CHAR = '[\\u3400-\\u9fff\\uf900-\\ufaff\\u3040-\\u30ff\\uac00-\\ud7af]';
/** Letters and digits of the alphabetic scripts (Latin, Greek, Cyrillic): never a CJK character, so "abc中文" is 1 + 2. */
const ALNUM = '[0-9A-Za-z\\u00c0-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff]';
const WORD = new RegExp(`${CJK_CHAR}|${ALNUM}+(?:['’-]${ALNUM}+)*`, 'gu');

/** The number of words in `text`. */
export function countWords(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(WORD)) n++;
  return n;
}
