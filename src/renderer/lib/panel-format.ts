/**
 * Formatting of the panel's info line: token usage with the cached share, and timing. Pure, so the
 * numbers are unit-tested apart from React.
 */
import type { TokenUsageWire } from '../../shared/ipc/dictation-types.ts';

/** Values for the `panel.usage*` strings (total, read, reused, reused share, written), or null when no tokens were used. */
export function usageParts(usage: TokenUsageWire | null, locale: string): { total: string; prompt: string; cached: string; share: string; completion: string } | null {
  if (usage === null || usage.prompt_tokens + usage.completion_tokens === 0) return null;
  const n = new Intl.NumberFormat(locale);
  const share = usage.prompt_tokens > 0 ? Math.round((100 * Math.min(usage.cached_tokens, usage.prompt_tokens)) / usage.prompt_tokens) : 0;
  return { total: n.format(usage.prompt_tokens + usage.completion_tokens), prompt: n.format(usage.prompt_tokens), cached: n.format(usage.cached_tokens), share: String(share), completion: n.format(usage.completion_tokens) };
}

/** Seconds with one decimal (0.05 s → "0.1"), or null when there is no timing. */
export function secondsText(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return null;
  return (Math.round(ms / 100) / 10).toFixed(1);
}

/** Local clock time (HH:MM) of a timestamp, for the recent previews list. */
export function clockTime(at: number, locale: string): string {
  return new Date(at).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
}
