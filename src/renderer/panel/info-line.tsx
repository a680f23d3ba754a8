import type { DictationSnapshot } from '../../shared/ipc/dictation-types.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { secondsText, usageParts } from '../lib/panel-format.ts';

/** Status, model, token usage (with the cached share) and timing of the latest result. */
export function InfoLine({ result }: { readonly result: DictationSnapshot | null }) {
  const { t, lang } = useI18n();
  if (result === null || result.enhanceStatus === null) return null;
  const usage = usageParts(result.usage, lang === 'zh' ? 'zh-CN' : 'en');
  const seconds = secondsText(result.elapsedMs);
  const status = result.enhanceStatus;
  return (
    <p className={`panel-info${status === 'fallback' || status === 'guarded' ? ' is-warning' : ''}`} data-testid="panel-info">
      <span data-testid="panel-status">{t(`panel.status.${status}`)}</span>
      {result.model !== '' ? <span>{t('panel.model', { model: result.model })}</span> : null}
      {status !== 'off' ? <span data-testid="panel-usage">{usage ? t('panel.usage', usage) : t('panel.usage.none')}</span> : null}
      {result.cached ? (
        <span className="mode-cached" data-testid="panel-cached">
          {t('panel.cachedResult')}
        </span>
      ) : seconds !== null && status !== 'off' ? (
        <span data-testid="panel-timing">{t('panel.timing', { seconds })}</span>
      ) : null}
    </p>
  );
}
