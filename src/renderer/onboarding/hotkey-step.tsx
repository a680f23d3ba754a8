import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { OnboardingKeyEvent } from '../../shared/ipc/onboarding-contract.ts';
import type { HotkeyStatusWire } from '../../shared/ipc/dictation-types.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { checkHoldKey, type HoldKeyVerdict } from '../../shared/hold-key-check.ts';
import { keyDisplayName } from '../../shared/key-names.ts';
import type { ConfigSaver } from '../hooks/use-config-saver.ts';
import { stringAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { holdKeyOf } from './hold-key.ts';
import { KeyRecorder } from './key-recorder.tsx';

/** Props of the hotkey step. */
export interface HotkeyStepProps {
  readonly bridge: TingxieBridge;
  readonly config: ConfigSnapshot;
  readonly saver: ConfigSaver;
  readonly platform: string;
  readonly onReady: (ready: boolean) => void;
}

/** The other keys Tingxie listens for, by role, to check a new key against. */
function roleKeys(config: ConfigSnapshot) {
  return {
    cancel: stringAt(config, 'feedback.cancel_key', 'space'),
    restart: stringAt(config, 'feedback.restart_key', ''),
    prevMode: stringAt(config, 'recording.prev_mode_key', 'left'),
    nextMode: stringAt(config, 'recording.next_mode_key', 'right'),
  };
}

/**
 * Step: the hold-to-talk key. Record one by pressing it (checked against keys that type, the OS's own keys
 * and Tingxie's other keys), then test it: while this step shows, main reports the key as the global key
 * hook sees it ("down" / "up") instead of starting a dictation, so the test proves other apps' keys reach
 * Tingxie.
 */
export function HotkeyStep({ bridge, config, saver, platform, onReady }: HotkeyStepProps) {
  const { t, lang } = useI18n();
  const key = holdKeyOf(config);
  const [candidate, setCandidate] = useState<{ readonly name: string; readonly verdict: HoldKeyVerdict } | null>(null);
  const [seen, setSeen] = useState<OnboardingKeyEvent | null>(null);
  const [status, setStatus] = useState<HotkeyStatusWire | null>(null);
  useEffect(() => {
    void bridge.onboarding.watchKeys({ on: true }).catch(() => undefined);
    const off = bridge.on.onboardingKey(setSeen);
    return () => {
      off();
      void bridge.onboarding.watchKeys({ on: false }).catch(() => undefined);
    };
  }, [bridge]);
  useEffect(() => {
    bridge.dictation.hotkeys().then(setStatus, () => undefined);
  }, [bridge, key]);
  useEffect(() => onReady(key !== '' && checkHoldKey(key, platform, roleKeys(config)).level !== 'error'), [key, platform, config, onReady]);
  const name = (k: string): string => keyDisplayName(k, platform, lang);
  const choose = async (k: string): Promise<void> => {
    setCandidate(null);
    setSeen(null);
    if (await saver.save('hotkeys', { [k]: true })) await saver.save('recording.mode', 'hold');
  };
  const recorded = (k: string): void => {
    const verdict = checkHoldKey(k, platform, roleKeys(config));
    if (verdict.level === 'ok') void choose(k);
    else setCandidate({ name: k, verdict });
  };
  const verdictText = (c: { name: string; verdict: HoldKeyVerdict }): string =>
    c.verdict.level === 'ok' ? '' : t(`onboarding.key.${c.verdict.reason}`, { key: name(c.name), role: c.verdict.role ? t(`onboarding.key.role.${c.verdict.role}`) : '' });
  const hookDown = status !== null && status.hook !== 'running';
  return (
    <>
      <h2 className="step-heading">{t('onboarding.key.heading')}</h2>
      <p className="help step-help">{t('onboarding.key.help')}</p>
      <div className="group step-group">
        <div className="row">
          <span className="row-text">
            <span className="row-label" id="hold-key-label">
              {t('onboarding.key.current')}
            </span>
            <span className="help">{t('onboarding.key.recordHelp')}</span>
          </span>
          <KeyRecorder labelledBy="hold-key-label" shown={name(key)} onRecorded={recorded} />
        </div>
      </div>
      {candidate ? (
        <div className={candidate.verdict.level === 'error' ? 'step-status field-error' : 'step-status'} role="alert" data-testid="key-verdict">
          <p>{verdictText(candidate)}</p>
          {candidate.verdict.level === 'warning' ? (
            <button type="button" onClick={() => void choose(candidate.name)}>
              {t('onboarding.key.useAnyway', { key: name(candidate.name) })}
            </button>
          ) : null}
        </div>
      ) : null}
      <div className="key-test" role="status" aria-live="polite" data-testid="key-test">
        <p className="row-label">{t('onboarding.key.test', { key: name(key) })}</p>
        <p className={seen?.kind === 'down' ? 'key-readout key-down' : 'key-readout'}>
          {seen === null ? t('onboarding.key.waiting') : t(seen.kind === 'down' ? 'onboarding.key.down' : 'onboarding.key.up', { key: name(seen.key) })}
        </p>
      </div>
      {hookDown ? <p className="field-error">{t('onboarding.key.hookDown')}</p> : null}
    </>
  );
}
