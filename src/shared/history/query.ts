import { z } from 'zod';

/**
 * What the History Browser (and the CLI) asks the history index for, and what it gets back.
 * These types cross IPC, so they are zod schemas first.
 */

/** Rows per page, as in the seed (PAGE_SIZE = 100). */
export const HISTORY_PAGE_SIZE = 100;
/** Upper bound for `pageSize` so one call cannot pull the whole index into memory. */
export const HISTORY_MAX_PAGE_SIZE = 500;
/** Queries shorter than this (in code points) use the unigram/bigram index instead of the trigram index. */
export const TRIGRAM_MIN_CHARS = 3;

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'expected an ISO 8601 date' });

/** Search + filters + page position of one History Browser request. */
export const historyQuerySchema = z.object({
  /**
   * Search text (case-insensitive for ASCII): every space-separated word must occur in the record's ASR,
   * enhanced or final text, in any order; "quoted text" must occur as written (search-terms.ts).
   */
  text: z.string().max(200).default(''),
  /** Inclusive lower bound on the record timestamp. */
  since: isoDate.optional(),
  /** Inclusive upper bound on the record timestamp. */
  until: isoDate.optional(),
  /** Enhancement modes to keep (empty = all). */
  modes: z.array(z.string().max(200)).max(100).default([]),
  /** ASR models to keep (empty = all). */
  sttModels: z.array(z.string().max(200)).max(100).default([]),
  /** LLM models to keep (empty = all). */
  llmModels: z.array(z.string().max(200)).max(100).default([]),
  /** Apps dictated into (the input context's app name; '' = not known) to keep (empty = all). */
  apps: z.array(z.string().max(200)).max(100).default([]),
  /** Only records the user corrected (true) or did not (false). */
  corrected: z.boolean().optional(),
  /**
   * Search monthly archives too (the seed's "Include archived" toggle). The History Browser and the CLI
   * send true unless the user narrows to the active file (the index makes archives as cheap to search).
   */
  includeArchived: z.boolean().default(false),
  /** Opaque position returned as `nextCursor` / `prevCursor` by the previous page; absent = page 1. */
  cursor: z.string().max(200).optional(),
  pageSize: z.number().int().min(1).max(HISTORY_MAX_PAGE_SIZE).default(HISTORY_PAGE_SIZE),
  /** Compute tag facet counts (one extra pass over the matches; cached per query sequence). */
  facets: z.boolean().default(true),
  /**
   * Compute the total for "Page X / Y" before answering. `false` returns the page as soon as its rows
   * are read (total and pageCount null unless already known); ask HistoryIndex.countMatches next.
   */
  count: z.boolean().default(true),
});
/** A query as a caller writes it (defaults may be omitted). */
export type HistoryQuery = z.input<typeof historyQuerySchema>;
/** A query with every default applied. */
export type ResolvedHistoryQuery = z.output<typeof historyQuerySchema>;

/** One row of the History Browser list. */
export const historyRowSchema = z.object({
  key: z.string(),
  /** Record id when it has one (WenZi records have none). */
  id: z.string().nullable(),
  timestamp: z.string(),
  asr_text: z.string(),
  enhanced_text: z.string().nullable(),
  final_text: z.string(),
  enhance_mode: z.string(),
  stt_model: z.string(),
  llm_model: z.string(),
  user_corrected: z.boolean(),
  preview_enabled: z.boolean(),
  outcome: z.string().nullable(),
  audio_duration: z.number(),
  edited_at: z.string().nullable(),
  /** 'active', 'YYYY-MM' or 'unknown' — the JSONL file the record lives in. */
  file: z.string(),
  archived: z.boolean(),
});
export type HistoryRow = z.infer<typeof historyRowSchema>;

/** Count of matches per tag value. */
export const facetCountsSchema = z.object({
  modes: z.record(z.string(), z.number()),
  sttModels: z.record(z.string(), z.number()),
  llmModels: z.record(z.string(), z.number()),
  apps: z.record(z.string(), z.number()),
  corrected: z.object({ yes: z.number(), no: z.number() }),
});
export type FacetCounts = z.infer<typeof facetCountsSchema>;

/** One page of results, newest first. */
export const historyPageSchema = z.object({
  rows: z.array(historyRowSchema),
  /** Number of records matching text + filters (all pages); null when the query said `count: false` and it is not known yet. */
  total: z.number().int().nullable(),
  /** 1-based page number of this page ("Page X / Y"). */
  page: z.number().int(),
  /** Number of pages (at least 1, so an empty result shows "Page 1 / 1"); null exactly when `total` is. */
  pageCount: z.number().int().nullable(),
  pageSize: z.number().int(),
  nextCursor: z.string().nullable(),
  prevCursor: z.string().nullable(),
  /** Tag counts within the matching records; null when not requested. */
  facets: facetCountsSchema.nullable(),
  /** How the text was matched: trigram full-text index, unigram/bigram index (1–2 characters) or no text. */
  textMode: z.enum(['none', 'fts', 'ngram']),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

/** Total matches of a query (and facets when asked), for "Page X / Y"; fetched apart from the rows. */
export interface HistoryMatchCount {
  readonly total: number;
  readonly pageCount: number;
  readonly facets: FacetCounts | null;
}

/** Usage statistics window. */
export const statsQuerySchema = z.object({
  /** Number of local days ending today (inclusive), or 'all' (from the first record's day). Ignored when `since` is given. */
  days: z.union([z.literal(7), z.literal(14), z.literal(30), z.literal('all')]).default(7),
  /** Start of the window (ISO); overrides `days`. */
  since: isoDate.optional(),
  /** Local time minus UTC in minutes (east positive: China = 480; i.e. `-new Date().getTimezoneOffset()`). */
  tzOffsetMinutes: z.number().int().min(-14 * 60).max(14 * 60).default(0),
  /** "Now" for the window's end; defaults to the current time (injectable for tests). */
  now: isoDate.optional(),
});
export type StatsQuery = z.input<typeof statsQuerySchema>;

/** Counters aggregated over a set of records. */
export const usageCountersSchema = z.object({
  dictations: z.number().int(),
  /** Sum of audio_duration / 60. */
  minutesSpoken: z.number(),
  /** Delivered records (outcome confirmed / copied / direct, or none recorded as in WenZi). */
  confirmed: z.number().int(),
  /** Delivered records the user edited before confirming (a subset of `confirmed`). */
  corrected: z.number().int(),
  cancelled: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  cachedTokens: z.number().int(),
  /** Words of the delivered texts (shared/count-words.ts: a Chinese character or a Latin word is one). */
  words: z.number().int(),
});
export type UsageCounters = z.infer<typeof usageCountersSchema>;

/** Usage statistics per local day and per mode. */
export const usageStatsSchema = z.object({
  /** First and last local day of the window (YYYY-MM-DD). */
  from: z.string(),
  to: z.string(),
  tzOffsetMinutes: z.number().int(),
  /** Every day of the window, oldest first, zeros included. */
  perDay: z.array(usageCountersSchema.extend({ day: z.string() })),
  /** Per enhancement mode over the whole window. */
  perMode: z.record(z.string(), usageCountersSchema),
  totals: usageCountersSchema,
});
export type UsageStats = z.infer<typeof usageStatsSchema>;
