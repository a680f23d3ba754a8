import type { UsageCounters, UsageStats } from '../../shared/history/query.ts';
import { BarChart } from '../components/bar-chart.tsx';
import { useI18n } from '../lib/i18n-context.ts';
import { chartRows } from './stats-figures.ts';

const fmtInt = (n: number) => Math.round(n).toLocaleString();

/** The four charts: dictations, minutes, outcomes, tokens; per day, or per month over long ranges. */
export function StatsCharts({ stats }: { readonly stats: UsageStats }) {
  const { t } = useI18n();
  const { rows, monthly } = chartRows(stats.perDay);
  const categories = rows.map((d) => d.day);
  // A day is shown as MM-DD; a month as YYYY-MM (all time spans years).
  const tick = monthly ? (c: string) => c : (c: string) => c.slice(5);
  const col = (k: keyof UsageCounters) => rows.map((d) => d[k]);
  const chart = (id: string, caption: string, series: Parameters<typeof BarChart>[0]['series'], integer: boolean) => (
    <figure>
      <figcaption>{caption}</figcaption>
      <BarChart testId={id} label={caption} categories={categories} tickLabel={tick} integer={integer} {...(integer ? { format: fmtInt } : {})} series={series} />
    </figure>
  );
  return (
    <div className="charts">
      {chart('chart-dictations', t(monthly ? 'stats.perMonth' : 'stats.perDay'), [{ name: t('stats.dictations'), className: 'c1', values: col('dictations') }], true)}
      {chart('chart-minutes', t(monthly ? 'stats.minutesPerMonth' : 'stats.minutesPerDay'), [{ name: t('stats.minutes'), className: 'c2', values: col('minutesSpoken') }], false)}
      {chart(
        'chart-outcomes',
        t(monthly ? 'stats.outcomesPerMonth' : 'stats.outcomes'),
        [
          // Corrected is a subset of confirmed: stack "confirmed as-is" + "corrected" so the bar is all confirmed.
          { name: t('stats.confirmed'), className: 'c1', values: rows.map((d) => d.confirmed - d.corrected) },
          { name: t('stats.corrected'), className: 'c3', values: col('corrected') },
          { name: t('stats.cancelled'), className: 'c4', values: col('cancelled') },
        ],
        true,
      )}
      {chart(
        'chart-tokens',
        t(monthly ? 'stats.tokensPerMonth' : 'stats.tokensChart'),
        [
          { name: t('stats.cached'), className: 'c5', values: col('cachedTokens') },
          { name: t('stats.prompt'), className: 'c2', values: rows.map((d) => d.promptTokens - d.cachedTokens) },
        ],
        true,
      )}
    </div>
  );
}
