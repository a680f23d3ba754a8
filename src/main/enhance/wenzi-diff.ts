/**
 * Text comparison used by the history lines, the correction retrieval and the divergence guard.
 * Tokenisation follows WenZi: a run of Latin letters/digits is one token, every other non-space
 * character (each CJK character, each punctuation mark) is its own token, whitespace separates.
 */
import { latinWordTokens, tokenDiff, type DiffOp } from '../../shared/token-diff.ts';

/** Splits text into diff tokens (whitespace is kept as its own tokens so the text can be rebuilt). */
export const diffTokens: (text: string) => string[] = latinWordTokens;

/** One operation of a token diff. */
export type { DiffOp };

const MAX_DIFF_CELLS = 250_000;

/** Token-level diff (LCS); falls back to one whole change when the texts are too long to compare cheaply. */
export function diffText(a: string, b: string): DiffOp[] {
  return tokenDiff(a, b, diffTokens, (n, m) => n * m <= MAX_DIFF_CELLS);
}

const isBlank = (s: string): boolean => /^\s+$/u.test(s);

/** Longest whitespace both texts start with (`end`: end with). */
function sharedSpace(x: string, y: string, end: boolean): string {
  const wx = (end ? /\s*$/u : /^\s*/u).exec(x)?.[0] ?? '';
  const wy = (end ? /\s*$/u : /^\s*/u).exec(y)?.[0] ?? '';
  let n = 0;
  while (n < wx.length && n < wy.length && (end ? wx[wx.length - 1 - n] === wy[wy.length - 1 - n] : wx[n] === wy[n])) n++;
  return end ? wx.slice(wx.length - n) : wx.slice(0, n);
}

/**
 * The diff with a multi-word change kept whole, as WenZi writes it: changes separated only by whitespace
 * become one change (`sequel light → SQLite` is one correction, not `[sequel→SQLite] [light →]`), and
 * whitespace both sides share at a change's ends is moved out of it into the unchanged text.
 */
export function phraseDiff(a: string, b: string): DiffOp[] {
  const merged: DiffOp[] = [];
  for (const op of diffText(a, b)) {
    const prev = merged[merged.length - 1];
    const gap = merged[merged.length - 2];
    if (op.kind === 'change' && prev?.kind === 'same' && isBlank(prev.text) && gap?.kind === 'change') {
      merged.splice(-2, 2, { kind: 'change', from: gap.from + prev.text + op.from, to: gap.to + prev.text + op.to });
    } else merged.push(op);
  }
  const out: DiffOp[] = [];
  const pushSame = (text: string): void => {
    if (text === '') return;
    const last = out[out.length - 1];
    if (last?.kind === 'same') out[out.length - 1] = { kind: 'same', text: last.text + text };
    else out.push({ kind: 'same', text });
  };
  for (const op of merged) {
    if (op.kind === 'same') {
      pushSame(op.text);
      continue;
    }
    const lead = sharedSpace(op.from, op.to, false);
    const from = op.from.slice(lead.length);
    const to = op.to.slice(lead.length);
    const trail = sharedSpace(from, to, true);
    pushSame(lead);
    if (from.length > trail.length || to.length > trail.length) out.push({ kind: 'change', from: from.slice(0, from.length - trail.length), to: to.slice(0, to.length - trail.length) });
    pushSame(trail);
  }
  return out;
}

/** Inline diff `果果遇到了[平平→萍萍]。`: unchanged text as is, each change as `[wrong→right]` (a phrase in one bracket). */
export function inlineDiff(a: string, b: string): string {
  return phraseDiff(a, b)
    .map((op) => (op.kind === 'same' ? op.text : `[${op.from}→${op.to}]`))
    .join('');
}

/** The changed fragments (wrong → right) between the recognised and the confirmed text, whitespace-trimmed, non-empty wrong side. */
export function correctionPairs(asr: string, final: string): { readonly wrong: string; readonly right: string }[] {
  const out: { wrong: string; right: string }[] = [];
  for (const op of phraseDiff(asr, final)) {
    if (op.kind !== 'change') continue;
    const wrong = op.from.trim();
    const right = op.to.trim();
    if (wrong !== '' && wrong !== right) out.push({ wrong, right });
  }
  return out;
}

/** Character-level Levenshtein distance, stopping early once it exceeds `cap` (returns cap + 1 then). */
export function editDistance(a: string, b: string, cap = Number.MAX_SAFE_INTEGER): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > cap) return cap + 1;
  let prev = new Uint32Array(y.length + 1);
  let cur = new Uint32Array(y.length + 1);
  for (let j = 0; j <= y.length; j++) prev[j] = j;
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cap) return cap + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[y.length] ?? 0;
}

/** Number of "words": each CJK character counts one, each Latin/digit run counts one. */
export function wordCount(text: string): number {
  return diffTokens(text).filter((t) => /[\p{L}\p{N}]/u.test(t)).length;
}
