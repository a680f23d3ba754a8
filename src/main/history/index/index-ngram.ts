/**
 * The 1–2-character search index. Trigrams cannot answer queries shorter than three characters, and a
 * LIKE scan over 1,000,000 bodies takes seconds for a rare name such as `萍萍`. So every search body is
 * also indexed as the set of its unigrams and bigrams (by Unicode code point, case-folded like the
 * trigram body) in a contentless FTS5 table with `detail=none` (rowids only: the smallest doclists).
 *
 * SQLite's tokenizers cannot be extended from JS, so each n-gram is spelled as an ASCII token the
 * `ascii` tokenizer keeps whole: the lower-case hex code point(s), a bigram joined by the letter `g`
 * (never a hex digit). The spelling is injective — a token names exactly one code-point sequence — so
 * a match is a true substring match with no false positives, and no post-filter is needed.
 * Bigrams never span the U+0001 separator between the ASR, enhanced and final texts.
 */

/** Separator between the texts of a search body (see index-schema searchBody). */
const SEP = 0x01;

/** Hex spellings of the BMP, filled on demand (most text is BMP; astral code points are formatted). */
const hexCache: (string | undefined)[] = new Array<string | undefined>(0x10000);

function hex(cp: number): string {
  if (cp < 0x10000) {
    let h = hexCache[cp];
    if (h === undefined) {
      h = cp.toString(16);
      hexCache[cp] = h;
    }
    return h;
  }
  return cp.toString(16);
}

/** Name of the SQL function (registered on every connection) that turns a search body into n-gram tokens. */
export const NGRAM_SQL_FUNCTION = 'tingxie_ngrams';

/**
 * Space-separated unigram and bigram tokens of a (case-folded) search body. Repeats are left in: FTS5
 * stores a rowid once per token anyway, and skipping the dedupe makes the rebuild ~30% faster.
 * Deterministic: the same body always yields the same text, which the contentless FTS 'delete' needs.
 */
export function ngramTokens(body: string): string {
  let out = '';
  let prev: string | null = null;
  for (let i = 0; i < body.length; i++) {
    let cp = body.charCodeAt(i);
    // Join a surrogate pair into one code point (emoji, rare CJK); a lone surrogate stays as it is.
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < body.length) {
      const lo = body.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (cp === SEP || cp === 0) {
      prev = null;
      continue;
    }
    const h = hex(cp);
    out += prev === null ? ` ${h}` : ` ${h} ${prev}g${h}`;
    prev = h;
  }
  return out;
}

/**
 * The FTS5 MATCH expression for a case-folded needle of one or two code points (quoted, so it is one
 * token and never FTS syntax). Returns null for any other length.
 */
export function ngramMatch(needle: string): string | null {
  const cps = [...needle].map((c) => c.codePointAt(0) ?? 0);
  if (cps.length === 1 && cps[0] !== undefined) return `"${hex(cps[0])}"`;
  if (cps.length === 2 && cps[0] !== undefined && cps[1] !== undefined) return `"${hex(cps[0])}g${hex(cps[1])}"`;
  return null;
}
