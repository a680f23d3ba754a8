import { useState } from 'react';
import type { ModelItem } from '../../shared/ipc/settings-types.ts';
import { ModelCard } from '../components/model-card.tsx';
import type { ModelsState } from '../hooks/use-models.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Props of the model manager. */
export interface ModelManagerProps {
  readonly state: ModelsState;
  /** asr.local.model. */
  readonly selected: string;
  /** Chooses an installed model (saves asr.local.model). */
  readonly onUse?: (name: string) => void;
  /** Only the recommended cards (onboarding): no "more". */
  readonly recommendedOnly?: boolean;
}

/** The recommended models for `lang`, best first. */
export function recommendedModels(models: readonly ModelItem[], lang: 'zh' | 'en'): ModelItem[] {
  return models.filter((m) => m.recommended[lang] !== undefined).sort((a, b) => (a.recommended[lang] ?? 0) - (b.recommended[lang] ?? 0));
}

/**
 * The model manager: a few recommended cards for the UI language, plus whatever is selected, installed or
 * downloading (their state matters); the full catalog behind "All models".
 */
export function ModelManager({ state, selected, onUse, recommendedOnly = false }: ModelManagerProps) {
  const { t, lang } = useI18n();
  const [more, setMore] = useState(false);
  const recommended = recommendedModels(state.models, lang);
  const inView = new Set(recommended.map((m) => m.name));
  const featured = recommendedOnly
    ? recommended
    : [...recommended, ...state.models.filter((m) => !inView.has(m.name) && (m.name === selected || m.installed || m.download !== null))];
  const shown = new Set(featured.map((m) => m.name));
  const rest = state.models.filter((m) => !shown.has(m.name));
  const card = (m: ModelItem) => (
    <ModelCard
      key={m.name}
      model={m}
      selected={m.name === selected}
      recommended={m.recommended[lang] === 0}
      onDownload={() => state.download(m.name)}
      onPause={() => state.pause(m.name)}
      onDelete={() => state.remove(m.name)}
      {...(onUse ? { onUse: () => onUse(m.name) } : {})}
    />
  );
  return (
    <div className="models" data-testid="models">
      {state.error ? <p className="field-error">{state.error}</p> : null}
      <div className="model-cards">{featured.map(card)}</div>
      {!recommendedOnly && rest.length > 0 ? (
        <>
          <button type="button" className="text-button" aria-expanded={more} {...(more ? { 'aria-controls': 'all-models' } : {})} onClick={() => setMore(!more)}>
            {more ? t('speech.models.fewer') : t('speech.models.more', { count: state.models.length })}
          </button>
          {more ? (
            <div className="model-cards" id="all-models">
              {rest.map(card)}
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
