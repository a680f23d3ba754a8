/** Request schemas and response types of the text rules (`rules:*`), spread into contract.ts. */
import { z } from 'zod';
import type { TextRulesReport } from '../history/record.ts';

/** Phantom type marker (contract.ts's `returns`, repeated to avoid an import cycle). */
const marker = <T>(): { readonly __type?: T } => ({});
const ruleId = z.string().min(1).max(64);

/** One replacement rule as Settings shows it. */
export interface ReplacementRuleWire {
  readonly id: string;
  readonly heard: string;
  readonly written: string;
  readonly same_pinyin: boolean;
  readonly anywhere: boolean;
}

/** One snippet as Settings shows it. */
export interface SnippetWire {
  readonly id: string;
  readonly trigger: string;
  readonly text: string;
}

/** The stored rules (`damaged`: the file does not parse; it is set aside at the next save). */
export interface TextRulesListWire {
  readonly replacements: readonly ReplacementRuleWire[];
  readonly snippets: readonly SnippetWire[];
  readonly damaged: string | null;
}

/** What trying a text gives: exactly what a dictation in that mode would get, before any LLM. */
export interface TextRulesTryWire {
  readonly text: string;
  readonly report: TextRulesReport;
}

/** Channel map of the text rules; contract.ts spreads it in. */
export const textRulesContract = {
  'rules:list': { request: z.undefined({ error: 'this call takes no payload' }), response: marker<TextRulesListWire>() },
  'rules:save-replacement': {
    request: z.strictObject({
      id: ruleId.optional(),
      heard: z.string().trim().min(1).max(200),
      written: z.string().max(2000),
      samePinyin: z.boolean(),
      anywhere: z.boolean(),
    }),
    response: marker<ReplacementRuleWire>(),
  },
  'rules:save-snippet': {
    request: z.strictObject({ id: ruleId.optional(), trigger: z.string().trim().min(1).max(200), text: z.string().min(1).max(20_000) }),
    response: marker<SnippetWire>(),
  },
  'rules:remove': { request: z.strictObject({ id: ruleId }), response: marker<boolean>() },
  'rules:try': { request: z.strictObject({ text: z.string().max(20_000), mode: z.string().max(64).optional() }), response: marker<TextRulesTryWire>() },
} as const;
