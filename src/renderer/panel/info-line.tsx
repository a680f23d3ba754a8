import type { DictationSnapshot } from '../../shared/ipc/dictation-types.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { secondsText, usageParts } from '../lib/panel-format.ts';

/**
 * Status, model, tokens used (with the share reused from an earlier request when there is one: the
 * provider's prompt cache, cheaper and faster) and timing of the latest result; "edited" once the user
 * typed. The line's tooltip spells the token figures out.
 */
export function InfoLine({ result, edited }: { readonly result: DictationSnapshot | null; readonly edited: boolean; readonly labelOf: (mode: string) => string }) {
  const { t, lang } = useI18n();
  const editedMark = edited ? (
    <span className="panel-edited" data-testid="panel-edited">
      {t('panel.final.editedShort')}
    </span>
  ) : null;
  if (result === null || result.enhanceStatus === null) return <p className="panel-info">{editedMark}</p>;
  const usage = usageParts(result.usage, lang === 'zh' ? 'zh-CN' : 'en');
  const seconds = secondsText(result.elapsedMs);
  const status = result.enhanceStatus;
  const answered = status === 'enhanced' || status === 'guarded';
  const usageText = usage === null ? t('panel.usage.none') : usage.share !== '0' ? t('panel.usage.reused', usage) : t('panel.usage', usage);
  const parts: { readonly key: string; readonly text: string; readonly detail?: string; readonly testId?: string; readonly className?: string }[] = [
    ...(edited ? [{ key: 'edited', text: t('panel.final.editedShort'), testId: 'panel-edited', className: 'panel-edited' }] : []),
    { key: 'status', text: t(`panel.status.${status}`), testId: 'panel-status' },
    ...(result.model !== '' ? [{ key: 'model', text: t('panel.model', { model: result.model }) }] : []),
    // No tokens to speak of when the model never answered (the notice says why).
    ...(answered ? [{ key: 'usage', text: usageText, ...(usage ? { detail: t('panel.usage.detail', usage) } : {}), testId: 'panel-usage' }] : []),
    ...(result.cached
      ? [{ key: 'cached', text: t('panel.cachedResult'), testId: 'panel-cached', className: 'mode-cached' }]
      : seconds !== null && status !== 'off'
        ? [{ key: 'timing', text: t('panel.timing', { seconds }), testId: 'panel-timing' }]
        : []),
  ];
  return (
    // One line; when the panel is narrow it ends in an ellipsis and the whole line is the tooltip.
    <p className={`panel-info${status === 'fallback' || status === 'guarded' ? ' is-warning' : ''}`} data-testid="panel-info" title={parts.map((p) => p.detail ?? p.text).join(' · ')}>
      {parts.map((p) => (
        <span key={p.key} data-testid={p.testId} className={p.className}>
          {p.text}
        </span>
      ))}
    </p>
  );
}
