import type { GuardLevel } from './modes.ts';
import { editDistance, wordCount } from './text-diff.ts';

/**
 * The divergence guard: a cleanup model sometimes *answers* the dictation (a dictated question gets an
 * answer, a dictated "ignore previous instructions" gets obeyed) or rewrites it wholesale. Those outputs
 * are caught by cheap checks against the ASR text, and the user's own words are returned instead.
 *
 * `full` (proofreading): length ratio, character edit distance, question → non-question, assistant
 * preambles. `length` (translation, commands — the text legitimately changes): word-count ratio and
 * assistant preambles only. `off`: nothing.
 */

/** Verdict of the guard. */
export type GuardVerdict = { readonly ok: true } | { readonly ok: false; readonly why: string };

const QUESTION_END = /[?？]\s*$|[吗呢嘛]\s*[。.!！]?\s*$/u;
const QUESTION_WORD = /^(what|why|how|when|where|who|which|can|could|would|should|is|are|do|does|did|will)\b|什么|为什么|怎么|如何|多少|哪|谁|能不能|可不可以|是不是/iu;
const PREAMBLE =
  /^(sure|certainly|of course|okay,? here|here is|here's|as an ai|i('m| am) (sorry|unable|an ai)|i can(not|'t)|the answer|answer:|好的[,，]|当然[,，!！]|以下是|这是(修改|校对|润色)后|作为(一个)?\s*ai|我(无法|不能)|答案是|回答[:：])/iu;
const INJECTION = /ignore (all |the )?(previous|above|prior) (instructions|prompts?)|忽略(之前|以上|前面)的(所有)?(指令|提示|要求)/iu;

function isQuestion(text: string): boolean {
  const t = text.trim();
  return QUESTION_END.test(t) || (QUESTION_WORD.test(t) && /[?？]/u.test(t));
}

/** Checks a model output against the ASR text it was meant to clean up. */
export function checkDivergence(asr: string, output: string, level: GuardLevel): GuardVerdict {
  if (level === 'off') return { ok: true };
  const a = asr.trim();
  const o = output.trim();
  if (a === '' || o === a) return { ok: true };
  if (PREAMBLE.test(o) && !PREAMBLE.test(a)) return { ok: false, why: 'the model added a reply of its own instead of the cleaned text' };
  const wa = Math.max(1, wordCount(a));
  const wo = wordCount(o);
  if (level === 'length') {
    const ratio = wo / wa;
    if (wa >= 4 && (ratio > 4 || ratio < 0.2)) return { ok: false, why: `the output length is implausible (${wo} words for ${wa})` };
    if (INJECTION.test(a) && wo > wa * 3) return { ok: false, why: 'the model followed instructions that were dictated' };
    return { ok: true };
  }
  const la = Array.from(a).length;
  const lo = Array.from(o).length;
  const ratio = lo / la;
  // Short inputs get an absolute allowance: punctuation alone can double a three-word dictation.
  const slack = la < 12 ? 12 : 0;
  if (lo > la * 1.8 + slack || lo < la * 0.45 - slack) return { ok: false, why: `the output length is implausible (${lo} characters for ${la})` };
  if (isQuestion(a) && !isQuestion(o) && !/[?？吗呢]/u.test(o)) return { ok: false, why: 'the dictation was a question and the output is not: it looks like an answer' };
  if (INJECTION.test(a) && !INJECTION.test(o)) return { ok: false, why: 'the dictation contained an instruction and the output dropped it: it looks obeyed' };
  const cap = Math.ceil(Math.max(la, lo) * 0.6);
  const dist = editDistance(a.toLowerCase(), o.toLowerCase(), cap);
  if (la >= 6 && dist > cap) return { ok: false, why: `the output differs too much from what was said (edit distance > ${Math.round(0.6 * 100)}%)` };
  if (ratio > 0 && la >= 6 && dist / la > 0.5 && wo > wa * 1.5) return { ok: false, why: 'the output rewrites and extends the dictation' };
  return { ok: true };
}
