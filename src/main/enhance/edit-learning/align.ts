/**
 * The alignment under learning from edits: both texts are cut into tokens (each Han character alone, a
 * run of Latin letters/digits as one word, whitespace and every other character as tokens), the common
 * head and tail are taken off in one linear pass, and only the middle is aligned by an LCS — bounded, so
 * an edit that rewrote a long text gives no hunks instead of a quadratic stall. Adjacent changes, and
 * changes separated only by whitespace ("get hub" → "GitHub"), form one hunk.
 */

/** One token with its offset in the text. */
export interface Token {
  readonly text: string;
  readonly start: number;
}

/** A change: tokens `a[aStart, aEnd)` of the first text became `b[bStart, bEnd)` of the second. */
export interface Hunk {
  readonly aStart: number;
  readonly aEnd: number;
  readonly bStart: number;
  readonly bEnd: number;
}

/** Most LCS cells the middle of an edit may need; beyond it the edit counts as a rewrite (no hunks). */
export const MAX_ALIGN_CELLS = 250_000;

const TOKEN = /\p{Script=Han}|[A-Za-z0-9](?:[A-Za-z0-9'’.+#-]*[A-Za-z0-9+#])?|\s+|[^\s]/gu;

/** The tokens of `text` in order. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) out.push({ text: m[0], start: m.index });
  return out;
}

/** Whether a token is whitespace. */
export const isSpace = (t: Token | undefined): boolean => t !== undefined && /^\s+$/u.test(t.text);
/** Whether a token is one Han character. */
export const isHan = (t: Token | undefined): boolean => t !== undefined && /^\p{Script=Han}$/u.test(t.text);
/** Whether a token is a Latin word (letters/digits). */
export const isLatin = (t: Token | undefined): boolean => t !== undefined && /^[A-Za-z0-9]/.test(t.text);

/** The hunks that turn `a` into `b`, or null when the edit is too large to align (a rewrite). */
export function hunksOf(a: readonly Token[], b: readonly Token[]): Hunk[] | null {
  let head = 0;
  while (head < a.length && head < b.length && a[head]?.text === b[head]?.text) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail]?.text === b[b.length - 1 - tail]?.text) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n === 0 && m === 0) return [];
  if ((n + 1) * (m + 1) > MAX_ALIGN_CELLS) return null;
  return mergeAcrossSpaces(middleHunks(a, b, head, n, m), a, b);
}

/** LCS over the middle `a[head, head+n)` / `b[head, head+m)`, walked into hunks (absolute indexes). */
function middleHunks(a: readonly Token[], b: readonly Token[], head: number, n: number, m: number): Hunk[] {
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  const same = (i: number, j: number): boolean => a[head + i]?.text === b[head + j]?.text;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = same(i, j) ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
    }
  }
  const hunks: Hunk[] = [];
  let open: { aStart: number; bStart: number } | null = null;
  let i = 0;
  let j = 0;
  const close = (): void => {
    if (open !== null) hunks.push({ aStart: head + open.aStart, aEnd: head + i, bStart: head + open.bStart, bEnd: head + j });
    open = null;
  };
  while (i < n || j < m) {
    if (i < n && j < m && same(i, j)) {
      close();
      i++;
      j++;
      continue;
    }
    open ??= { aStart: i, bStart: j };
    if (j < m && (i >= n || (lcs[i * w + j + 1] ?? 0) >= (lcs[(i + 1) * w + j] ?? 0))) j++;
    else i++;
  }
  close();
  return hunks;
}

/** Hunks separated only by whitespace tokens on both sides become one ("get hub" → "GitHub"). */
function mergeAcrossSpaces(hunks: readonly Hunk[], a: readonly Token[], b: readonly Token[]): Hunk[] {
  const out: Hunk[] = [];
  for (const h of hunks) {
    const prev = out.at(-1);
    const gapA = prev ? a.slice(prev.aEnd, h.aStart) : [];
    const gapB = prev ? b.slice(prev.bEnd, h.bStart) : [];
    if (prev && gapA.length > 0 && gapA.every(isSpace) && gapB.every(isSpace)) out[out.length - 1] = { aStart: prev.aStart, aEnd: h.aEnd, bStart: prev.bStart, bEnd: h.bEnd };
    else out.push(h);
  }
  return out;
}

/** The text of tokens `[from, to)`. */
export function textOf(tokens: readonly Token[], from: number, to: number): string {
  let s = '';
  for (let k = from; k < to; k++) s += tokens[k]?.text ?? '';
  return s;
}
