import { useEffect, useState } from 'react';
import type { ModelItem } from '../../shared/ipc/settings-types.ts';
import { formatBytes } from '../components/model-card.tsx';
import { useModels } from '../hooks/use-models.ts';
import { boolAt, stringAt, valueAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { ProviderSection } from '../settings/provider-section.tsx';
import type { SetupStepProps } from './local-step.tsx';

/** Where the AI runs: the built-in engine, a provider the user has, or nowhere yet. */
export type AiPath = 'local' | 'service' | 'off';

/** The provider id the built-in engine is saved under (src/main/app/llm-models.ts LOCAL_PROVIDER_ID). */
const LOCAL_ID = 'local';

/** `Qwen2.5 1.5B`, `Qwen3 0.6B`. */
export function llmModelName(m: ModelItem): string {
  return m.llm ? `${m.llm.family === 'qwen3' ? 'Qwen3' : 'Qwen2.5'} ${m.llm.params}B` : m.name;
}

/** The LLM models this machine is recommended, best first, for the UI language. */
function recommendedLlms(models: readonly ModelItem[], lang: 'zh' | 'en'): ModelItem[] {
  return models.filter((m) => m.llm?.rank[lang] !== undefined).sort((a, b) => (a.llm?.rank[lang] ?? 0) - (b.llm?.rank[lang] ?? 0));
}

function initialPath(config: SetupStepProps['config']): AiPath {
  if (!boolAt(config, 'ai_enhance.enabled', false)) return 'local';
  const def = stringAt(config, 'ai_enhance.default_provider', '');
  return stringAt(config, `ai_enhance.providers.${def}.kind`, '') === 'local' ? 'local' : 'service';
}

/**
 * The AI step (after speech): on this computer (the recommended GGUF model, its size, Download; choosing it
 * makes `local` the default provider and turns enhancement on once the file is installed), a service the user
 * already has (Settings › AI's provider list, with its real Verify), or not now; with "Learn from what I
 * confirm" (history injection, `conversation_history.enabled`) checked.
 */
export function AiStep({ bridge, config, saver }: Omit<SetupStepProps, 'onReady'>) {
  const { t, lang } = useI18n();
  const models = useModels(bridge);
  const [path, setPath] = useState<AiPath>(() => initialPath(config));
  const [learn, setLearn] = useState(true);
  const llms = recommendedLlms(models.models, lang);
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = llms.find((m) => m.name === picked) ?? llms[0];
  const defaultModel = stringAt(config, 'ai_enhance.default_model', '');
  const usesLocal = stringAt(config, 'ai_enhance.default_provider', '') === LOCAL_ID;
  const active = llms.find((m) => usesLocal && m.llm?.file === defaultModel);
  const enabled = boolAt(config, 'ai_enhance.enabled', false);
  // The built-in engine turns on only once its model is on disk: before that a dictation would only fail.
  useEffect(() => {
    if (path === 'local' && active?.installed === true && !enabled) void saver.save('ai_enhance.enabled', true);
  }, [path, active?.installed, enabled, saver]);
  const saveLearn = (on: boolean): Promise<boolean> => saver.save('ai_enhance.conversation_history.enabled', on);
  const download = async (m: ModelItem): Promise<void> => {
    if (m.llm === undefined) return;
    await saveLearn(learn);
    const existing = valueAt(config, `ai_enhance.providers.${LOCAL_ID}`);
    if (existing === undefined) await saver.save(`ai_enhance.providers.${LOCAL_ID}`, { kind: 'local', base_url: 'http://localhost/', models: [m.llm.file] });
    await saver.save('ai_enhance.default_provider', LOCAL_ID);
    await saver.save('ai_enhance.default_model', m.llm.file);
    if (m.installed) await saver.save('ai_enhance.enabled', true);
    else models.download(m.name);
  };
  const choose = (p: AiPath): void => {
    setPath(p);
    if (p === 'off') void saver.save('ai_enhance.enabled', false);
    if (p === 'service') {
      void saveLearn(learn).then(() => saver.save('ai_enhance.enabled', true));
    }
  };
  return (
    <div className="ai-step">
      <h2 className="step-heading">{t('onboarding.ai.heading')}</h2>
      <p className="help step-help">{t('onboarding.ai.intro')}</p>
      <AiChoices path={path} onChoose={choose} />
      {path === 'local' && chosen !== undefined ? (
        <LocalModel llms={llms} chosen={chosen} active={active} onPick={setPicked} onDownload={(m) => void download(m)} onPause={models.pause} />
      ) : null}
      {models.error ? <p className="field-error">{models.error}</p> : null}
      {path !== 'off' ? (
        <label className="row ai-learn">
          <input
            type="checkbox"
            checked={learn}
            onChange={(e) => {
              setLearn(e.target.checked);
              if (enabled) void saveLearn(e.target.checked);
            }}
          />
          <span className="row-text">
            <span className="row-label">{t('onboarding.ai.learn')}</span>
            <span className="help">{t('onboarding.ai.learn.help')}</span>
          </span>
        </label>
      ) : null}
      {path === 'service' ? (
        <>
          <p className="help step-status">{t('onboarding.ai.service.on')}</p>
          <ProviderSection config={config} saver={saver} bridge={bridge} />
        </>
      ) : null}
      {path === 'off' ? <p className="help step-status">{t('onboarding.ai.off.on')}</p> : null}
    </div>
  );
}

/** The three choices: on this computer, a service the user has, not now. */
function AiChoices({ path, onChoose }: { readonly path: AiPath; readonly onChoose: (p: AiPath) => void }) {
  const { t } = useI18n();
  return (
    <fieldset className="choices" role="radiogroup">
      <legend>{t('onboarding.ai.choice')}</legend>
      {(['local', 'service', 'off'] as const).map((value) => (
        <label key={value} className={`choice${path === value ? ' chosen' : ''}`}>
          <input type="radio" name="ai-path" value={value} checked={path === value} onChange={() => onChoose(value)} />
          <span className="choice-text">
            <span className="row-label">{t(`onboarding.ai.${value}.title`)}</span>
            <span className="help">{t(`onboarding.ai.${value}.help`)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

interface LocalModelProps {
  readonly llms: readonly ModelItem[];
  readonly chosen: ModelItem;
  readonly active: ModelItem | undefined;
  readonly onPick: (name: string) => void;
  readonly onDownload: (m: ModelItem) => void;
  readonly onPause: (name: string) => void;
}

/** The recommended models (the first marked), the chosen one's size and Download / progress / Pause. */
function LocalModel({ llms, chosen, active, onPick, onDownload, onPause }: LocalModelProps) {
  const { t } = useI18n();
  const d = chosen.download;
  return (
    <div className="ai-local" data-testid="ai-local">
      <div className="ai-local-row">
        <select value={chosen.name} onChange={(e) => onPick(e.target.value)} aria-label={t('onboarding.ai.model')}>
          {llms.map((m, i) => (
            <option key={m.name} value={m.name}>
              {llmModelName(m)} · {formatBytes(m.bytes)}
              {i === 0 ? ` · ${t('onboarding.ai.recommended')}` : ''}
            </option>
          ))}
        </select>
        {active?.installed === true || d?.state === 'downloading' ? null : (
          <button type="button" className="primary" onClick={() => onDownload(chosen)}>
            {chosen.installed ? t('model.use') : d?.state === 'paused' ? t('model.resume') : t('model.download')}
          </button>
        )}
      </div>
      <p className="help">
        {t('onboarding.ai.params', { params: chosen.llm?.params ?? '' })} · {chosen.llm?.file}
      </p>
      {d?.state === 'downloading' ? (
        <div className="model-progress">
          <progress aria-label={t('model.progress', { name: llmModelName(chosen) })} max={d.total ?? undefined} value={d.total ? d.received : undefined} />
          <span className="help">{t('model.received', { received: formatBytes(d.received), total: formatBytes(d.total ?? chosen.bytes) })}</span>
          <button type="button" onClick={() => onPause(chosen.name)}>
            {t('model.pause')}
          </button>
        </div>
      ) : null}
      {d?.state === 'failed' ? (
        <p className="field-error" role="alert">
          {d.message}
        </p>
      ) : null}
      {active?.installed === true ? (
        <p className="status status-set" role="status">
          {t('onboarding.ai.ready', { model: llmModelName(active) })}
        </p>
      ) : d?.state === 'downloading' ? (
        <p className="help">{t('onboarding.ai.waiting')}</p>
      ) : null}
    </div>
  );
}
