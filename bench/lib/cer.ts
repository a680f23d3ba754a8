import { toChineseScript } from '../../src/main/asr/chinese-script.ts';

/*
 * Character error rate for the opt-in accuracy run (bench/accuracy.ts): Levenshtein distance between the
 * normalised reference and hypothesis, over code points, divided by the reference length. Normalisation:
 * NFKC (full-width → half-width), lower case, Traditional → Simplified (the app's OpenCC converter,
 * src/main/asr/chinese-script.ts), and everything that is not a letter or a digit removed (punctuation,
 * spaces), so neither punctuation, ITN spacing nor the script variant counts as an error.
 */

/** Edit distance (insertions, deletions, substitutions all cost 1) between two code-point arrays. */
export function editDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur[j] = Math.min(sub, (prev[j] as number) + 1, (cur[j - 1] as number) + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] as number;
}

/** Normalised text as code points (see the header). */
export async function normalizeForCer(text: string): Promise<string[]> {
  const simplified = await toChineseScript(text.normalize('NFKC').toLowerCase(), 'simplified');
  return Array.from(simplified.replace(/[^\p{L}\p{N}]/gu, ''));
}

/** Errors and reference length of one sentence pair (sum these over a corpus, then divide). */
export async function cerCounts(reference: string, hypothesis: string): Promise<{ errors: number; length: number }> {
  const ref = await normalizeForCer(reference);
  const hyp = await normalizeForCer(hypothesis);
  return { errors: editDistance(ref, hyp), length: ref.length };
}

/** CER of one pair: errors / reference characters (can exceed 1 when the hypothesis inserts a lot). */
export async function cer(reference: string, hypothesis: string): Promise<number> {
  const { errors, length } = await cerCounts(reference, hypothesis);
  return length === 0 ? (errors === 0 ? 0 : 1) : errors / length;
}
