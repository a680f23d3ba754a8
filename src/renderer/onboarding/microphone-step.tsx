import { useEffect, useRef, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { MicTestResult } from '../../shared/ipc/onboarding-contract.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { SelectField } from '../components/select-field.tsx';
import type { ConfigSaver } from '../hooks/use-config-saver.ts';
import { useMicrophones } from '../hooks/use-microphones.ts';
import { valueAt } from '../lib/config-view.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';

type Phase = 'idle' | 'recording' | 'playing' | 'done' | 'failed';

/** Decodes the test's base64 little-endian Float32 samples. */
function samplesOf(pcm: string): Float32Array<ArrayBuffer> {
  const bytes = Uint8Array.from(atob(pcm), (c) => c.charCodeAt(0));
  return new Float32Array(bytes.buffer, 0, bytes.byteLength >> 2);
}

/**
 * Plays the test back through Web Audio. The context is created at the click (a user gesture, which
 * Chromium's autoplay policy asks for) and resolves when the clip ends — or after its length, where the
 * machine has no audio output to end it.
 */
function playBack(ctx: AudioContext, r: Extract<MicTestResult, { ok: true }>): Promise<void> {
  const samples = samplesOf(r.pcm);
  const buffer = ctx.createBuffer(1, Math.max(1, samples.length), r.sampleRate);
  buffer.copyToChannel(samples, 0);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  source.connect(ctx.destination);
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, buffer.duration * 1000 + 500);
    source.onended = () => {
      clearTimeout(timer);
      resolve();
    };
    source.start();
  });
}

/** Step: choose the microphone, watch its level while speaking for 2 s, hear the recording played back. */
export function MicrophoneStep({ bridge, config, saver }: { readonly bridge: TingxieBridge; readonly config: ConfigSnapshot; readonly saver: ConfigSaver }) {
  const { t } = useI18n();
  const mics = useMicrophones();
  const [phase, setPhase] = useState<Phase>('idle');
  const [level, setLevel] = useState(0);
  const [failure, setFailure] = useState('');
  const audio = useRef<AudioContext | null>(null);
  useEffect(() => bridge.on.onboardingMicLevel((e) => setLevel(Math.max(0, Math.min(1, e.level)))), [bridge]);
  useEffect(() => () => void audio.current?.close().catch(() => undefined), []);
  const device = valueAt(config, 'audio.device');
  const options = [{ value: '', label: t('audio.device.default') }, ...mics.map((m, i) => ({ value: m.deviceId, label: m.label || t('audio.device.unnamed', { n: i + 1 }) }))];
  const test = async (): Promise<void> => {
    audio.current ??= new AudioContext();
    void audio.current.resume().catch(() => undefined);
    setPhase('recording');
    setFailure('');
    setLevel(0);
    try {
      const r = await bridge.onboarding.micTest();
      if (!r.ok) {
        setFailure(r.code === 'unavailable' ? t('onboarding.mic.fail.unavailable', { message: r.message }) : t(`onboarding.mic.fail.${r.code}`));
        setPhase('failed');
        return;
      }
      setPhase('playing');
      await playBack(audio.current, r);
      setPhase('done');
    } catch (e) {
      setFailure(errorText(e));
      setPhase('failed');
    } finally {
      setLevel(0);
    }
  };
  return (
    <>
      <h2 className="step-heading">{t('onboarding.mic.heading')}</h2>
      <p className="help step-help">{t('onboarding.mic.help')}</p>
      <div className="group step-group">
        <SelectField
          id="onboarding-mic"
          label={t('audio.device')}
          value={typeof device === 'string' ? device : ''}
          options={options}
          error={saver.errors['audio.device']}
          onChange={(v) => saver.save('audio.device', v === '' ? null : v)}
        />
        <div className="row">
          <span className="row-text">
            <span className="row-label" id="mic-level-label">
              {t('onboarding.mic.level')}
            </span>
            <meter className="mic-meter" aria-labelledby="mic-level-label" min={0} max={1} low={0.25} high={0.9} optimum={0.6} value={level} data-testid="mic-level" />
          </span>
          <button type="button" className="primary" disabled={phase === 'recording' || phase === 'playing'} onClick={() => void test()}>
            {t(phase === 'done' || phase === 'failed' ? 'onboarding.mic.again' : 'onboarding.mic.test')}
          </button>
        </div>
      </div>
      <div className="step-status" role="status" aria-live="polite" data-testid="mic-status">
        {phase === 'recording' ? <p className="help">{t('onboarding.mic.recording')}</p> : null}
        {phase === 'playing' ? <p className="help">{t('onboarding.mic.playing')}</p> : null}
        {phase === 'done' ? <p className="status-set">{t('onboarding.mic.done')}</p> : null}
        {phase === 'failed' ? <p className="field-error">{failure}</p> : null}
      </div>
    </>
  );
}
