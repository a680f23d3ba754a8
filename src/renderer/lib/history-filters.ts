/**
 * The History Browser's filter state and how it becomes a `history:query` request. Pure (no React, no
 * bridge), so the time windows and tag logic are unit-tested directly.
 */
import type { HistoryQuery } from '../../shared/history/query.ts';
import { speechModelName } from '../../shared/speech-model-name.ts';
import type { UiLanguage } from './i18n.ts';

/** The time filter (seed: today / 7 days (default) / 30 days / all). */
export type TimeRange = 'today' | '7d' | '30d' | 'all';

/** Every time range, in menu order. */
export const TIME_RANGES: readonly TimeRange[] = ['today', '7d', '30d', 'all'];

/** A tag group of the tag row. */
export type TagGroup = 'modes' | 'sttModels' | 'llmModels' | 'apps';

/** What the user has chosen in the toolbar and tag row. `text` is the debounced search text. */
export interface HistoryFilters {
  readonly text: string;
  readonly time: TimeRange;
  readonly archived: boolean;
  readonly modes: readonly string[];
  readonly sttModels: readonly string[];
  readonly llmModels: readonly string[];
  /** Apps dictated into (app rules, the input context). */
  readonly apps: readonly string[];
  readonly corrected: boolean;
}

/**
 * The filters a fresh window starts with: the seed's last 7 days, but archives included (the index
 * searches them as cheaply as the active file, and users do not know which records were rotated away).
 * What the time range hides is said under the toolbar (see `widened`).
 */
export const DEFAULT_FILTERS: HistoryFilters = {
  text: '',
  time: '7d',
  archived: true,
  modes: [],
  sttModels: [],
  llmModels: [],
  apps: [],
  corrected: false,
};

/** Start of a time range as an ISO instant, in the user's local days; undefined for 'all'. */
export function sinceOf(time: TimeRange, now: Date): string | undefined {
  if (time === 'all') return undefined;
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  // "Last 7 days" is today plus the 6 days before it, counted in local calendar days.
  const back = time === 'today' ? 0 : time === '7d' ? 6 : 29;
  start.setDate(start.getDate() - back);
  return start.toISOString();
}

/** The request for one page: `cursor` absent = page 1. Rows only; the count is asked apart. */
export function toHistoryQuery(f: HistoryFilters, now: Date, cursor?: string): HistoryQuery {
  const since = sinceOf(f.time, now);
  return {
    text: f.text.trim().slice(0, 200),
    ...(since ? { since } : {}),
    modes: [...f.modes],
    sttModels: [...f.sttModels],
    llmModels: [...f.llmModels],
    apps: [...f.apps],
    ...(f.corrected ? { corrected: true } : {}),
    includeArchived: f.archived,
    ...(cursor ? { cursor } : {}),
  };
}

/** The same filters without the time range and with archives: what "Show them" / "Search everything" switch to. */
export function widened(f: HistoryFilters): HistoryFilters {
  return { ...f, time: 'all', archived: true };
}

/** Whether the time range or the archive switch narrows the search (so matches may be hidden). */
export function isNarrowed(f: HistoryFilters): boolean {
  return f.time !== 'all' || !f.archived;
}

/** Adds or removes one tag value (tags of a group combine with OR, as in WenZi's tag row). */
export function toggleTag(f: HistoryFilters, group: TagGroup, value: string): HistoryFilters {
  const current = f[group];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return { ...f, [group]: next };
}

/** Whether anything differs from the defaults (enables "Clear filters"). */
export function isFiltered(f: HistoryFilters): boolean {
  return (
    f.text !== '' || f.time !== DEFAULT_FILTERS.time || f.archived !== DEFAULT_FILTERS.archived || f.corrected || f.modes.length > 0 || f.sttModels.length > 0 || f.llmModels.length > 0 || f.apps.length > 0
  );
}

/** `YYYY-MM-DD HH:MM:SS` in local time (the seed's table format); the raw text when unparseable. */
export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * A row's time, short: the clock time for today, month-day and time this year, the date before that
 * (the row's tooltip has formatTimestamp's whole timestamp).
 */
export function rowTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  const time = `${p(d.getHours())}:${p(d.getMinutes())}`;
  if (d.getFullYear() !== now.getFullYear()) return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  if (d.getMonth() === now.getMonth() && d.getDate() === now.getDate()) return time;
  return `${p(d.getMonth() + 1)}-${p(d.getDate())} ${time}`;
}

const NAME_BREAK = /[-_.:/ ]/;

/**
 * A long model name shortened for a pill or a mini-tag: a provider prefix dropped (`remote:openai/whisper-1`
 * → `whisper-1`), then cut after the last whole part that fits (`funasr-paraformer…`), never inside a word
 * unless the first part alone is too long. The full name stays in the tooltip.
 */
export function shortModel(name: string, max = 18): string {
  const bare = name.slice(name.lastIndexOf('/') + 1).replace(/^remote:/, '') || name;
  const chars = [...bare];
  if (chars.length <= max) return bare;
  let cut = -1;
  for (let i = 1; i < max; i++) if (NAME_BREAK.test(chars[i] ?? '')) cut = i;
  return `${chars.slice(0, cut > 0 ? cut : max - 1).join('')}…`;
}

/**
 * A speech model as History shows it: by name where Tingxie knows the model ("Whisper Small (q5_1)"),
 * else the recorded id shortened (another app's or a cloud model).
 */
export function speechModelLabel(id: string, lang: UiLanguage, max?: number): string {
  const human = speechModelName(id, lang);
  return human !== id ? human : shortModel(id, max);
}

/** The line shown for a row: the final text, else the ASR text, cut at 80 characters. */
export function rowPreview(finalText: string, asrText: string): string {
  const text = (finalText || asrText).replace(/\s+/g, ' ').trim();
  const chars = [...text];
  return chars.length > 80 ? `${chars.slice(0, 80).join('')}…` : text;
}
