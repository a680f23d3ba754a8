import { useI18n } from '../lib/i18n-context.ts';

/** Props of the panel's action row. */
export interface PanelFooterProps {
  readonly mac: boolean;
  readonly keyLabel: string;
  /** Paste and Copy are possible. */
  readonly ready: boolean;
  /** Something is under way (or reopened) that Esc/Cancel ends; otherwise the button closes the panel. */
  readonly canCancel: boolean;
  readonly closeLabel: string;
  /** What Retry would run again, or null when there is nothing to retry. */
  readonly retry: 'asr' | 'llm' | null;
  readonly onRetry: () => void;
  readonly onCancel: () => void;
  readonly onCopy: () => void;
  readonly onPaste: () => void;
}

/**
 * Retry (after a failure), Cancel/Close, Copy and Paste, each with its key shown inside the button, so
 * no separate line of key hints is needed. Labels never wrap: the row keeps its one line at 420 px.
 */
export function PanelFooter({ mac, keyLabel, ready, canCancel, closeLabel, retry, onRetry, onCancel, onCopy, onPaste }: PanelFooterProps) {
  const { t } = useI18n();
  return (
    <footer className="panel-actions">
      {retry !== null ? (
        <button
          type="button"
          className={retry === 'asr' ? 'primary' : undefined}
          onClick={onRetry}
          data-testid="panel-retry"
          title={t(retry === 'asr' ? 'panel.retry.asr' : 'panel.retry.llm')}
          aria-keyshortcuts={retry === 'asr' ? 'Enter' : undefined}
        >
          {t('panel.retry')}
          {retry === 'asr' ? <kbd aria-hidden="true">↵</kbd> : null}
        </button>
      ) : null}
      <span className="panel-actions-gap" />
      <button type="button" onClick={onCancel} data-testid="panel-cancel" aria-keyshortcuts="Escape">
        {canCancel ? closeLabel : t('panel.close')}
        <kbd aria-hidden="true">Esc</kbd>
      </button>
      <button type="button" onClick={onCopy} disabled={!ready} data-testid="panel-copy" aria-keyshortcuts={mac ? 'Meta+Enter' : 'Control+Enter'}>
        {t('panel.copy')}
        <kbd aria-hidden="true">{t('panel.key.copy', { key: keyLabel })}</kbd>
      </button>
      <button type="button" className="primary" onClick={onPaste} disabled={!ready} data-testid="panel-confirm" aria-keyshortcuts="Enter">
        {t('panel.confirm')}
        <kbd aria-hidden="true">↵</kbd>
      </button>
    </footer>
  );
}
