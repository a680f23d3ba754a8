/**
 * English terms inside a Chinese dictation ("我们用 Claude 写代码", "这个模型很 powerful") are what a cleanup
 * model most often loses: it "corrects" a name to a common word (Claude → Cloud) or translates the word
 * (powerful → 强大). The divergence guard asks this module which Latin-script words of the recognized text
 * are gone from the output. A word counts as kept when the output still holds it in any case, as a plural,
 * or joined to its neighbour (chat gpt → ChatGPT, API → APIs); a vocabulary pair whose wrong side holds the word and
 * whose right side is in the output accounts for it (cloud → Claude); spoken fillers (um, uh) may go.
 * Only mixed text is checked: an all-English dictation is proofread word by word, and the guard's edit
 * distance watches that. Linear in the text (one pass over each side, set lookups).
 */

/** A vocabulary pair that may account for a changed word. */
export interface TermPair {
  readonly wrong: string;
  readonly right: string;
}

const LATIN_WORD = /[A-Za-z][A-Za-z0-9'’.+#-]*[A-Za-z0-9+#]|[A-Za-z]/g;
// Hesitations a cleanup removes in every language.
const FILLERS = new Set(['um', 'umm', 'uh', 'uhh', 'er', 'erm', 'ah', 'hmm', 'hm', 'mm', 'eh', 'emm']);

/** The Latin-script words of `asr` (a text with Chinese in it) that `output` dropped or translated, each once, in order. */
export function droppedLatinTerms(asr: string, output: string, pairs: readonly TermPair[] = []): string[] {
  if (!/\p{Script=Han}/u.test(asr)) return [];
  const bare = (w: string): string => w.toLowerCase().replace(/[^a-z0-9]/g, '');
  // Sets, not substring searches: one pass over each text whatever its length.
  const kept = new Set(Array.from(output.matchAll(LATIN_WORD), (m) => bare(m[0])));
  const words = Array.from(asr.matchAll(LATIN_WORD), (m) => m[0]);
  const dropped: string[] = [];
  const seen = new Set<string>();
  words.forEach((word, i) => {
    const w = bare(word);
    if (seen.has(w) || FILLERS.has(w)) return;
    seen.add(w);
    // The word itself in any case, its plural or possessive, or joined with a neighbour (chat gpt → ChatGPT, next js → Next.js).
    const joined = [bare(words[i - 1] ?? '') + w, w + bare(words[i + 1] ?? '')];
    if (kept.has(w) || kept.has(`${w}s`) || joined.some((j) => j !== w && kept.has(j))) return;
    if (pairs.some((p) => bare(p.wrong).includes(w) && output.includes(p.right))) return;
    dropped.push(word);
  });
  return dropped;
}
