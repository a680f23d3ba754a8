import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type Ref, type RefObject } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import { modeLabeller } from '../lib/human-names.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { clockTime } from '../lib/panel-format.ts';
import { isMacPlatform, panelKeyAction, primaryKeyLabel } from '../lib/panel-keys.ts';
import { usePanelSession } from '../hooks/use-panel-session.ts';
import { AsrRow } from './asr-row.tsx';
import { DiffView } from './diff-view.tsx';
import { InfoLine } from './info-line.tsx';
import { ModeBar } from './mode-bar.tsx';
import { NoticeBar } from './notice-bar.tsx';
import { OnDemandButtons, PromptView, ThinkingView, type OnDemandView } from './on-demand.tsx';
import { PanelFooter } from './panel-footer.tsx';
import { ProposalBar } from './proposal-bar.tsx';
import { usePanelActions, runPanelKey } from './panel-actions.ts';
import { canConfirm, retryKind, type PanelState, type RecentPreview } from './panel-state.ts';
import { RecentList } from './recent-list.tsx';

/**
 * The preview/confirm panel over the live dictation session. Laid out so the final text always keeps
 * its room at the panel's default (520×260) and minimum size: one header row (state + a sideways-
 * wrapping mode bar), notices collapsed to one line, the transcript in two lines (More opens it), the text
 * area taking what is left, one info row, on-demand sections that shrink (and scroll) first, and the
 * actions with their keys. A failed transcription or enhancement shows Retry here.
 */
