import { useEffect, useState } from 'react';
import type { UsageCounters, UsageStats } from '../../shared/history/query.ts';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import { Banner } from '../components/banner.tsx';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { StatsCharts } from './stats-charts.tsx';
import { minutesSaved, TYPING_WPM, wordsPerMinute } from './stats-figures.ts';

const RANGES = [7, 14, 30, 'all'] as const;
type Range = (typeof RANGES)[number];

/** Share of prompt tokens served from the provider's cache, in whole percent. */
export function cachedPercent(c: Pick<UsageCounters, 'promptTokens' | 'cachedTokens'>): number {
  return c.promptTokens > 0 ? Math.round((c.cachedTokens / c.promptTokens) * 100) : 0;
}

/**
 * Usage statistics from `history:stats`: totals (with words, words per minute and time saved against typing,
 * saying how that is computed), four charts and a per-mode table; 7 / 14 / 30 days or all time. A period
 * without dictations says how to make one instead of drawing empty axes.
 */
export function StatsView({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t } = useI18n();
  const [days, setDays] = useState<Range>(7);
  const { stats, error } = useStats(bridge, days);
  const tot = stats?.totals;
  return (
    <div className="stats-view">
      <div className="toolbar">
        <h2 className="grow">{t('stats.title')}</h2>
        <div role="radiogroup" aria-label={t('stats.range')} className="segmented">
          {RANGES.map((r) => (
            <button key={r} type="button" role="radio" aria-checked={days === r} onClick={() => setDays(r)}>
              {r === 'all' ? t('stats.all') : t('stats.days', { days: r })}
            </button>
          ))}
        </div>
      </div>
      {error ? <Banner tone="error">{t('stats.error', { message: error })}</Banner> : null}
      {tot && stats ? tot.dictations === 0 ? <EmptyStats all={days === 'all'} /> : <StatsBody stats={stats} /> : null}
    </div>
  );
}

/** The statistics of the last `days` days, fetched again when `days` changes; an error replaces none of them. */
function useStats(bridge: TingxieBridge, days: Range): { readonly stats: UsageStats | null; readonly error: string | null } {
  const [stats, setStats] = useState<UsageStats | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    bridge.history.stats({ days, tzOffsetMinutes: -new Date().getTimezoneOffset() }).then(
      (s) => {
        if (!live) return;
        setStats(s);
        setError(null);
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [bridge, days]);
  return { stats, error };
}

const fmtInt = (n: number) => Math.round(n).toLocaleString();

/** No dictation in the period: a centred note that says how to make the first one. */
function EmptyStats({ all }: { readonly all: boolean }) {
  const { t } = useI18n();
  return (
    <div className="stats-empty" data-testid="stats-empty">
      <p className="stats-empty-title">{t(all ? 'stats.emptyTitle' : 'stats.empty')}</p>
      <p className="help">{t('stats.emptyHow')}</p>
    </div>
  );
}

/** The totals, how time saved is computed, the charts and the per-mode table. */
function StatsBody({ stats }: { readonly stats: UsageStats }) {
  const { t } = useI18n();
  const tot = stats.totals;
  return (
    <>
      <div className="cards" data-testid="stats-totals">
        <Card label={t('stats.dictations')} value={fmtInt(tot.dictations)} />
        <Card label={t('stats.minutes')} value={tot.minutesSpoken.toFixed(1)} />
        <Card label={t('stats.words')} value={fmtInt(tot.words)} />
        <Card label={t('stats.wpm')} value={fmtInt(wordsPerMinute(tot))} note={t('stats.wpm.note')} />
        <Card label={t('stats.saved')} value={t('stats.saved.value', { minutes: fmtInt(minutesSaved(tot)) })} note={t('stats.saved.note', { rate: TYPING_WPM })} />
        <Card label={t('stats.confirmed')} value={fmtInt(tot.confirmed)} />
        <Card label={t('stats.corrected')} value={fmtInt(tot.corrected)} />
        <Card label={t('stats.cancelled')} value={fmtInt(tot.cancelled)} />
        <Card label={t('stats.tokens')} value={fmtInt(tot.promptTokens + tot.completionTokens)} note={t('stats.cachedShare', { percent: cachedPercent(tot) })} />
      </div>
      <p className="help stats-how" data-testid="stats-how">
        {t('stats.saved.how', { rate: TYPING_WPM })}
      </p>
      <StatsCharts stats={stats} />
      <ModeTable perMode={stats.perMode} />
    </>
  );
}

function Card({ label, value, note }: { readonly label: string; readonly value: string; readonly note?: string }) {
  return (
    <div className="card">
      <span className="card-label">{label}</span>
      <span className="card-value">{value}</span>
      {note ? <span className="help">{note}</span> : null}
    </div>
  );
}

function ModeTable({ perMode }: { readonly perMode: UsageStats['perMode'] }) {
  const { t } = useI18n();
  const modes = Object.entries(perMode).sort((a, b) => b[1].dictations - a[1].dictations);
  if (modes.length === 0) return null;
  return (
    <table className="mode-table" data-testid="mode-table">
      <caption>{t('stats.perMode')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('stats.mode')}</th>
          <th scope="col">{t('stats.dictations')}</th>
          <th scope="col">{t('stats.minutes')}</th>
          <th scope="col">{t('stats.corrected')}</th>
          <th scope="col">{t('stats.cancelled')}</th>
          <th scope="col">{t('stats.tokens')}</th>
        </tr>
      </thead>
      <tbody>
        {modes.map(([mode, c]) => (
          <tr key={mode}>
            <th scope="row">{mode}</th>
            <td>{c.dictations}</td>
            <td>{c.minutesSpoken.toFixed(1)}</td>
            <td>{c.corrected}</td>
            <td>{c.cancelled}</td>
            <td>
              {(c.promptTokens + c.completionTokens).toLocaleString()} <span className="help">({cachedPercent(c)}%)</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
