/**
 * The Chinese UI's style rules, checked over the message tables (test/unit/renderer/zh-style.test.ts) and over
 * what every window shows in Chinese (test/browser/zh-style.test.ts):
 *
 * - no half-width punctuation next to Chinese text (“约快 3 倍”在全角括号里, "可以关闭" after a full-width comma);
 * - one word per concept: an LLM token is "token" (as Chinese model providers' pricing pages write it), and
 *   令牌 only ever means a credential, next to 密钥;
 * - no English sentence: a stretch of text with no Chinese in it, once proper nouns, key names, model
 *   names, addresses and numbers are taken out, has fewer than three English words.
 * Each check is one pass over the text (regular expressions without nested repetition).
 */

const CJK = '[\\u3400-\\u9fff\\uf900-\\ufaff]';
const HALF_WIDTH_NEAR_CJK = new RegExp(`${CJK}[,.;:!?()]|[,;:!?(]${CJK}|\\)${CJK}`, 'gu');

/** Half-width punctuation touching Chinese text, with a character of context each side. */
export function halfWidthNextToCjk(text: string): string[] {
  return [...text.matchAll(HALF_WIDTH_NEAR_CJK)].map((m) => text.slice(Math.max(0, m.index - 6), m.index + 8));
}

/** A Chinese string that uses 令牌 for something other than a credential (the LLM's unit is "token"). */
export function tokenWordProblem(text: string): boolean {
  return text.includes('令牌') && !text.includes('密钥');
}

/**
 * Words that stay as they are in Chinese text: product and provider names, OS and key names, file formats,
 * and the units and abbreviations Chinese software writes in Latin letters.
 */
const NAMES = [
  'Tingxie', 'OpenAI', 'Azure', 'Alibaba Cloud', 'Model Studio', 'GLM', 'BigModel', 'Z.ai', 'Volcengine', 'Ark', 'Doubao', 'Groq', 'SiliconFlow', 'DeepSeek', 'Moonshot', 'Kimi', 'Zhipu', 'DashScope', 'Qwen', 'Gemini', 'Mistral', 'Cerebras',
  'OpenRouter', 'Ollama', 'LM Studio', 'vLLM', 'llama.cpp', 'whisper.cpp', 'sherpa-onnx', 'Hugging Face', 'Whisper', 'SenseVoice-Small', 'SenseVoice',
  'Paraformer', 'WenZi', 'GitHub', 'API', 'URL', 'JSONL', 'JSON', 'CSV', 'HTTP', 'HTTPS', 'macOS', 'Windows', 'Linux', 'X11', 'Wayland', 'XWayland',
  'Right', 'Left', 'Alt', 'Ctrl', 'Shift', 'Option', 'Command', 'Control', 'Super', 'Win', 'Esc', 'Enter', 'Return', 'Space', 'Tab', 'Fn', 'Globe',
  'Delete', 'Backspace', 'Caps Lock', 'AltGr', 'AI', 'LLM', 'ASR', 'GPU', 'CPU', 'int8', 'token', 'tokens', 'KB', 'MB', 'GB', 'ms', 'Tiny', 'Base',
  'Small', 'Medium', 'Large', 'Turbo', 'English', 'only',
];
const NAME_RE = new RegExp(`(?<![A-Za-z])(${NAMES.map((n) => n.replace(/[.+]/g, '\\$&')).join('|')})(?![A-Za-z])`, 'g');
/** Addresses, file names, model ids (`small-q5_1`, `qwen2.5:7b`, `whisper-1`), placeholders and numbers. */
const TECHNICAL = /\b[a-z][a-z0-9+.-]*:\/\/\S+|\S+\.(?:json|jsonl|csv|txt|bin|onnx|wav|md|db)\b|\b[\w.-]*\d[\w.:-]*\b|\{[a-z]+\}|\b[a-z]+[_-][\w-]+\b/gi;
const ENGLISH_WORD = /\b[A-Za-z]{2,}\b/g;
const SEGMENT = /[^\n。！？；]+/g;

/** Stretches of text that read as English sentences (no Chinese, three or more English words after the names). */
export function englishSentences(text: string, extraNames: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(SEGMENT)) {
    const segment = m[0].trim();
    if (segment === '' || new RegExp(CJK, 'u').test(segment)) continue;
    let rest = segment.replace(TECHNICAL, ' ').replace(NAME_RE, ' ');
    for (const n of extraNames) rest = rest.split(n).join(' ');
    if ((rest.match(ENGLISH_WORD) ?? []).length >= 3) found.push(segment);
  }
  return found;
}