export function PanelView({ bridge, aiOn = true }: { readonly bridge: TingxieBridge; readonly aiOn?: boolean }) {
  const { t, lang } = useI18n();
  const { state: s, dispatch, modes, platform } = usePanelSession(bridge);
  const [view, setView] = useState<OnDemandView>('none');
  const composing = useRef(false);
  const mac = isMacPlatform(platform);
  const key = primaryKeyLabel(mac);
  const reopened = s.reopened;
  const text = reopened ? reopened.text : s.draft;
  const live = s.sessionId !== null && s.state !== 'idle';
  const labelOf = useMemo(() => modeLabeller(modes, lang), [modes, lang]);
  const retry = reopened ? null : retryKind(s);
  const textarea = useFinalTextFocus(s, text);

  useEffect(() => {
    document.title = t('panel.title');
  }, [t]);

  const actions = usePanelActions({ bridge, s, dispatch, t, text, live, retry });
  const { failure, deliver, cancel, pickMode, runRetry } = actions;
  const onKeyDown = (e: KeyboardEvent<HTMLElement>): void => {
    const action = panelKeyAction({ ...e, isComposing: composing.current || e.nativeEvent.isComposing, keyCode: e.keyCode }, mac);
    if (action === null) return;
    e.preventDefault();
    runPanelKey(action, actions, retry, modes);
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
        <PanelStateLabel s={s} />
        <ModeBar modes={modes} current={aiOn ? s.mode : ''} cached={s.cachedModes} keyLabel={key} labelOf={labelOf} disabled={!live || reopened !== null} onPick={pickMode} />
      </header>
      {s.notices.length > 0 || failure !== null ? (
        <NoticeBar notices={s.notices} failure={failure} labelOf={labelOf} onDismiss={() => (dispatch({ type: 'dismiss-notices' }), actions.clearFailure())} />
      ) : null}
      {aiOn ? null : <AiOffNote />}
      {reopened ? <ReopenedNote at={reopened.at} keyLabel={key} onClose={() => dispatch({ type: 'close-reopened' })} /> : null}
      <AsrRow asrText={asrText} failed={s.failedSession !== null} />
      <FinalText
        ref={textarea}
        text={text}
        keyLabel={key}
        busy={s.state === 'enhancing' && !s.edited && reopened === null}
        onEdit={(value) => dispatch(reopened ? { type: 'edit-reopened', text: value } : { type: 'edit', text: value })}
      />
      {/* An edit of a name or term offers the pair for the vocabulary (learning from edits). */}
      <ProposalBar bridge={bridge} before={s.result?.text ?? s.asrText} after={s.draft} active={s.edited && reopened === null && s.sessionId !== null} />
      <div className="panel-info-row">
        {!reopened ? <InfoLine result={s.result} edited={s.edited} labelOf={labelOf} /> : <span className="panel-info" />}
        <OnDemandButtons open={view} onOpen={setView} hasSession={s.sessionId !== null && reopened === null && s.failedSession === null} />
      </div>
      {view !== 'none' ? <PanelExtra view={view} bridge={bridge} s={s} labelOf={labelOf} onReopen={(id) => (dispatch({ type: 'reopen', sessionId: id }), setView('none'))} /> : null}
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

/** The note over a reopened preview: when it was dictated, and Close. */
/** With AI off: no mode ran on this text, and where AI is turned on. */
function AiOffNote() {
  const { t } = useI18n();
  return (
    <p className="help panel-ai-off" data-testid="panel-ai-off" title={t('panel.aiOff')}>
      {t('panel.aiOff')}
    </p>
  );
}

function ReopenedNote({ at, keyLabel, onClose }: { readonly at: RecentPreview['at']; readonly keyLabel: string; readonly onClose: () => void }) {
  const { t, lang } = useI18n();
  return (
    <p className="panel-reopened" role="status" data-testid="panel-reopened">
      <span className="panel-reopened-text">{t('panel.reopened', { time: clockTime(at, lang), key: keyLabel })}</span>
      <button type="button" className="link-button" onClick={onClose}>
        {t('panel.reopened.close')}
      </button>
    </p>
  );
}

/** The final text's area, with its label and the keys' help for screen readers. */
function FinalText({ ref, ...props }: {
  readonly ref: Ref<HTMLTextAreaElement>;
  readonly text: string;
  readonly keyLabel: string;
  readonly busy: boolean;
  readonly onEdit: (text: string) => void;
}) {
  const { t } = useI18n();
  return (
    <section className="panel-final">
      <label className="sr-only" htmlFor="panel-final">
        {t('panel.final')}
      </label>
      <textarea
        id="panel-final"
        ref={ref}
        data-testid="panel-final"
        value={props.text}
        placeholder={t('panel.final')}
        aria-describedby="panel-keys-help"
        aria-busy={props.busy}
        onChange={(e) => props.onEdit(e.target.value)}
      />
      <span className="sr-only" id="panel-keys-help">
        {t('panel.keys', { key: props.keyLabel })}
      </span>
    </section>
  );
}

/**
 * The final text area's ref: keyboard focus on it with the cursor at the end whenever the shown text is replaced
 * (not typed); a reopened preview is focused once when it opens, then left to the user's editing.
 */
function useFinalTextFocus(s: PanelState, text: string): RefObject<HTMLTextAreaElement | null> {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const reopened = s.reopened;
  const shown = reopened ? `reopened:${reopened.sessionId}` : text;
  useEffect(() => {
    const el = textarea.current;
    if (el === null || s.edited) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [shown, s.edited, s.state, s.sessionId]);
  return textarea;
}

/** The session's state in the header (failed when a failure waits for Retry). */
function PanelStateLabel({ s }: { readonly s: PanelState }) {
  const { t } = useI18n();
  return (
    <span className={`panel-state state-${s.failedSession !== null ? 'failed' : s.state}`} role="status" data-testid="panel-state">
      {s.failedSession !== null ? t('panel.state.failed') : t(`panel.state.${s.state}`)}
    </span>
  );
}

/** The on-demand section that is open: the diff, the prompt, the thinking or the recent previews. */
function PanelExtra({ view, bridge, s, labelOf, onReopen }: {
  readonly view: Exclude<OnDemandView, 'none'>;
  readonly bridge: TingxieBridge;
  readonly s: PanelState;
  readonly labelOf: (mode: string) => string;
  readonly onReopen: (sessionId: string) => void;
}) {
  const reopened = s.reopened;
  return (
    <div className="panel-extra">
      {view === 'diff' && !reopened ? <DiffView bridge={bridge} asrText={s.asrText} finalText={s.draft} textRules={s.result?.textRules ?? null} /> : null}
      {view === 'prompt' && s.sessionId !== null && !reopened ? <PromptView bridge={bridge} sessionId={s.sessionId} mode={s.mode} modeLabel={labelOf(s.mode)} /> : null}
      {view === 'thinking' && !reopened ? <ThinkingView thinking={s.thinking} /> : null}
      {view === 'recent' ? <RecentList recent={s.recent} labelOf={labelOf} onReopen={onReopen} /> : null}
    </div>
  );
}
