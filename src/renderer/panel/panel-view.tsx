import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import { errorText } from '../lib/errors.ts';
import { modeLabeller } from '../lib/human-names.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { clockTime } from '../lib/panel-format.ts';
import { isMacPlatform, panelKeyAction, primaryKeyLabel } from '../lib/panel-keys.ts';
import { usePanelSession } from '../hooks/use-panel-session.ts';
import { DiffView } from './diff-view.tsx';
import { InfoLine } from './info-line.tsx';
import { ModeBar } from './mode-bar.tsx';
import { NoticeBar } from './notice-bar.tsx';
import { OnDemandButtons, PromptView, ThinkingView, type OnDemandView } from './on-demand.tsx';
import { PanelFooter } from './panel-footer.tsx';
import { canConfirm, retryKind } from './panel-state.ts';
import { RecentList } from './recent-list.tsx';

/**
 * The preview/confirm panel over the live dictation session. Laid out so the final text always keeps
 * its room at the panel's default (520×260) and minimum size: one header row (state + a sideways-
 * scrolling mode row), notices collapsed to one line, the transcript in at most two lines, the text
 * area taking what is left, one info row, on-demand sections that shrink (and scroll) first, and the
 * actions with their keys. A failed transcription or enhancement shows Retry here.
 */
export function PanelView({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t, lang } = useI18n();
  const { state: s, dispatch, modes, platform } = usePanelSession(bridge);
  const [view, setView] = useState<OnDemandView>('none');
  const [failure, setFailure] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const composing = useRef(false);
  const mac = isMacPlatform(platform);
  const key = primaryKeyLabel(mac);
  const reopened = s.reopened;
  const text = reopened ? reopened.text : s.draft;
  const live = s.sessionId !== null && s.state !== 'idle';
  const labelOf = useMemo(() => modeLabeller(modes, lang), [modes, lang]);
  const retry = reopened ? null : retryKind(s);

  useEffect(() => {
    document.title = t('panel.title');
  }, [t]);

  // Keyboard focus on the text with the cursor at the end whenever the shown text is replaced (not typed);
  // a reopened preview is focused once when it opens, then left to the user's editing.
  const shown = reopened ? `reopened:${reopened.sessionId}` : text;
  useEffect(() => {
    const el = textarea.current;
    if (el === null || s.edited) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [shown, s.edited, s.state, s.sessionId]);

  const act = (p: Promise<unknown>): void => {
    setFailure(null);
    p.catch((err: unknown) => setFailure(errorText(err)));
  };
  const deliver = (action: 'paste' | 'copy'): void => {
    // The session id lets main update that dictation's history record when its text was edited here.
    if (reopened) act(bridge.dictation.deliver({ text, action, sessionId: reopened.sessionId }).then(() => dispatch({ type: 'close-reopened' })));
    else if (s.sessionId !== null && canConfirm(s)) act(bridge.dictation.confirm({ sessionId: s.sessionId, text, action }));
  };
  const cancel = (): void => {
    if (reopened) dispatch({ type: 'close-reopened' });
    else if (s.sessionId !== null && live) act(bridge.dictation.cancel({ sessionId: s.sessionId }));
    // Nothing to cancel: Esc (or Close) just puts the idle panel away.
    else {
      dispatch({ type: 'hidden' });
      act(bridge.dictation.hidePanel());
    }
  };
  const pickMode = (mode: string): void => {
    if (s.sessionId === null || !live || reopened || mode === s.mode) return;
    dispatch({ type: 'mode-requested', mode });
    act(bridge.dictation.setMode({ sessionId: s.sessionId, mode }));
  };
  const runRetry = (): void => {
    const id = s.failedSession ?? s.sessionId;
    if (id === null || retry === null) return;
    if (retry === 'llm') dispatch({ type: 'mode-requested', mode: s.mode });
    act(bridge.dictation.retry({ sessionId: id }).then((ok) => {
      if (!ok) throw new Error(t('panel.retry.gone'));
    }));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>): void => {
    const action = panelKeyAction({ ...e, isComposing: composing.current || e.nativeEvent.isComposing, keyCode: e.keyCode }, mac);
    if (action === null) return;
    e.preventDefault();
    switch (action.kind) {
      case 'confirm':
        // With nothing to confirm, Enter retries a failed transcription (the one thing the panel offers).
        if (retry === 'asr') runRetry();
        else deliver('paste');
        return;
      case 'copy':
        deliver('copy');
        return;
      case 'cancel':
        cancel();
        return;
      case 'mode': {
        const m = modes[action.index];
        if (m !== undefined) pickMode(m.id);
        return;
      }
      default: {
        const never: never = action;
        return never;
      }
    }
  };

  const ready = reopened !== null || canConfirm(s);
  const asrText = reopened ? reopened.asrText : s.asrText;
  return (
    <main
      className="panel"
      onKeyDown={onKeyDown}
      onCompositionStart={() => (composing.current = true)}
      onCompositionEnd={() => (composing.current = false)}
      data-testid="panel"
      data-state={s.state}
    >
      <header className="panel-header">
        <span className={`panel-state state-${s.failedSession !== null ? 'failed' : s.state}`} role="status" data-testid="panel-state">
          {s.failedSession !== null ? t('panel.state.failed') : t(`panel.state.${s.state}`)}
        </span>
        <ModeBar modes={modes} current={s.mode} cached={s.cachedModes} keyLabel={key} labelOf={labelOf} disabled={!live || reopened !== null} onPick={pickMode} />
      </header>
      {s.notices.length > 0 || failure !== null ? (
        <NoticeBar notices={s.notices} failure={failure} labelOf={labelOf} onDismiss={() => (dispatch({ type: 'dismiss-notices' }), setFailure(null))} />
      ) : null}
      {reopened ? (
        <p className="panel-reopened" role="status" data-testid="panel-reopened">
          <span className="panel-reopened-text">{t('panel.reopened', { time: clockTime(reopened.at, lang), key })}</span>
          <button type="button" className="link-button" onClick={() => dispatch({ type: 'close-reopened' })}>
            {t('panel.reopened.close')}
          </button>
        </p>
      ) : null}
      <section className="panel-asr-row" aria-labelledby="panel-asr-label">
        <h2 className="panel-label" id="panel-asr-label">
          {t('panel.asr')}
        </h2>
        <p className="panel-asr" data-testid="panel-asr" tabIndex={asrText.length > 120 ? 0 : undefined}>
          {asrText || (s.failedSession !== null ? t('panel.asr.failed') : t('panel.asr.pending'))}
        </p>
      </section>
      <section className="panel-final">
        <label className="sr-only" htmlFor="panel-final">
          {t('panel.final')}
        </label>
        <textarea
          id="panel-final"
          ref={textarea}
          data-testid="panel-final"
          value={text}
          placeholder={t('panel.final')}
          aria-describedby="panel-keys-help"
          aria-busy={s.state === 'enhancing' && !s.edited && reopened === null}
          onChange={(e) => dispatch(reopened ? { type: 'edit-reopened', text: e.target.value } : { type: 'edit', text: e.target.value })}
        />
        <span className="sr-only" id="panel-keys-help">
          {t('panel.keys', { key })}
        </span>
      </section>
      <div className="panel-info-row">
        {!reopened ? <InfoLine result={s.result} edited={s.edited} labelOf={labelOf} /> : <span className="panel-info" />}
        <OnDemandButtons open={view} onOpen={setView} hasSession={s.sessionId !== null && reopened === null && s.failedSession === null} />
      </div>
      {view !== 'none' ? (
        <div className="panel-extra">
          {view === 'diff' && !reopened ? <DiffView bridge={bridge} asrText={s.asrText} finalText={s.draft} /> : null}
          {view === 'prompt' && s.sessionId !== null && !reopened ? <PromptView bridge={bridge} sessionId={s.sessionId} mode={s.mode} modeLabel={labelOf(s.mode)} /> : null}
          {view === 'thinking' && !reopened ? <ThinkingView thinking={s.thinking} /> : null}
          {view === 'recent' ? <RecentList recent={s.recent} labelOf={labelOf} onReopen={(id) => (dispatch({ type: 'reopen', sessionId: id }), setView('none'))} /> : null}
        </div>
      ) : null}
      <PanelFooter
        mac={mac}
        keyLabel={key}
        ready={ready}
        canCancel={live || reopened !== null}
        closeLabel={reopened ? t('panel.reopened.close') : live ? t('panel.cancel') : t('panel.close')}
        retry={retry}
        onRetry={runRetry}
        onCancel={cancel}
        onCopy={() => deliver('copy')}
        onPaste={() => deliver('paste')}
      />
    </main>
  );
}
