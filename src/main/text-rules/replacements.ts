import { readingsOf, syllablesOf } from './pinyin-index.ts';
import type { ReplacementRule } from './rule-types.ts';
import { isCjk, isWordChar, lower, startsWithAt } from './text-chars.ts';
import { WordIndex } from './word-boundaries.ts';

/**
 * Deterministic `heard → written` replacement, one left-to-right pass: at each position the longest rule
 * that matches there wins, its written text is emitted and the scan goes on after the match (a
 * replacement is never matched again). Latin: whole words, case-insensitive. Chinese: the exact
 * characters, and never inside a longer word (word-boundaries.ts: ICU's dictionary segmentation) unless
 * the rule says `anywhere`; `same_pinyin` matches any characters read with the same toneless pinyin.
 */

interface Compiled {
  readonly rule: ReplacementRule;
  readonly heard: string;
  readonly syllables: readonly string[] | null;
  readonly hasCjk: boolean;
}

/** Rules ready to match: by first (lowercased) unit, and same-pinyin rules by first syllable; longest first. */
export interface CompiledReplacements {
  readonly byFirst: ReadonlyMap<string, readonly Compiled[]>;
  readonly bySyllable: ReadonlyMap<string, readonly Compiled[]>;
  readonly count: number;
}

/** One fired replacement. */
export interface FiredReplacement {
  readonly from: string;
  readonly to: string;
}

function push(map: Map<string, Compiled[]>, key: string, c: Compiled): void {
  const list = map.get(key) ?? [];
  list.push(c);
  list.sort((a, b) => b.heard.length - a.heard.length);
  map.set(key, list);
}

/** Compiles `rules` for {@link applyReplacements}. */
export function compileReplacements(rules: readonly ReplacementRule[]): CompiledReplacements {
  const byFirst = new Map<string, Compiled[]>();
  const bySyllable = new Map<string, Compiled[]>();
  for (const rule of rules) {
    const heard = rule.heard.trim();
    if (heard === '') continue;
    let hasCjk = false;
    for (const c of heard) if (isCjk(c)) hasCjk = true;
    let allCjk = true;
    for (const c of heard) if (!isCjk(c)) allCjk = false;
    const syllables = rule.same_pinyin && allCjk ? syllablesOf(heard) : null;
    const c: Compiled = { rule, heard, syllables, hasCjk };
    push(byFirst, lower(heard[0] ?? ''), c);
    if (syllables !== null && syllables[0] !== undefined) push(bySyllable, syllables[0], c);
  }
  return { byFirst, bySyllable, count: rules.length };
}

/** True when every character of `text` at `i` reads the rule's syllables. */
function pinyinMatch(text: string, i: number, syllables: readonly string[]): boolean {
  if (i + syllables.length > text.length) return false;
  for (let k = 0; k < syllables.length; k += 1) {
    const c = text[i + k] ?? '';
    if (!isCjk(c) || !readingsOf(c).includes(syllables[k] ?? '')) return false;
  }
  return true;
}

/** The length matched by `c` at `i`, or 0 (boundaries checked). */
function matchAt(text: string, i: number, c: Compiled, words: () => WordIndex): number {
  const len = c.heard.length;
  const exact = startsWithAt(text, i, c.heard);
  if (!exact && !(c.syllables !== null && pinyinMatch(text, i, c.syllables))) return 0;
  if (isWordChar(c.heard[0]) && isWordChar(text[i - 1])) return 0;
  if (isWordChar(c.heard[len - 1]) && isWordChar(text[i + len])) return 0;
  if (c.hasCjk && !c.rule.anywhere && words().insideLongerWord(i, i + len)) return 0;
  return len;
}

/** `text` with every rule applied once, and the replacements that fired. Linear in the text for a given rule set. */
export function applyReplacements(text: string, rules: CompiledReplacements): { text: string; fired: FiredReplacement[] } {
  if (rules.count === 0) return { text, fired: [] };
  let index: WordIndex | null = null;
  const words = (): WordIndex => (index ??= new WordIndex(text));
  const fired: FiredReplacement[] = [];
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; ) {
    const ch = text[i] ?? '';
    let best: { c: Compiled; len: number } | null = null;
    const candidates = [...(rules.byFirst.get(lower(ch)) ?? [])];
    if (isCjk(ch) && rules.bySyllable.size > 0) for (const r of readingsOf(ch)) candidates.push(...(rules.bySyllable.get(r) ?? []));
    for (const c of candidates) {
      if (best !== null && c.heard.length <= best.len) continue;
      const len = matchAt(text, i, c, words);
      if (len > 0) best = { c, len };
    }
    const matched = best === null ? '' : text.slice(i, i + best.len);
    if (best === null || matched === best.c.rule.written) {
      i += best?.len ?? 1;
      continue;
    }
    out += text.slice(copied, i) + best.c.rule.written;
    fired.push({ from: matched, to: best.c.rule.written });
    i += best.len;
    copied = i;
  }
  return { text: out + text.slice(copied), fired };
}
