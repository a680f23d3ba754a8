/**
 * A small diff between the ASR text and the final text for the preview's diff view. Chinese and
 * Japanese characters are compared one by one, Latin words as words, so `平平 → 萍萍` and
 * `get hub → GitHub` both come out as one change that can become a vocabulary pair. Pure (LCS over
 * tokens, bounded so a pathological input cannot freeze the panel), unit-tested.
 */
import { tokenDiff, unicodeWordTokens, type DiffOp } from '../../shared/token-diff.ts';

/** A run of the diff: unchanged text, or a change from `from` (ASR) to `to` (final). */
export type DiffPart = DiffOp;

/** Most tokens per side the diff compares exactly; beyond it the texts are shown as one change. */
export const MAX_DIFF_TOKENS = 2000;

/** Splits text into diff tokens. */
export const diffTokens: (text: string) => string[] = unicodeWordTokens;

/** The diff of `a` (ASR) → `b` (final) as same/change runs. */
export function diffParts(a: string, b: string): DiffPart[] {
  return mergeAcrossSpaces(tokenDiff(a, b, diffTokens, (n, m) => n <= MAX_DIFF_TOKENS && m <= MAX_DIFF_TOKENS));
}

/** `get hub → GitHub` is one correction: changes separated only by whitespace become one change. */
function mergeAcrossSpaces(parts: readonly DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const prev = out.at(-1);
    const next = parts[i + 1];
    if (p?.kind === 'same' && prev?.kind === 'change' && next?.kind === 'change' && /^\s+$/.test(p.text)) {
      out[out.length - 1] = { kind: 'change', from: prev.from + p.text + next.from, to: prev.to + p.text + next.to };
      i++;
    } else if (p !== undefined) out.push(p);
  }
  return out;
}

/** The `wrong → right` vocabulary pair a change offers, or null (pure insertions, deletions, whitespace). */
export function vocabularyPair(part: DiffPart): { readonly wrong: string; readonly right: string } | null {
  if (part.kind !== 'change') return null;
  const wrong = part.from.trim();
  const right = part.to.trim();
  if (wrong === '' || right === '' || wrong === right) return null;
  if (wrong.length > 100 || right.length > 100) return null;
  return { wrong, right };
}
