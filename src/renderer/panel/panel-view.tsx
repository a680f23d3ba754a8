import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import { noticeText } from '../../shared/notices/notice-text.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { clockTime } from '../lib/panel-format.ts';
import { isMacPlatform, panelKeyAction, primaryKeyLabel } from '../lib/panel-keys.ts';
import { usePanelSession } from '../hooks/use-panel-session.ts';
import { DiffView } from './diff-view.tsx';
import { InfoLine } from './info-line.tsx';
import { ModeBar } from './mode-bar.tsx';
import { OnDemandButtons, PromptView, ThinkingView, type OnDemandView } from './on-demand.tsx';
import { canConfirm } from './panel-state.ts';
import { RecentList } from './recent-list.tsx';

/** The preview/confirm panel over the live dictation session. */
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
    p.catch((err: unknown) => setFailure(err instanceof Error ? err.message : String(err)));
  };
  const deliver = (action: 'paste' | 'copy'): void => {
    // The session id lets main update that dictation's history record when its text was edited here.
    if (reopened) act(bridge.dictation.deliver({ text, action, sessionId: reopened.sessionId }).then(() => dispatch({ type: 'close-reopened' })));
    else if (s.sessionId !== null && canConfirm(s)) act(bridge.dictation.confirm({ sessionId: s.sessionId, text, action }));
  };
  const cancel = (): void => {
    if (reopened) dispatch({ type: 'close-reopened' });
    else if (s.sessionId !== null && live) act(bridge.dictation.cancel({ sessionId: s.sessionId }));
    // Nothing to cancel: Esc (or Cancel) just puts the idle panel away.
    else act(bridge.dictation.hidePanel());
  };
  const pickMode = (mode: string): void => {
    if (s.sessionId === null || !live || reopened || mode === s.mode) return;
    dispatch({ type: 'mode-requested', mode });
    act(bridge.dictation.setMode({ sessionId: s.sessionId, mode }));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>): void => {
    const action = panelKeyAction({ ...e, isComposing: composing.current || e.nativeEvent.isComposing, keyCode: e.keyCode }, mac);
    if (action === null) return;
    e.preventDefault();
    switch (action.kind) {
      case 'confirm':
        deliver('paste');
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
        <span className={`panel-state state-${s.state}`} role="status" data-testid="panel-state">
          {t(`panel.state.${s.state}`)}
        </span>
        <ModeBar modes={modes} current={s.mode} cached={s.cachedModes} keyLabel={key} disabled={!live || reopened !== null} onPick={pickMode} />
      </header>
      {s.notices.length > 0 || failure !== null ? (
        <div className="panel-notices" role="alert" aria-label={t('panel.notices')} data-testid="panel-notices">
          {s.notices.map((n, i) => (
            <p key={i} className={`notice notice-${n.level}`}>
              {noticeText(lang, n.notice)}
            </p>
          ))}
          {failure !== null ? <p className="notice notice-error">{t('panel.actionFailed', { message: failure })}</p> : null}
          <button type="button" className="link-button" onClick={() => (dispatch({ type: 'dismiss-notices' }), setFailure(null))}>
            {t('panel.dismiss')}
          </button>
        </div>
      ) : null}
      {reopened ? (
        <p className="panel-reopened" role="status" data-testid="panel-reopened">
          {t('panel.reopened', { time: clockTime(reopened.at, lang), key })}{' '}
          <button type="button" className="link-button" onClick={() => dispatch({ type: 'close-reopened' })}>
            {t('panel.reopened.close')}
          </button>
        </p>
      ) : null}
      <section className="panel-section" aria-labelledby="panel-asr-label">
        <h2 className="panel-label" id="panel-asr-label">
          {t('panel.asr')}
        </h2>
        <p className="panel-asr" data-testid="panel-asr">
          {(reopened ? reopened.asrText : s.asrText) || t('panel.asr.pending')}
        </p>
      </section>
      <section className="panel-section panel-final">
        <label className="panel-label" htmlFor="panel-final">
          {t('panel.final')}
          {s.edited && !reopened ? <span className="panel-edited"> · {t('panel.final.edited')}</span> : null}
        </label>
        <textarea
          id="panel-final"
          ref={textarea}
          data-testid="panel-final"
          value={text}
          aria-busy={s.state === 'enhancing' && !s.edited && reopened === null}
          onChange={(e) => dispatch(reopened ? { type: 'edit-reopened', text: e.target.value } : { type: 'edit', text: e.target.value })}
          rows={4}
        />
      </section>
      {!reopened ? <InfoLine result={s.result} /> : null}
      <OnDemandButtons open={view} onOpen={setView} hasSession={s.sessionId !== null && reopened === null} />
      {view === 'diff' && !reopened ? <DiffView bridge={bridge} asrText={s.asrText} finalText={s.draft} /> : null}
      {view === 'prompt' && s.sessionId !== null && !reopened ? <PromptView bridge={bridge} sessionId={s.sessionId} mode={s.mode} /> : null}
      {view === 'thinking' && !reopened ? <ThinkingView thinking={s.thinking} /> : null}
      {view === 'recent' ? <RecentList recent={s.recent} onReopen={(id) => (dispatch({ type: 'reopen', sessionId: id }), setView('none'))} /> : null}
      <footer className="panel-actions">
        <span className="help panel-keys">{t('panel.keys', { key })}</span>
        <button type="button" onClick={cancel} disabled={!live && !reopened} data-testid="panel-cancel">
          {reopened ? t('panel.reopened.close') : t('panel.cancel')}
        </button>
        <button type="button" onClick={() => deliver('copy')} disabled={!ready} data-testid="panel-copy" aria-keyshortcuts={mac ? 'Meta+Enter' : 'Control+Enter'}>
          {t('panel.copy')}
        </button>
        <button type="button" className="primary" onClick={() => deliver('paste')} disabled={!ready} data-testid="panel-confirm" aria-keyshortcuts="Enter">
          {t('panel.confirm')}
        </button>
      </footer>
    </main>
  );
}
