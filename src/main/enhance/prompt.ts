import type { PromptLanguage } from './builtin-modes.ts';

/**
 * Assembly of the system prompt, everything that does not depend on the input first, so a provider's
 * prefix cache (and the local engine's warm sequence, local-llm/) reuses all of it:
 *
 *   stable:  mode prompt → thinking hint → combined context header → history lines (append-only)
 *            → vocabulary pairs chosen without the input → pinned note
 *   tail:    vocabulary pairs matched in this input → retrieved older corrections → input context
 *
 * The header is fixed text per language; a label ("对话记录：", "词库：" …) appears only when lines
 * follow it, and the whole context section is left out when nothing is in it. Nothing per-request
 * (the input's matches, time, app name) ever goes ahead of the stable part: `stablePrompt` is always a
 * prefix of `buildSystemPrompt` for the same parts, whatever the tail holds.
 */

/** The parts of one step's prompt. */
export interface PromptParts {
  readonly modePrompt: string;
  readonly lang: PromptLanguage;
  readonly thinking: boolean;
  /** Which sources are switched on (decides the header bullets; fixed within a session). */
  readonly historyEnabled: boolean;
  readonly vocabularyEnabled: boolean;
  readonly historyLines: readonly string[];
  /** Pairs chosen without looking at the input (most missed, then recent): part of the stable prefix. */
  readonly vocabulary: readonly { readonly wrong: string; readonly right: string }[];
  /** Further pairs whose misheard form occurs in this input (the dynamic tail; absent: none). */
  readonly matchedVocabulary?: readonly { readonly wrong: string; readonly right: string }[];
  /** Older confirmed corrections retrieved for this input (lines already formatted). */
  readonly retrieved: readonly string[];
  readonly contextNote: string;
  readonly inputContext: string;
}

/** Text blocks of the prompt, per language. */
interface PromptTexts {
  readonly thinkingHint: string;
  readonly headerIntro: string;
  readonly historyHint: string;
  readonly vocabularyHint: string;
  readonly historyLabel: string;
  readonly vocabularyLabel: string;
  readonly matchedVocabularyLabel: string;
  readonly retrievedLabel: string;
  /** The retrieved label when no history header explains the notation (a mode without confirmed dictations yet). */
  readonly retrievedLabelExplained: string;
  readonly noteLabel: string;
  readonly inputContextLabel: string;
}

const TEXTS: Readonly<Record<PromptLanguage, PromptTexts>> = {
  zh: {
    thinkingHint: '思考请尽量简短：只需判断哪些字词需要改正，不要展开推理。',
    headerIntro: '以下内容只用于帮助纠正识别错误：',
    historyHint:
      '- 对话记录（优先参考）：是用户最近确认过的文字，体现其用词习惯与话题。识别结果与确认结果不同时写作"识别 → 确认"或行内的[误→正]；只有一句的表示无需修改。',
    vocabularyHint:
      '- 词库（辅助参考）：列出容易被识别成同音、近音词的专有名词。只有输入中确实出现对应的误写时才替换，不要硬套；与对话记录矛盾时以对话记录为准。',
    historyLabel: '对话记录：',
    vocabularyLabel: '词库：',
    matchedVocabularyLabel: '与本次输入相关的词库：',
    retrievedLabel: '相关的更早纠错：',
    retrievedLabelExplained: '相关的更早纠错（用户确认过的文字；识别有误处写作"识别 → 确认"或行内的[误→正]）：',
    noteLabel: '用户备注：',
    inputContextLabel: '当前输入环境（仅为元数据，不是用户内容）：',
  },
  en: {
    thinkingHint: 'Keep any reasoning very short: only decide which words need fixing.',
    headerIntro: 'The following is reference material for fixing recognition errors only:',
    historyHint:
      '- Conversation record (primary reference): text the user recently confirmed, showing their wording and topics. Where recognition differed it reads "recognised → confirmed" or an inline [wrong→right]; a single sentence means nothing needed fixing.',
    vocabularyHint:
      '- Vocabulary (secondary): proper nouns that speech recognition tends to mishear. Replace only when the input really contains the misheard form; never force it. If it conflicts with the conversation record, the record wins.',
    historyLabel: 'Conversation record:',
    vocabularyLabel: 'Vocabulary:',
    matchedVocabularyLabel: 'Vocabulary matching this input:',
    retrievedLabel: 'Related earlier corrections:',
    retrievedLabelExplained: 'Related earlier corrections (text the user confirmed; where recognition differed it reads "recognised → confirmed" or an inline [wrong→right]):',
    noteLabel: 'User note:',
    inputContextLabel: 'Current input context (metadata, not user content):',
  },
};

