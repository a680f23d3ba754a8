/**
 * The language cues the divergence guard reads, in Chinese and English: is a text a question, a request,
 * a greeting, an instruction aimed at the model; which words are content; which script dominates. Each
 * cue is a cheap regular expression or a token count: no model, no dictionary, deterministic. They are
 * deliberately narrow (a cue that fires on ordinary dictation would block a legitimate cleanup), and the
 * guard only acts when a cue in the dictation *disappears* from the output or the output adds content.
 */

/** Content tokens, lower-cased: each Han character, each run of letters/digits (apostrophes kept inside). */
export function contentTokens(text: string): string[] {
  return text.toLowerCase().match(/\p{Script=Han}|(?:(?!\p{Script=Han})[\p{L}\p{N}])+(?:['’](?:(?!\p{Script=Han})\p{L})+)*/gu) ?? [];
}

const HAN = /^\p{Script=Han}$/u;

/** Share of Han tokens among the content tokens (0 when there are none). */
export function hanShare(tokens: readonly string[]): number {
  if (tokens.length === 0) return 0;
  return tokens.filter((t) => HAN.test(t)).length / tokens.length;
}

/** A word count that does not let Chinese weigh 1.6× a translation of it: Han characters count 1/1.6 each. */
export function approxWords(text: string): number {
  const tokens = contentTokens(text);
  const han = tokens.filter((t) => HAN.test(t)).length;
  return tokens.length - han + han / 1.6;
}

/** Number of sentences with content (split at sentence-final punctuation and line breaks). */
export function sentenceCount(text: string): number {
  return text.split(/[.!?。！？\n]+/u).filter((s) => /[\p{L}\p{N}]/u.test(s)).length;
}

// Spoken fillers and politeness that can open a dictation before the part that matters.
const EN_LEAD = /^(?:(?:um+|uh+|er+|erm|so|ok(?:ay)?|hey|well|and|now|just|please|pls|oh|ah|hmm+|like|right)\b[\s,.!]*)+/i;
const ZH_LEAD = /^(?:(?:嗯+|呃+|啊+|哦+|那个|这个|就是说?|然后|好吧|好|诶|哎)[\s,，。、]*)+/u;

function lead(text: string): string {
  return text.trim().replace(EN_LEAD, '').replace(ZH_LEAD, '').trim();
}

const EN_WH = /^(?:what|what's|whats|why|how|when|where|who|whom|whose|which)\b/i;
const EN_AUX = /^(?:is|are|was|were|am|do|does|did|can|could|would|will|should|shall|may|might|have|has|had)\s+(?:i|you|he|she|it|we|they|there|this|that|these|those|the|a|an|my|your|his|her|its|our|their|anyone|someone|anybody)\b/i;

/** English question opening: a wh-word or an inverted auxiliary ("is it", "can you") after any filler. */
export function enQuestionStart(text: string): boolean {
  const t = lead(text);
  return EN_WH.test(t) || EN_AUX.test(t);
}

/** The inverted auxiliary a text opens with ("is it" → "is"), or null. */
export function invertedAux(text: string): string | null {
  const m = EN_AUX.exec(lead(text));
  return m ? (m[0].split(/\s+/)[0] ?? '').toLowerCase() : null;
}

/** The wh-word a text opens with, or null. */
export function whWord(text: string): string | null {
  const m = EN_WH.exec(lead(text));
  return m ? m[0].toLowerCase() : null;
}

// Chinese interrogatives as units, so that 几乎 / 什么都 / 哪怕 are told apart only by what follows (几 needs a
// measure word or the end of the question).
const ZH_UNIT = /星期几|礼拜几|周几|几(?=[点号月岁个天次年位分种块周]|\s*[？?。]?\s*$)|多少|多久|多大|多远|多长|多高|多重|什么|啥|哪[里儿个些位天种家]?|谁|怎么样?|怎样|为什么|为啥|如何|吗|是不是|有没有|能不能|会不会|要不要|可不可以|对不对|好不好|行不行/gu;
const ZH_A_NOT_A = /(\p{Script=Han})[不没]\1/u;

/** The Chinese interrogative units in a text, each once. */
export function zhQuestionUnits(text: string): string[] {
  return [...new Set(text.match(ZH_UNIT) ?? [])];
}

const ZH_Q_END = /(?:[吗呢]|[？?]|星期几|礼拜几|周几|几|多少钱?|多久|什么|啥|哪[里儿个些]?|谁|怎么样|怎么办|如何|是不是|有没有|对不对|好不好|行不行)\s*[？?。.!！]?\s*$/u;
const ZH_Q_START = /^(?:你们?|您|他们?|她们?|我们?|这|那)?(?:为什么|为啥|怎么|如何|谁|哪|什么时候|多少|几)/u;

// "我不知道这是什么" ends like a question but reports one, "不管有多少困难" concedes: an interrogative after
// these is embedded, not asked.
const ZH_EMBEDDED = /不知道|不清楚|不确定|想知道|不明白|不记得|忘了|(?<!请)问|看看|知道|不管|无论|不论|哪怕/u;

/**
 * A text that is clearly a question: "?" or 吗/呢 at the end, an interrogative at the end (not embedded
 * after 不知道…) or at the start, A-not-A (来不来), or an English wh-word / inverted auxiliary opening.
 */
export function strongQuestion(text: string): boolean {
  const t = lead(text);
  if (/(?:[?？]|[吗呢])\s*[。.!！]?\s*$/u.test(t) || ZH_Q_START.test(t)) return true;
  if ((ZH_Q_END.test(t) || ZH_A_NOT_A.test(t)) && !ZH_EMBEDDED.test(t)) return true;
  return enQuestionStart(t);
}

// Interrogatives that make a Chinese sentence a question wherever they stand (unless embedded after 不知道…);
// 几个/几天/怎么 and 什么/谁 before 都/也 are left out: 我买了几个苹果, 过几天再说, 我不怎么喜欢, 什么都行,
// 谁都可以 are statements.
const ZH_Q_ANYWHERE = /多少|多久|多远|为什么|为啥|怎么样|如何|哪里|哪儿|是不是|有没有|能不能|会不会|可不可以|(?<![没不为])什么(?![都也的])|谁(?![都也])|几[点号月岁楼]|[星期周拜]几/u;

/** A question by its words alone (for outputs in another language, where the words cannot be compared). */
export function questionByWords(text: string): boolean {
  return strongQuestion(text) || (ZH_Q_ANYWHERE.test(text) && !ZH_EMBEDDED.test(text));
}

/** A text that may be a question (any interrogative cue). */
export function questionish(text: string): boolean {
  return strongQuestion(text) || /[?？]/u.test(text) || zhQuestionUnits(text).length > 0;
}

/** An output that reads as a question: a question mark, or a final 吗/呢. */
export function readsAsQuestion(text: string): boolean {
  return /[?？]/u.test(text) || /[吗呢]\s*[。.!！]?\s*$/u.test(text.trim());
}

// Imperatives a dictated request to a model opens with. Verbs people dictate to other people ("send",
// "call", "book") are left out on purpose: they are not what a cleanup model answers.
const EN_IMPERATIVES = new Set([
  'tell', 'write', 'give', 'translate', 'explain', 'summarize', 'summarise', 'list', 'say', 'show', 'calculate', 'compute',
  'draft', 'generate', 'create', 'describe', 'define', 'answer', 'recommend', 'suggest', 'compose', 'rewrite', 'convert',
  'name', 'repeat', 'spell', 'solve', 'outline', 'help', 'introduce', 'paraphrase', 'compare',
]);
const EN_ASK = /^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|i\s+(?:want|need|would like|'d like)\s+you\s+to\s+|(?:please\s+))/i;
const EN_REQUEST_OUT = /^(?:please|pls|can you|could you|would you|will you|help me|let's|let us|i want|i need|i'd like|i would like)\b/i;

const ZH_ASK = /^(?:请你?|麻烦你?|帮我|帮忙|给我|替我|告诉我|你帮我|你给我|你来)/u;
const ZH_VERB = /^(?:翻译|解释|总结|列出|列举|介绍|推荐|生成|计算|回答|描述|讲个|讲一|写一|写个|编一|编个|画一|画个|说一下|算一下|起个|取个)/u;

/**
 * The request cue a text opens with (the imperative verb, or 请/帮我/给我…), or null. In translate modes
 * "translate"/"翻译" is not a request to keep: translating is the job. With `task`, a Chinese 请/帮我/给我
 * counts only when a task for a model follows (帮我写一首…, not 请把文件发给我): across a change of language
 * the cue cannot be looked up in the output, only the shape of a request can.
 */
export function requestCue(text: string, translating = false, task = false): string | null {
  const t = lead(text);
  const en = t.replace(EN_ASK, '');
  const word = (/^[a-z]+/i.exec(en)?.[0] ?? '').toLowerCase();
  if (EN_IMPERATIVES.has(word) && !(translating && word === 'translate')) return word;
  const ask = ZH_ASK.exec(t);
  const verb = ZH_VERB.exec(ask ? t.slice(ask[0].length) : t);
  if (verb && !(translating && verb[0] === '翻译')) return ask ? ask[0] + verb[0] : verb[0];
  return ask && !task ? ask[0] : null;
}

/** An English output that still reads as a request (imperative opening, please, can you…). */
export function readsAsEnglishRequest(text: string): boolean {
  if (EN_REQUEST_OUT.test(text.trim())) return true;
  const t = lead(text);
  if (EN_REQUEST_OUT.test(t)) return true;
  const word = (/^[a-z]+/i.exec(t)?.[0] ?? '').toLowerCase();
  return EN_IMPERATIVES.has(word);
}

const EN_INJECTION =
  /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,30}\b(?:instructions?|prompts?|rules|directions|guidelines|context)\b|\byou are now\b|\bpretend (?:to be|you are)\b|\b(?:system|initial|hidden) prompt\b|\bnew instructions?\b|\bdeveloper mode\b|\bjailbreak\b/i;
const ZH_INJECTION =
  /(?:忽略|无视|忘记|忘掉|不要理会)[^。！？\n]{0,12}(?:指令|提示|要求|规则|设定|命令)|你现在是(?:一个|一名|一位)?[^。！？\n]{0,10}(?:助手|AI|机器人|模型|专家)|从现在(?:开始|起)[,，]?你|扮演|假装你是|系统提示|提示词/iu;

/** Whether a text contains an instruction aimed at the model ("ignore previous instructions", "你现在是…助手"). */
export function hasInjection(text: string): boolean {
  return EN_INJECTION.test(text) || ZH_INJECTION.test(text);
}

const ANSWER_OPENER = /^(?:(?:yes|yeah|yep|no|nope|sure|certainly|of course|absolutely|definitely)\b|是的|对的|不是|没有|当然|好的)/iu;

// What an assistant says back to thanks or a greeting.
const REPLY = String.raw`(?:you(?:'re| are) welcome|no problem|my pleasure|glad (?:i could|to) help|happy to help|nice to meet you too|likewise|how (?:can|may) i (?:help|assist))\b|(?:不客气|不用谢|乐意效劳|很高兴(?:能)?(?:帮|为)|有什么(?:可以|能|需要)?(?:帮|为)|我可以帮)`;
const REPLY_OPENING = new RegExp(`^(?:${REPLY})`, 'iu');
const REPLY_ANYWHERE = new RegExp(REPLY, 'iu');

/** An output opening with a social reply ("You're welcome!", "不客气") while the dictation holds none (in either language). */
export function repliesSocially(asr: string, output: string): boolean {
  return REPLY_OPENING.test(lead(output)) && !REPLY_ANYWHERE.test(asr);
}

const AFFIRMATIVE_OPENING = /^(?:好的?|当然|行|没问题|可以|是的|对|(?:ok(?:ay)?|yes|sure|of course)\b)/iu;

/** A dictation that itself opens with "好的 / 当然 / sure…", which a translation renders as "Sure, / Of course". */
export function opensAffirmatively(text: string): boolean {
  return AFFIRMATIVE_OPENING.test(text.trim().replace(/^(?:嗯+|呃+|啊+)[\s,，]*/u, ''));
}

/** An output opening with a yes/no-style answer. */
export function opensWithAnswer(text: string): boolean {
  return ANSWER_OPENER.test(lead(text));
}

const NUMBER_WORD = /[零〇一二两三四五六七八九十百千万亿]|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|half|first|second|third|dozen)\b/iu;

/** Whether the output has digits while the dictation said no number at all. */
export function addsNumbers(asr: string, output: string): boolean {
  return /\d/.test(output) && !/\d/.test(asr) && !NUMBER_WORD.test(asr);
}

/** Length of the longest common subsequence of two token lists; null when they are too long to compare cheaply. */
export function lcsLength(x: readonly string[], y: readonly string[]): number | null {
  if (x.length * y.length > 40_000) return null;
  let prev = new Uint16Array(y.length + 1);
  let cur = new Uint16Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      cur[j] = x[i - 1] === y[j - 1] ? (prev[j - 1] ?? 0) + 1 : Math.max(prev[j] ?? 0, cur[j - 1] ?? 0);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length] ?? 0;
}
