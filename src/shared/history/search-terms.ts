/**
 * How history search text is read, the same in the History Browser and the CLI: words separated by
 * spaces must all occur in a record, in any order and in any of its texts; text in double quotes ("…"
 * or “…”) must occur as written, spaces included. Each term is a substring match (Chinese has no spaces
 * between words, so a term is never required to be a whole word). Pure.
 */

/** Most terms one search uses (the rest are ignored: each term is one more index lookup). */
export const MAX_SEARCH_TERMS = 8;

/** The terms of `text`: quoted phrases and space-separated words, duplicates removed, in order. */
export function parseSearchTerms(text: string): string[] {
  const terms: string[] = [];
  // Straight and typographic quotes (“” are what a Chinese keyboard types).
  const re = /["“”]([^"“”]*)["“”]?|[^\s"“”]+/gu;
  for (const m of text.matchAll(re)) {
    const term = (m[1] !== undefined ? m[1] : m[0]).trim();
    if (term !== '' && !terms.includes(term)) terms.push(term);
  }
  return terms.slice(0, MAX_SEARCH_TERMS);
}
