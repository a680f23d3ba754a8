import {
  addsNumbers, approxWords, contentTokens, hanShare, hasInjection, invertedAux, lcsLength, opensAffirmatively, opensWithAnswer, questionByWords, questionish,
  readsAsEnglishRequest, readsAsQuestion, repliesSocially, requestCue, sentenceCount, whWord, zhQuestionUnits,
} from './guard-cues.ts';
import { droppedLatinTerms, type TermPair } from './latin-terms.ts';
import type { GuardLevel } from './modes.ts';
import { editDistance, wordCount } from './wenzi-diff.ts';

/**
 * The divergence guard: a cleanup model sometimes *answers* the dictation (a dictated question gets an
 * answer, a dictated "ignore previous instructions" gets obeyed, "translate this" gets translated) or
 * rewrites it wholesale. Those outputs are caught by cheap, deterministic checks against the ASR text
 * (no model call), and the user's own words are returned instead.
 *
 * `full` (proofreading): length ratio, edit distance (deletions — fillers, self-corrections — are free),
 * assistant preambles, and the answer checks: a question whose interrogative disappears while content is
 * added, a yes/no opener, a request whose verb disappears, an instruction to the model that disappears,
 * numbers nobody said, content added of its own, a change of language, an English term of a Chinese
 * dictation dropped or translated (latin-terms.ts; a vocabulary pair may account for it). `length` (translation, commands —
 * the text legitimately changes): word-count ratio and preambles; translation steps also get the answer
 * checks that survive a change of language (a question stays a question, a request stays a request, a
 * dictated instruction is translated, not obeyed). `off`: nothing.
 */

/** Verdict of the guard. */
export type GuardVerdict = { readonly ok: true } | { readonly ok: false; readonly why: string };

/**
 * What a step is meant to do to the text, which decides what counts as an answer: `clean` keeps the words
 * and language, `translate` keeps the meaning in another language, `transform` (commands, user modes with
 * `guard: length`) may turn a request into something else entirely, so only the length checks apply.
 */
export type GuardTask = 'clean' | 'translate' | 'transform';

/** The task of a mode step: translation modes by their id (`translate_en`, `my_translate_ja`), else by the guard level. */
export function guardTaskOf(modeId: string, level: GuardLevel): GuardTask {
  if (/(?:^|[_\-.])translat/i.test(modeId)) return 'translate';
  return level === 'full' ? 'clean' : 'transform';
}

