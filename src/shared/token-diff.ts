/**
 * The token diff shared by main (history lines, correction retrieval, divergence guard) and the
 * preview's diff view: a tokeniser, then an LCS over the tokens walked from the start into same/change
 * runs. Each caller bounds the size it compares exactly (beyond it the texts are one whole change), so a
 * pathological input can neither freeze the panel nor stall a dictation. Environment-free and pure.
 */

/** A run of a token diff: unchanged text, or a change from `from` (the first text) to `to` (the second). */
export type DiffOp =
  | { readonly kind: 'same'; readonly text: string }
  | { readonly kind: 'change'; readonly from: string; readonly to: string };

/**
 * WenZi's tokenisation (main side): a run of Latin letters/digits (with inner `_'’.-`) is one token,
 * every other non-space character (each CJK character, each punctuation mark) is its own token,
 * whitespace runs are kept as tokens so the text can be rebuilt.
 */
export function latinWordTokens(text: string): string[] {
  return text.match(/[A-Za-z0-9_'’.-]*[A-Za-z0-9]|\s+|[^\sA-Za-z0-9]/gu) ?? [];
}

const UNICODE_TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}_'-]+|\s+|[^\s\p{L}\p{N}]/gu;

/**
 * Unicode-aware tokenisation (preview side): each Chinese/Japanese/Korean character alone, a run of
 * letters/digits of any other script as one word, whitespace runs and other characters as tokens.
 */
export function unicodeWordTokens(text: string): string[] {
  return text.match(UNICODE_TOKEN) ?? [];
}

/**
 * Diffs `a` → `b` over the tokens `tokenize` gives; when `fits(tokensOfA, tokensOfB)` is false the
 * texts are compared whole (one `same` if equal, else one `change`) instead of token by token.
 */
export function tokenDiff(a: string, b: string, tokenize: (text: string) => string[], fits: (n: number, m: number) => boolean): DiffOp[] {
  const x = tokenize(a);
  const y = tokenize(b);
  if (!fits(x.length, y.length)) return a === b ? [{ kind: 'same', text: a }] : [{ kind: 'change', from: a, to: b }];
  return lcsDiff(x, y);
}

/** Token LCS diff of two token lists, as alternating same/change runs. */
export function lcsDiff(x: readonly string[], y: readonly string[]): DiffOp[] {
  const n = x.length;
  const m = y.length;
  const w = m + 1;
  // lcs[i * w + j] = LCS length of x[i..] and y[j..], in one flat array; 16 bits suffice while the
  // shorter side has fewer than 65,536 tokens (an LCS is never longer than it).
  const lcs = Math.min(n, m) < 0xffff ? new Uint16Array((n + 1) * w) : new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j] ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
    }
  }
  const ops: DiffOp[] = [];
  let from = '';
  let to = '';
  let same = '';
  const flushChange = (): void => {
    if (from !== '' || to !== '') ops.push({ kind: 'change', from, to });
    from = '';
    to = '';
  };
  const flushSame = (): void => {
    if (same !== '') ops.push({ kind: 'same', text: same });
    same = '';
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) {
      flushChange();
      same += x[i] ?? '';
      i++;
      j++;
    } else if (j < m && (i >= n || (lcs[i * w + j + 1] ?? 0) >= (lcs[(i + 1) * w + j] ?? 0))) {
      flushSame();
      to += y[j] ?? '';
      j++;
    } else {
      flushSame();
      from += x[i] ?? '';
      i++;
    }
  }
  flushChange();
  flushSame();
  return ops;
}
