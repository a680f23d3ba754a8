/*
 * Joins the texts of consecutive chunks of one dictation (decoded separately, live-transcriber.ts) into
 * one text as a single decode would have written it: no space between Chinese characters or after
 * full-width punctuation, one space between Latin words, and — because each chunk ended at a pause of
 * at least 300 ms — a clause break where two Chinese chunks meet without punctuation (Paraformer writes
 * none; SenseVoice and whisper usually end a chunk with their own).
 */

/** Han, kana, hangul and full-width forms: scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
/** Punctuation that already separates clauses (either width). */
const CLAUSE_END = /[,.;:!?，。；：！？、…—)\]）】」』”"']$/u;
/** Punctuation that opens or must hug what follows. */
const OPENS_OR_HUGS = /^[,.;:!?，。；：！？、…)\]）】」』”]/u;

/** `texts` joined in order (empty ones skipped). */
export function joinChunkTexts(texts: readonly string[]): string {
  let out = '';
  for (const raw of texts) {
    const text = raw.trim();
    if (text === '') continue;
    out = out === '' ? text : out + separator(out, text) + text;
  }
  return out;
}

/** What goes between `before` and `after`. */
function separator(before: string, after: string): string {
  const last = before.at(-1) ?? '';
  const first = after[0] ?? '';
  if (OPENS_OR_HUGS.test(first)) return '';
  const cjkBefore = CJK.test(last);
  const cjkAfter = CJK.test(first);
  if (cjkBefore && cjkAfter) return CLAUSE_END.test(before) ? '' : '，';
  if (cjkBefore || cjkAfter) return CLAUSE_END.test(before) && !cjkBefore ? ' ' : '';
  return ' ';
}
