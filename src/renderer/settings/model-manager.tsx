import type { ModelItem } from '../../shared/ipc/settings-types.ts';
import { ModelCard } from '../components/model-card.tsx';
import type { ModelsState } from '../hooks/use-models.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Which recommendation list to show first: the UI language's, or `multi` (several languages). */
export type RecommendFor = 'zh' | 'en' | 'multi';

/** Props of the model manager. */
export interface ModelManagerProps {
  readonly state: ModelsState;
  /** asr.local.model. */
  readonly selected: string;
  /** Chooses an installed model (saves asr.local.model). */
  readonly onUse?: (name: string) => void;
  /** Only the recommended cards (onboarding): no groups. */
  readonly recommendedOnly?: boolean;
  /** The recommendation list (default: the UI language's). */
  readonly recommendFor?: RecommendFor;
}

/** The groups of the catalog view, in order. */
export const MODEL_GROUPS = ['chinese', 'english', 'multilingual', 'large'] as const;

/** The recommended models for `list`, best first. */
export function recommendedModels(models: readonly ModelItem[], list: RecommendFor): ModelItem[] {
  return models.filter((m) => m.recommended[list] !== undefined).sort((a, b) => (a.recommended[list] ?? 0) - (b.recommended[list] ?? 0));
}

/**
 * The model manager: the recommended cards, plus whatever is selected, installed or downloading (their state
 * matters); the rest of the catalog in closed groups (Chinese, English, multilingual, large), so nobody
 * scrolls a wall of cards to find one.
 */
export function ModelManager({ state: all, selected, onUse, recommendedOnly = false, recommendFor }: ModelManagerProps) {
  const { t, lang } = useI18n();
  // The list holds the built-in LLM engine's GGUF models too (group `llm`): they are not speech models.
  const state: ModelsState = { ...all, models: all.models.filter((m) => m.group !== 'llm') };
  const list = recommendFor ?? lang;
  const recommended = recommendedModels(state.models, list);
  const inView = new Set(recommended.map((m) => m.name));
  const featured = recommendedOnly
    ? recommended
    : [...recommended, ...state.models.filter((m) => !inView.has(m.name) && (m.name === selected || m.installed || m.download !== null))];
  const shown = new Set(featured.map((m) => m.name));
  const card = (m: ModelItem) => (
    <ModelCard
      key={m.name}
      model={m}
      selected={m.name === selected}
      recommended={m.recommended[list] === 0}
      onDownload={() => state.download(m.name)}
      onPause={() => state.pause(m.name)}
      onDelete={() => state.remove(m.name)}
      {...(onUse ? { onUse: () => onUse(m.name) } : {})}
    />
  );
  return (
    <div className="models" data-testid="models">
      {state.error ? <p className="field-error">{state.error}</p> : null}
      {recommendedOnly ? null : <h3 className="model-group-title">{t('speech.models.recommendedFor')}</h3>}
      <div className="model-cards">{featured.map(card)}</div>
      {recommendedOnly
        ? null
        : MODEL_GROUPS.map((g) => {
            const rest = state.models.filter((m) => m.group === g && !shown.has(m.name));
            if (rest.length === 0) return null;
            return (
              <details key={g} className="model-group" data-testid={`model-group-${g}`}>
                <summary>
                  <span className="model-group-name">{t(`speech.models.group.${g}`)}</span> <span className="help">{t('speech.models.count', { count: rest.length })}</span>
                  <span className="help model-group-help">{t(`speech.models.group.${g}.help`)}</span>
                </summary>
                <div className="model-cards">{rest.map(card)}</div>
              </details>
            );
          })}
    </div>
  );
}
