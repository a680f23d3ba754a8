import type { ModelItem } from '../../shared/ipc/settings-types.ts';
import type { MessageKey, UiLanguage } from '../lib/i18n.ts';
import { languageName, speechModelName } from '../lib/human-names.ts';
import { useI18n, type Translate } from '../lib/i18n-context.ts';

/** `1.2 GB`, `148 MB`. */
export function formatBytes(n: number | null): string {
  if (n === null) return '—';
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${Math.round(n / 1024 ** 2)} MB`;
  return `${Math.max(1, Math.round(n / 1024))} KB`;
}

/** Props of one model card. */
export interface ModelCardProps {
  readonly model: ModelItem;
  /** asr.local.model is this one. */
  readonly selected: boolean;
  readonly recommended: boolean;
  readonly onDownload: () => void;
  readonly onPause: () => void;
  readonly onDelete: () => void;
  /** Chooses this (installed) model; absent where choosing happens elsewhere. */
  readonly onUse?: () => void;
}

/** The languages line of a card: a sherpa-onnx model's own few, else whisper's English-only or ~99. */
function modelLanguages(m: ModelItem, t: Translate, lang: UiLanguage): string {
  if (m.languages !== undefined && m.languages.length > 0) return m.languages.map((code) => languageName(code, lang)).join(lang === 'zh' ? '、' : ', ');
  return t(m.englishOnly ? 'model.lang.en' : 'model.lang.multi');
}

/** Why a download failed, in the UI language (the service's own words follow as details). */
function failureText(t: Translate, code: string | undefined): string {
  const known = ['network', 'http', 'disk-space', 'checksum'];
  return t(`model.failed.${known.includes(code ?? '') ? (code as string) : 'other'}` as MessageKey);
}

/**
 * One speech model as a card: size, speed, languages, installed/selected, and the one action that fits its
 * state — download, pause/resume (the partial file is kept), use, delete. Settings › Speech and onboarding
 * both show these.
 */
export function ModelCard({ model: m, selected, recommended, onDownload, onPause, onDelete, onUse }: ModelCardProps) {
  const { t, lang } = useI18n();
  const name = speechModelName(m.name, lang);
  const d = m.download;
  const total = d !== null && (d.state === 'downloading' || d.state === 'paused') ? (d.total ?? m.bytes) : m.bytes;
  const id = `model-${m.name.replace(/[^a-z0-9]/gi, '-')}`;
  return (
    <article className={`model-card${selected ? ' selected' : ''}`} aria-labelledby={`${id}-name`} data-testid={id}>
      <div className="model-card-head">
        <h3 className="model-name" id={`${id}-name`}>
          {name}
        </h3>
        {recommended ? <span className="badge badge-accent">{t('model.recommended')}</span> : null}
        {selected && m.installed ? <span className="badge badge-ok">{t('model.inUse')}</span> : null}
        {!selected && m.installed ? <span className="badge">{t('model.installed')}</span> : null}
        {selected && !m.installed && (d === null || d.state === 'failed') ? <span className="badge badge-warn">{t('model.selectedMissing')}</span> : null}
      </div>
      <p className="help model-facts">
        {formatBytes(m.bytes)} · {t(`model.speed.${Math.min(5, Math.max(1, m.speed))}` as MessageKey)} · {modelLanguages(m, t, lang)}
      </p>
      {d?.state === 'downloading' ? (
        <div className="model-progress">
          <progress aria-label={t('model.progress', { name })} max={d.total ?? undefined} value={d.total ? d.received : undefined} />
          <span className="help">{t('model.received', { received: formatBytes(d.received), total: formatBytes(total) })}</span>
        </div>
      ) : null}
      {d?.state === 'paused' ? <p className="help">{t('model.paused', { received: formatBytes(d.received), total: formatBytes(total) })}</p> : null}
      {d?.state === 'failed' ? (
        <p className="field-error" role="alert">
          {failureText(t, d.code)} <span className="details">{t('model.failed.details', { message: d.message })}</span>
        </p>
      ) : null}
      <div className="model-card-actions">
        <CardActions m={m} selected={selected} onDownload={onDownload} onPause={onPause} onDelete={onDelete} onUse={onUse} />
      </div>
    </article>
  );
}

function CardActions({ m, selected, onDownload, onPause, onDelete, onUse }: Omit<ModelCardProps, 'model' | 'recommended'> & { readonly m: ModelItem }) {
  const { t, lang } = useI18n();
  const d = m.download;
  const button = (label: MessageKey, onClick: () => void, primary = false) => (
    <button type="button" className={primary ? 'primary' : undefined} aria-label={`${t(label)} ${speechModelName(m.name, lang)}`} onClick={onClick}>
      {t(label)}
    </button>
  );
  if (d?.state === 'downloading') return button('model.pause', onPause);
  if (d?.state === 'paused') {
    return (
      <>
        {button('model.resume', onDownload, true)}
        {button('model.discard', onDelete)}
      </>
    );
  }
  if (!m.installed) return button('model.download', onDownload, true);
  return (
    <>
      {!selected && onUse ? button('model.use', onUse, true) : null}
      {button('model.delete', onDelete)}
    </>
  );
}
