import type { Snippet } from './rule-types.ts';
import { isPunct, isSpace, lower } from './text-chars.ts';

/**
 * Snippets fire only when the phrase is the whole dictation ("我的邮箱", "my address" said on its own):
 * a phrase inside a sentence is something the speaker meant to say, not a command. Matching ignores
 * case, surrounding spaces and punctuation the engine added ("My address.").
 */

/** `s` without surrounding spaces and punctuation, lowercased (Latin letters). */
export function snippetKey(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (isSpace(s[a]) || isPunct(s[a]))) a += 1;
  while (b > a && (isSpace(s[b - 1]) || isPunct(s[b - 1]))) b -= 1;
  let out = '';
  for (let i = a; i < b; i += 1) out += lower(s[i] ?? '');
  return out;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The snippet's text with `{date}` (YYYY-MM-DD) and `{time}` (HH:MM), local time, filled in. */
export function expandSnippet(text: string, now: Date): string {
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}:${pad(now.getMinutes())}`;
  return text.split('{date}').join(date).split('{time}').join(time);
}

/** The snippet whose trigger is the whole of `text`, or null. */
export function findSnippet(text: string, snippets: readonly Snippet[]): Snippet | null {
  if (text.length > 400 || snippets.length === 0) return null;
  const key = snippetKey(text);
  if (key === '') return null;
  return snippets.find((s) => snippetKey(s.trigger) === key) ?? null;
}
