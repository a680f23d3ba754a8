import { z } from 'zod';

/** A `heard → written` replacement rule. */
export const replacementRuleSchema = z.object({
  id: z.string().min(1).max(64),
  heard: z.string().trim().min(1).max(200),
  written: z.string().max(2000),
  /** Also replace every spelling with the same pinyin (平平, 苹苹 → 萍萍); the heard side must be Chinese. */
  same_pinyin: z.boolean().default(false),
  /** Replace inside longer words too (by default a Chinese match inside a dictionary word is left alone). */
  anywhere: z.boolean().default(false),
});
export type ReplacementRule = z.infer<typeof replacementRuleSchema>;

/** A snippet: a phrase spoken on its own becomes the stored text (`{date}`, `{time}` filled in). */
export const snippetSchema = z.object({
  id: z.string().min(1).max(64),
  trigger: z.string().trim().min(1).max(200),
  text: z.string().min(1).max(20_000),
});
export type Snippet = z.infer<typeof snippetSchema>;

/** The rules file (`text-rules.json` in the data folder) and the import/export format. */
export const rulesFileSchema = z.object({
  version: z.literal(1).default(1),
  replacements: z.array(replacementRuleSchema).max(10_000).default([]),
  snippets: z.array(snippetSchema).max(10_000).default([]),
});
export type RulesFile = z.infer<typeof rulesFileSchema>;

/** What a dictation's text went through: the pieces removed and the rules that fired (kept on the history record). */
export type { TextRulesReport } from '../../shared/history/record.ts';
