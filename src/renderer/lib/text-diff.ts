/**
 * A small diff between the ASR text and the final text for the preview's diff view. Chinese and
 * Japanese characters are compared one by one, Latin words as words, so `平平 → 萍萍` and
 * `get hub → GitHub` both come out as one change that can become a vocabulary pair. Pure (LCS over
 * tokens, bounded so a pathological input cannot freeze the panel), unit-tested.
 */

/** A run of the diff: unchanged text, or a change from `from` (ASR) to `to` (final). */
export type DiffPart = { readonly kind: 'same'; readonly text: string } | { readonly kind: 'change'; readonly from: string; readonly to: string };

/** Most tokens per side the diff compares exactly; beyond it the texts are shown as one change. */
export const MAX_DIFF_TOKENS = 2000;

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}_'-]+|\s+|[^\s\p{L}\p{N}]/gu;

/** Splits text into diff tokens. */
export function diffTokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** The diff of `a` (ASR) → `b` (final) as same/change runs. */
export function diffParts(a: string, b: string): DiffPart[] {
  const x = diffTokens(a);
  const y = diffTokens(b);
  if (x.length > MAX_DIFF_TOKENS || y.length > MAX_DIFF_TOKENS) return a === b ? [{ kind: 'same', text: a }] : [{ kind: 'change', from: a, to: b }];
  // LCS lengths from the end, then one walk from the start.
  const w = y.length + 1;
  const lcs = new Uint16Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j] ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
    }
  }
  const parts: DiffPart[] = [];
  let from = '';
  let to = '';
  const flush = (): void => {
    if (from !== '' || to !== '') parts.push({ kind: 'change', from, to });
    from = '';
    to = '';
  };
  const same = (t: string): void => {
    flush();
    const last = parts.at(-1);
    if (last?.kind === 'same') parts[parts.length - 1] = { kind: 'same', text: last.text + t };
    else parts.push({ kind: 'same', text: t });
  };
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      same(x[i] ?? '');
      i++;
      j++;
    } else if (j < y.length && (i >= x.length || (lcs[i * w + j + 1] ?? 0) >= (lcs[(i + 1) * w + j] ?? 0))) {
      to += y[j] ?? '';
      j++;
    } else {
      from += x[i] ?? '';
      i++;
    }
  }
  flush();
  return mergeAcrossSpaces(parts);
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
