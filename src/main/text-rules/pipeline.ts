import type { Config } from '../../shared/config/config-schema.ts';
import { chineseFillers } from './fillers-zh.ts';
import { englishFillers } from './fillers-en.ts';
import { applyReplacements, compileReplacements, type CompiledReplacements } from './replacements.ts';
import type { ReplacementRule, Snippet, TextRulesReport } from './rule-types.ts';
import { selfCorrections } from './self-correction.ts';
import { expandSnippet, findSnippet } from './snippets.ts';
import { mergeSpans, removeSpans, spanInOriginal, type Span } from './spans.ts';
import { isCjk, isWordChar } from './text-chars.ts';

/**
 * The text rules a dictation's recognized text goes through, after recognition and before the LLM and
 * the paste, for every engine: fillers and stutters removed, spoken self-corrections applied, then a
 * snippet (when the whole dictation is its trigger) or the replacement rules. One function for the app
 * (dictation/session-io.ts) and `tingxie rules apply`, so the command prints what a dictation gets.
 */

/** Which stages run. */
export interface TextRulesSwitches {
  readonly fillers: boolean;
  readonly selfCorrections: boolean;
  readonly replacements: boolean;
  readonly snippets: boolean;
}

/** Replacement rules and snippets, compiled once per change of the rules file. */
export interface CompiledRules {
  readonly replacements: CompiledReplacements;
  readonly snippets: readonly Snippet[];
}

/** Compiles the stored rules. */
export function compileRules(rules: { readonly replacements: readonly ReplacementRule[]; readonly snippets: readonly Snippet[] }): CompiledRules {
  return { replacements: compileReplacements(rules.replacements), snippets: rules.snippets };
}

/** What the rules did to one text. */
export interface TextRulesResult {
  readonly text: string;
  readonly report: TextRulesReport;
}

/** The switches for a dictation in `mode`: config.text_rules, with the mode's own switch for the removal stages. */
export function switchesFor(config: Config, mode: string): TextRulesSwitches {
  const r = config.text_rules;
  const modeOn = r.modes[mode] ?? true;
  return { fillers: r.fillers && modeOn, selfCorrections: r.self_corrections && modeOn, replacements: r.replacements, snippets: r.snippets };
}

/** True when `s` has a letter, digit or Chinese character (something said). */
function hasWords(s: string): boolean {
  for (const c of s) if (isCjk(c) || isWordChar(c)) return true;
  return false;
}

/**
 * The spans the removal stages take out of `text`, merged, in `text`'s positions: fillers first, then
 * self-corrections found in the text without its fillers ("三点，嗯，不对，四点" is still a correction).
 */
export function removalSpans(text: string, on: Pick<TextRulesSwitches, 'fillers' | 'selfCorrections'>): Span[] {
  const fillers = on.fillers ? mergeSpans([...chineseFillers(text), ...englishFillers(text)]) : [];
  if (!on.selfCorrections) return fillers;
  const stage = removeSpans(text, fillers);
  const corrections = selfCorrections(stage.text).map((s) => spanInOriginal(s, stage.map, text.length));
  return mergeSpans([...fillers, ...corrections]);
}

/** Runs the rules on `text` (the recognized text); `now` fills a snippet's {date} and {time}. */
export function applyTextRules(text: string, on: TextRulesSwitches, rules: CompiledRules, now: Date): TextRulesResult {
  const spans = on.fillers || on.selfCorrections ? removalSpans(text, on) : [];
  let cleaned = spans.length > 0 ? removeSpans(text, spans).text : text;
  // A dictation that was nothing but a filler ("嗯。") was said on purpose: it stays.
  const removed = hasWords(cleaned) ? spans.map((s) => ({ text: text.slice(s.start, s.end).trim(), kind: s.kind })) : [];
  if (removed.length === 0) cleaned = text;
  const snippet = on.snippets ? findSnippet(cleaned, rules.snippets) : null;
  if (snippet !== null) {
    const to = expandSnippet(snippet.text, now);
    return { text: to, report: { removed, fired: [{ kind: 'snippet', from: snippet.trigger, to }] } };
  }
  if (!on.replacements) return { text: cleaned, report: { removed, fired: [] } };
  const r = applyReplacements(cleaned, rules.replacements);
  return { text: r.text, report: { removed, fired: r.fired.map((f) => ({ kind: 'replacement' as const, ...f })) } };
}

/** The report within what a history record keeps (1,000 entries, 2,000 characters a piece). */
export function capReport(report: TextRulesReport): TextRulesReport {
  const cut = (t: string, n: number): string => (t.length > n ? `${t.slice(0, n - 1)}…` : t);
  return {
    removed: report.removed.slice(0, 1000).map((r) => ({ ...r, text: cut(r.text, 2000) })),
    fired: report.fired.slice(0, 1000).map((f) => ({ ...f, from: cut(f.from, 2000), to: cut(f.to, 20_000) })),
  };
}

/** True when the rules changed nothing and fired nothing. */
export function reportIsEmpty(report: TextRulesReport): boolean {
  return report.removed.length === 0 && report.fired.length === 0;
}