const QUESTION_END = /[?？]\s*$|[吗呢嘛]\s*[。.!！]?\s*$/u;
const QUESTION_WORD = /^(what|why|how|when|where|who|which|can|could|would|should|is|are|do|does|did|will)\b|什么|为什么|怎么|如何|多少|哪|谁|能不能|可不可以|是不是/iu;
const PREAMBLE =
  /^(sure|certainly|of course|okay,? here|here is|here's|as an ai|i('m| am) (sorry|unable|an ai)|i can(not|'t)|the answer|answer:|好的[,，]|当然[,，!！]|以下是|这是(修改|校对|润色)后|作为(一个)?\s*ai|我(无法|不能)|答案是|回答[:：])/iu;

/**
 * An assistant preamble at the start of the output that is not the user's own words: "好的，" for "好的 收到"
 * is theirs, and so is "Sure," translating "好的 没问题".
 */
function addsPreamble(a: string, o: string): boolean {
  const m = PREAMBLE.exec(o);
  const letters = (t: string): string => t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  return m !== null && !letters(a).includes(letters(m[0])) && !opensAffirmatively(a);
}

function isQuestion(text: string): boolean {
  const t = text.trim();
  return QUESTION_END.test(t) || (QUESTION_WORD.test(t) && /[?？]/u.test(t));
}

const ANSWERED = 'the dictation was a question and the output answers it';
const OBEYED = 'the dictation was a request and the output carries it out';
const INJECTED = 'the dictation contained an instruction and the output dropped it: it looks obeyed';

/** What else the guard knows about a dictation: the vocabulary pairs that may change a word on purpose (cloud → Claude). */
export interface GuardContext {
  readonly pairs?: readonly TermPair[];
}

/** Checks a model output against the ASR text it was meant to clean up (or translate, or transform). */
export function checkDivergence(asr: string, output: string, level: GuardLevel, task: GuardTask = level === 'full' ? 'clean' : 'transform', context: GuardContext = {}): GuardVerdict {
  if (level === 'off') return { ok: true };
  const a = asr.trim();
  const o = output.trim();
  if (a === '' || o === a) return { ok: true };
  if (addsPreamble(a, o)) return { ok: false, why: 'the model added a reply of its own instead of the cleaned text' };
  if (level === 'length') {
    // Words, with Han characters weighed so a Chinese dictation and its English translation or shell command compare fairly.
    const wa = Math.max(1, approxWords(a));
    const wo = approxWords(o);
    const ratio = wo / wa;
    if (wa >= 4 && (ratio > 4 || ratio < 0.2)) return { ok: false, why: `the output length is implausible (${Math.round(wo)} words for ${Math.round(wa)})` };
    if (task === 'transform') {
      if (hasInjection(a) && wordCount(o) > wordCount(a) * 3) return { ok: false, why: 'the model followed instructions that were dictated' };
      return { ok: true };
    }
    return verdict(answerCheck(a, o, task));
  }
  const la = Array.from(a).length;
  const lo = Array.from(o).length;
  // Short inputs get an absolute allowance: punctuation alone can double a three-word dictation.
  const slack = la < 12 ? 12 : 0;
  if (lo > la * 1.8 + slack || lo < la * 0.45 - slack) return { ok: false, why: `the output length is implausible (${lo} characters for ${la})` };
  if (isQuestion(a) && !isQuestion(o) && !/[?？吗呢]/u.test(o)) return { ok: false, why: 'the dictation was a question and the output is not: it looks like an answer' };
  // Only a cleanup keeps the words: a translation may translate them, a command mode rewrites everything.
  // Checked before the answer checks, so a translated term is named rather than counted as added content.
  const dropped = task === 'clean' ? droppedLatinTerms(a, o, context.pairs) : [];
  if (dropped.length > 0) return { ok: false, why: `the output dropped or translated ${dropped.map((w) => `"${w}"`).join(', ')}` };
  const why = task === 'transform' ? null : answerCheck(a, o, task);
  if (why !== null) return { ok: false, why };
  // Deleting is what cleanup does (fillers, self-corrections), so the characters the output dropped do not
  // count towards the distance; what is left is substitution and insertion.
  const cap = Math.ceil(Math.max(la, lo) * 0.6);
  const deleted = Math.max(0, la - lo);
  const dist = editDistance(normalizeDigits(a), normalizeDigits(o), cap + deleted);
  if (la >= 6 && dist - deleted > cap) return { ok: false, why: `the output differs too much from what was said (edit distance > ${Math.round(0.6 * 100)}%)` };
  if (la >= 6 && dist / la > 0.5 && wordCount(o) > Math.max(1, wordCount(a)) * 1.5) return { ok: false, why: 'the output rewrites and extends the dictation' };
  return { ok: true };
}

/** Lower case, Chinese digit characters as Arabic digits: writing 一三八 as 138 is a cleanup, not a rewrite. */
function normalizeDigits(text: string): string {
  return text.toLowerCase().replace(/[零〇一二三四五六七八九]/gu, (d) => String('零一二三四五六七八九'.indexOf(d === '〇' ? '零' : d)));
}

function verdict(why: string | null): GuardVerdict {
  return why === null ? { ok: true } : { ok: false, why };
}

/** The answer/obey checks of `clean` and `translate` steps; the reason, or null when the output looks like the dictation. */
function answerCheck(a: string, o: string, task: 'clean' | 'translate'): string | null {
  const ta = contentTokens(a);
  const to = contentTokens(o);
  const shift = Math.abs(hanShare(ta) - hanShare(to));
  if (task === 'clean' && ta.length >= 2 && to.length >= 2 && shift >= 0.7) return 'the output is in another language: it looks like a translation nobody asked for';
  if (hasInjection(a) && !hasInjection(o)) return INJECTED;
  if (repliesSocially(a, o)) return 'the output replies to the dictation instead of writing it down';
  if (task === 'translate' && shift >= 0.5) return crossLanguageCheck(a, o);
  return sameLanguageCheck(a, o, ta, to, task === 'translate');
}

/** Checks that hold across a change of language: a question stays a question, a request a request, no question of its own. */
function crossLanguageCheck(a: string, o: string): string | null {
  const qOut = readsAsQuestion(o) || whWord(o) !== null || invertedAux(o) !== null;
  const qIn = questionByWords(a);
  if (qIn && !qOut) return ANSWERED;
  const asked = requestCue(a, true, true) !== null;
  if (asked && !qOut && !readsAsEnglishRequest(o) && requestCue(o, true) === null) return OBEYED;
  if ((qIn || asked) && addsNumbers(a, o)) return 'the output adds numbers that were not said: it looks like an answer';
  if (!questionish(a) && readsAsQuestion(o) && sentenceCount(o) > sentenceCount(a)) return 'the output adds a question of its own: it looks like a reply';
  return null;
}

/** Checks on an output in the dictation's own language (proofreading, or a translation into the same language). */
function sameLanguageCheck(a: string, o: string, ta: readonly string[], to: readonly string[], translating: boolean): string | null {
  const lcs = lcsLength(ta, to);
  const added = lcs === null ? 0 : to.length - lcs;
  const removed = lcs === null ? 0 : ta.length - lcs;
  const qIn = questionish(a);
  const qOut = readsAsQuestion(o);
  if (qIn && !qOut) {
    if (added >= 1 && interrogativeDropped(a, o, to)) return ANSWERED;
    if (opensWithAnswer(o) && !opensWithAnswer(a)) return ANSWERED;
  }
  const cue = requestCue(a, translating);
  if (cue !== null && requestCue(o, translating) === null && !keepsCue(o, to, cue)) return OBEYED;
  if ((qIn || cue !== null) && addsNumbers(a, o)) return 'the output adds numbers that were not said: it looks like an answer';
  if (lcs !== null && added - removed >= 3 && added >= 0.3 * to.length) return 'the output adds content of its own: it looks like a reply';
  return null;
}

/** Whether the question's interrogative (wh-word, inverted auxiliary, 吗/几/什么…) is gone from the output. */
function interrogativeDropped(a: string, o: string, to: readonly string[]): boolean {
  const bare = (t: string): string => t.replace(/['’]/g, '');
  const wh = whWord(a);
  if (wh !== null && !to.some((t) => bare(t) === bare(wh))) return true;
  const aux = invertedAux(a);
  if (aux !== null && invertedAux(o) !== aux) return true;
  return zhQuestionUnits(a).some((u) => !o.includes(u));
}

function keepsCue(o: string, to: readonly string[], cue: string): boolean {
  return /^[a-z]+$/.test(cue) ? to.includes(cue) : o.includes(cue);
}
