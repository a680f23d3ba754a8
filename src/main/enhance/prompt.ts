import type { PromptLanguage } from './builtin-modes.ts';

/**
 * Assembly of the system prompt in the seed's order, most stable first so provider prefix caches
 * reuse as much as possible:
 *
 *   mode prompt → thinking hint → combined context header → history lines (append-only)
 *   → vocabulary lines (per request) → dynamic tail (older corrections, pinned note, input context)
 *
 * The header is fixed text per language; a label ("对话记录：", "词库：" …) appears only when lines
 * follow it, and the whole context section is left out when nothing is in it. Nothing per-request
 * (time, app name, clipboard) ever goes ahead of the history lines.
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
  readonly vocabulary: readonly { readonly wrong: string; readonly right: string }[];
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
  readonly retrievedLabel: string;
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
    retrievedLabel: '相关的更早纠错：',
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
    retrievedLabel: 'Related earlier corrections:',
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

/** The full system prompt for one step. */
export function buildSystemPrompt(p: PromptParts): string {
  const t = TEXTS[p.lang];
  const head = promptHead(p);
  const sections: string[] = [];
  if (p.historyEnabled && p.historyLines.length > 0) sections.push(`${t.historyLabel}\n${p.historyLines.join('\n')}`);
  if (p.vocabularyEnabled && p.vocabulary.length > 0) sections.push(`${t.vocabularyLabel}\n${p.vocabulary.map(vocabularyLine).join('\n')}`);
  if (p.retrieved.length > 0) sections.push(`${t.retrievedLabel}\n${p.retrieved.join('\n')}`);
  if (p.contextNote.trim() !== '') sections.push(`${t.noteLabel}\n${p.contextNote.trim()}`);
  if (p.inputContext.trim() !== '') sections.push(`${t.inputContextLabel}\n- ${p.inputContext.trim().replace(/\r?\n/g, ' ')}`);
  const hasHeader = p.historyEnabled || p.vocabularyEnabled;
  if (sections.length === 0) return hasHeader ? `${head}${RULE}` : head;
  // Without a header (all sources off) the tail still gets its own rule so it is clearly apart from the mode prompt.
  return `${hasHeader ? head : `${head}\n\n${RULE}\n`}\n${sections.join('\n\n')}\n${RULE}`;
}
