import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { PromptCacheReport } from '../../shared/ipc/provider-types.ts';
import { promptBudgetRows, promptCacheText } from '../../shared/notices/provider-check-text.ts';
import { useI18n } from '../lib/i18n-context.ts';

/**
 * The prompt-cache report near history injection: how long the default provider's prompt is now and what its
 * cache rule makes of it — below the provider's minimum it says so and what to raise, instead of promising
 * savings. Measured again by main whenever a setting it depends on changes (`deps`).
 */
export function CacheReport({ bridge, deps }: { readonly bridge: TingxieBridge; readonly deps: string }) {
  const { t, lang } = useI18n();
  const [report, setReport] = useState<PromptCacheReport | null>(null);
  useEffect(() => {
    let live = true;
    bridge.providers.promptReport().then(
      (r) => live && setReport(r),
      () => live && setReport(null),
    );
    return () => {
      live = false;
    };
  }, [bridge, deps]);
  const budget = report?.budget ?? null;
  return (
    <>
      <p className="help cache-report" data-testid="cache-report" data-verdict={report?.verdict ?? 'loading'} aria-live="polite">
        {report ? promptCacheText(lang, report) : t('ai.cache.loading')}
      </p>
      {budget ? (
        <table className="help budget-report" data-testid="budget-report" data-method={budget.method}>
          <caption>{lang === 'en' ? `Token budget of a dictation (${report?.model ?? ''})` : `一次听写的 token 预算（${report?.model ?? ''}）`}</caption>
          <tbody>
            {promptBudgetRows(lang, budget).map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
