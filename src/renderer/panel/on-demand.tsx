import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { DictationPromptWire } from '../../shared/ipc/dictation-types.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Which extra section is open under the final text. */
export type OnDemandView = 'none' | 'diff' | 'prompt' | 'thinking' | 'recent';

/** The toggle buttons for the extra sections (diff, system prompt, thinking, recent previews). */
export function OnDemandButtons({ open, onOpen, hasSession }: { readonly open: OnDemandView; readonly onOpen: (v: OnDemandView) => void; readonly hasSession: boolean }) {
  const { t } = useI18n();
  const views: readonly { readonly view: OnDemandView; readonly label: string; readonly needsSession: boolean }[] = [
    { view: 'diff', label: t('panel.diff.show'), needsSession: true },
    { view: 'prompt', label: t('panel.prompt.show'), needsSession: true },
    { view: 'thinking', label: t('panel.thinking.show'), needsSession: true },
    { view: 'recent', label: t('panel.recent'), needsSession: false },
  ];
  return (
    <div className="panel-toggles">
      {views.map((v) => (
        <button
          key={v.view}
          type="button"
          className="link-button"
          aria-expanded={open === v.view}
          data-testid={`panel-show-${v.view}`}
          disabled={v.needsSession && !hasSession}
          onClick={() => onOpen(open === v.view ? 'none' : v.view)}
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}

/** The system prompt of the session's transcript in a mode, fetched when shown. */
export function PromptView({ bridge, sessionId, mode, modeLabel }: { readonly bridge: TingxieBridge; readonly sessionId: string; readonly mode: string; readonly modeLabel: string }) {
  const { t } = useI18n();
  // Answers are kept with the session/mode they belong to, so a stale one is never shown.
  const key = `${sessionId}/${mode}`;
  const [answer, setAnswer] = useState<{ readonly key: string; readonly prompt: DictationPromptWire | null; readonly error: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    bridge.dictation.prompt({ sessionId, mode }).then(
      (p) => live && setAnswer({ key: `${sessionId}/${mode}`, prompt: p, error: null }),
      (err: unknown) => live && setAnswer({ key: `${sessionId}/${mode}`, prompt: null, error: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [bridge, sessionId, mode]);
  const prompt = answer?.key === key ? answer.prompt : null;
  const error = answer?.key === key ? answer.error : null;
  return (
    <section className="panel-section" aria-label={t('panel.prompt.title', { mode: modeLabel })} data-testid="panel-prompt">
      <h2 className="panel-label">{t('panel.prompt.title', { mode: modeLabel })}</h2>
      {error !== null ? <p className="field-error">{t('panel.prompt.failed', { message: error })}</p> : null}
      {prompt === null ? null : prompt.system === null ? <p className="help">{t('panel.prompt.none')}</p> : <pre className="panel-pre" tabIndex={0}>{prompt.system}</pre>}
    </section>
  );
}

/** The model's thinking text, as streamed (or from the cached result). */
export function ThinkingView({ thinking }: { readonly thinking: string }) {
  const { t } = useI18n();
  return (
    <section className="panel-section" aria-label={t('panel.thinking.title')} data-testid="panel-thinking">
      <h2 className="panel-label">{t('panel.thinking.title')}</h2>
      {thinking.trim() === '' ? <p className="help">{t('panel.thinking.none')}</p> : <pre className="panel-pre" tabIndex={0}>{thinking}</pre>}
    </section>
  );
}
