/*
 * Whisper's initial prompt from vocabulary hotwords. Whisper conditions on the prompt as if it were the
 * preceding transcript, so a short comma-separated list of the user's terms nudges spelling (names,
 * jargon) without steering the content. Long prompts eat the 224-token context and invite
 * hallucination, hence the caps (WenZi: 10 hotwords, 200 characters).
 */

/** Caps of the prompt (config ai_enhance.vocabulary.max_dynamic_hotwords / max_hotword_chars). */
export interface PromptLimits {
  readonly maxHotwords?: number;
  readonly maxChars?: number;
}

/**
 * Builds the prompt from hotwords, most important first: trimmed, deduplicated case-insensitively, empty
 * and over-long ones skipped, at most `maxHotwords` words and `maxChars` characters (whole words only).
 * Returns '' when nothing fits (callers then send no prompt).
 */
export function buildInitialPrompt(hotwords: readonly string[], limits: PromptLimits = {}): string {
  const maxWords = limits.maxHotwords ?? 10;
  const maxChars = limits.maxChars ?? 200;
  const seen = new Set<string>();
  const picked: string[] = [];
  let length = 0;
  for (const raw of hotwords) {
    if (picked.length >= maxWords) break;
    // Newlines or commas inside a term would break the list format.
    const word = raw.replace(/[\s,，、]+/gu, ' ').trim();
    if (word === '') continue;
    const key = word.toLocaleLowerCase();
    if (seen.has(key)) continue;
    const add = (picked.length === 0 ? 0 : 2) + [...word].length; // ", " separator
    if (length + add > maxChars) continue; // a shorter later word may still fit
    seen.add(key);
    picked.push(word);
    length += add;
  }
  return picked.join(', ');
}

/** The vocabulary settings that shape the prompt (config ai_enhance.vocabulary). */
export interface VocabularyPromptSettings {
  readonly enabled: boolean;
  readonly max_dynamic_hotwords: number;
  readonly max_hotword_chars: number;
}

/** The prompt for these settings: '' when vocabulary is off. */
export function initialPromptFor(hotwords: readonly string[], settings: VocabularyPromptSettings): string {
  if (!settings.enabled) return '';
  return buildInitialPrompt(hotwords, { maxHotwords: settings.max_dynamic_hotwords, maxChars: settings.max_hotword_chars });
}