const RULE = '---';

/** Formats one vocabulary pair as a prompt line. */
export function vocabularyLine(pair: { readonly wrong: string; readonly right: string }): string {
  return `- "${pair.wrong}" → "${pair.right}"`;
}

/** The stable head of the system prompt: mode prompt, thinking hint and header (no per-request content). */
export function promptHead(p: Pick<PromptParts, 'modePrompt' | 'lang' | 'thinking' | 'historyEnabled' | 'vocabularyEnabled'>): string {
  const t = TEXTS[p.lang];
  let s = p.modePrompt.trim();
  if (p.thinking) s += `\n\n${t.thinkingHint}`;
  if (p.historyEnabled || p.vocabularyEnabled) {
    s += `\n\n${RULE}\n${t.headerIntro}\n`;
    if (p.historyEnabled) s += `${t.historyHint}\n`;
    if (p.vocabularyEnabled) s += `${t.vocabularyHint}\n`;
  }
  return s;
}

/** The sections of the context: those that do not depend on the input, then those that do. */
function sectionsOf(p: PromptParts): { stable: string[]; tail: string[] } {
  const t = TEXTS[p.lang];
  const stable: string[] = [];
  const tail: string[] = [];
  if (p.historyEnabled && p.historyLines.length > 0) stable.push(`${t.historyLabel}\n${p.historyLines.join('\n')}`);
  if (p.vocabularyEnabled && p.vocabulary.length > 0) stable.push(`${t.vocabularyLabel}\n${p.vocabulary.map(vocabularyLine).join('\n')}`);
  if (p.contextNote.trim() !== '') stable.push(`${t.noteLabel}\n${p.contextNote.trim()}`);
  const matched = p.matchedVocabulary ?? [];
  if (p.vocabularyEnabled && matched.length > 0) tail.push(`${t.matchedVocabularyLabel}\n${matched.map(vocabularyLine).join('\n')}`);
  // Retrieved lines use the history's [误→正] notation: without the history bullet in the header, their label explains it.
  if (p.retrieved.length > 0) tail.push(`${p.historyEnabled ? t.retrievedLabel : t.retrievedLabelExplained}\n${p.retrieved.join('\n')}`);
  if (p.inputContext.trim() !== '') tail.push(`${t.inputContextLabel}\n- ${p.inputContext.trim().replace(/\r?\n/g, ' ')}`);
  return { stable, tail };
}

/** The part of the system prompt that does not depend on the input: a prefix of `buildSystemPrompt(p)` for any tail. */
export function stablePrompt(p: PromptParts): string {
  const head = promptHead(p);
  const { stable } = sectionsOf(p);
  const hasHeader = p.historyEnabled || p.vocabularyEnabled;
  if (stable.length === 0) return head;
  return `${hasHeader ? head : `${head}\n\n${RULE}\n`}\n${stable.join('\n\n')}`;
}

/** The full system prompt for one step. */
export function buildSystemPrompt(p: PromptParts): string {
  const head = promptHead(p);
  const { stable, tail } = sectionsOf(p);
  const sections = [...stable, ...tail];
  const hasHeader = p.historyEnabled || p.vocabularyEnabled;
  if (sections.length === 0) return hasHeader ? `${head}${RULE}` : head;
  // Without a header (all sources off) the tail still gets its own rule so it is clearly apart from the mode prompt.
  return `${hasHeader ? head : `${head}\n\n${RULE}\n`}\n${sections.join('\n\n')}\n${RULE}`;
}
