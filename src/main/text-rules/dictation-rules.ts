import type { Config } from '../../shared/config/config-schema.ts';
import type { TextRulesPort } from '../ports/dictation-ports.ts';
import { applyTextRules, capReport, switchesFor, type TextRulesResult } from './pipeline.ts';
import { RuleStore } from './rule-store.ts';

/**
 * The text rules as a dictation (and `tingxie rules apply`) runs them: the switches of config.text_rules for
 * the mode, the rules as text-rules.json holds them now, the local time for snippets. One function, so the
 * command prints exactly what a dictation gets.
 */
export function applyForDictation(store: RuleStore, config: Config, mode: string, text: string, now: Date = new Date()): TextRulesResult {
  const r = applyTextRules(text, switchesFor(config, mode), store.compiled(), now);
  return { text: r.text, report: capReport(r.report) };
}

/** The controller's text-rules port over the data folder's rules file (re-read when it changes). */
export function textRulesPort(dataDir: string, config: () => Config): TextRulesPort {
  const store = new RuleStore(dataDir);
  return { apply: (text, mode) => applyForDictation(store, config(), mode, text) };
}
