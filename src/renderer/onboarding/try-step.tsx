import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { keyDisplayName } from '../../shared/key-names.ts';
import { noticeText } from '../../shared/notices/notice-text.ts';
import { stringAt, valueAt } from '../lib/config-view.ts';
import type { UiLanguage } from '../lib/i18n.ts';
import { useI18n } from '../lib/i18n-context.ts';

type Phase = 'idle' | 'recording' | 'working' | 'done' | 'failed';

/** The hold-to-talk key (or the toggle shortcut) as the OS names it, in the UI language. */
function keyName(config: ConfigSnapshot, platform: string, lang: UiLanguage): { readonly toggle: boolean; readonly key: string } {
  if (stringAt(config, 'recording.mode', 'hold') === 'toggle') {
    return { toggle: true, key: stringAt(config, 'recording.toggle_shortcut', '').replace('CommandOrControl', platform === 'darwin' ? '⌘' : 'Ctrl') };
  }
  const keys = valueAt(config, 'hotkeys');
  const on = keys !== null && typeof keys === 'object' && !Array.isArray(keys) ? Object.entries(keys).filter(([, v]) => v === true).map(([k]) => k) : [];
  return { toggle: false, key: on.map((k) => keyDisplayName(k, platform, lang)).join(' / ') };
}

/**
 * Step 3: one real dictation. The user clicks into the box (the app dictated into) and speaks; the dictation
 * events say how it goes, and the recognised text shows here even before the paste lands in the box.
 */
export function TryStep({ bridge, config, platform }: { readonly bridge: TingxieBridge; readonly config: ConfigSnapshot; readonly platform: string }) {
  const { t, lang } = useI18n();
  const [phase, setPhase] = useState<Phase>('idle');
  const [heard, setHeard] = useState('');
  const [failure, setFailure] = useState('');
  useEffect(
    () =>
      bridge.on.dictationEvent((e) => {
        if (e.kind === 'state') {
          if (e.state === 'recording') {
            setPhase('recording');
            setHeard('');
            setFailure('');
          } else if (e.state === 'transcribing') setPhase('working');
        } else if (e.kind === 'asr') {
          // Recognised text is the proof the engine works, whether or not the preview panel then waits for a confirm.
          setHeard(e.text);
          if (e.text.trim() !== '') setPhase('done');
        } else if (e.kind === 'result') setHeard(e.snapshot.text);
        else if (e.kind === 'notice' && e.level === 'error') setFailure(noticeText(lang, e.notice));
        else if (e.kind === 'done') setPhase((p) => (e.outcome === 'failed' ? 'failed' : e.outcome === 'cancelled' && p !== 'done' ? 'idle' : 'done'));
      }),
    [bridge, lang],
  );
  const { toggle, key } = keyName(config, platform, lang);
  return (
    <>
      <h2 className="step-heading">{t('onboarding.try.heading')}</h2>
      <p className="step-help">{t(toggle ? 'onboarding.try.toggle' : 'onboarding.try.hold', { key })}</p>
      <label className="try-label" htmlFor="try-box">
        {t('onboarding.try.box')}
      </label>
      <textarea id="try-box" className="try-box" placeholder={t('onboarding.try.placeholder')} />
      <div className="step-status" role="status" aria-live="polite" data-testid="try-status">
        {phase === 'recording' ? <p className="help">{t('onboarding.try.recording')}</p> : null}
        {phase === 'working' ? <p className="help">{t('onboarding.try.working')}</p> : null}
        {phase === 'done' && heard !== '' ? (
          <>
            <p className="status-set">{t('onboarding.try.done')}</p>
            <p className="try-heard">“{heard}”</p>
          </>
        ) : null}
        {phase === 'failed' ? <p className="field-error">{t('onboarding.try.failed', { message: failure })}</p> : null}
      </div>
    </>
  );
}
