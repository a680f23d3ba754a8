import { useEffect, useState } from 'react';
import { useMicrophones } from '../hooks/use-microphones.ts';
import { NumberField } from '../components/number-field.tsx';
import { SelectField } from '../components/select-field.tsx';
import { SwitchField } from '../components/switch-field.tsx';
import { boolAt, numberAt, valueAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import type { TabProps } from './tab-props.ts';

/** Audio: microphone, a live level meter (fed by the recorder's level events), limits, VAD. */
export function AudioTab({ config, saver, bridge }: TabProps) {
  const { t } = useI18n();
  const mics = useMicrophones();
  const [level, setLevel] = useState(0);
  useEffect(
    () =>
      bridge.on.dictationEvent((e) => {
        if (e.kind === 'level') setLevel(Math.max(0, Math.min(1, e.level)));
        else if (e.kind === 'state' && e.state !== 'recording') setLevel(0);
      }),
    [bridge],
  );
  const device = valueAt(config, 'audio.device');
  const current = typeof device === 'string' ? device : '';
  const options = [{ value: '', label: t('audio.device.default') }, ...mics.map((m, i) => ({ value: m.deviceId, label: m.label || t('audio.device.unnamed', { n: i + 1 }) }))];
  if (current && !options.some((o) => o.value === current)) options.push({ value: current, label: current.slice(0, 24) });
  const num = (key: string, id: string, label: Parameters<typeof t>[0], fallback: number, min: number, max: number, help?: string) => (
    <NumberField
      id={id}
      label={t(label)}
      help={help}
      min={min}
      max={max}
      value={numberAt(config, key, fallback)}
      notANumberMessage={t('error.notANumber')}
      error={saver.errors[key]}
      onCommit={(v) => saver.save(key, v, t(label))}
    />
  );
  return (
    <>
      <h2>{t('settings.tab.audio')}</h2>
      <div className="group">
        <SelectField
          id="audio-device"
          label={t('audio.device')}
          value={current}
          options={options}
          error={saver.errors['audio.device']}
          onChange={(v) => saver.save('audio.device', v === '' ? null : v)}
        />
        <div className="row">
          <span className="row-text">
            <span className="row-label" id="audio-meter-label">
              {t('audio.meter')}
            </span>
            <span className="help">{t('audio.meter.help')}</span>
          </span>
          <meter className="level" aria-labelledby="audio-meter-label" min={0} max={1} low={0.6} high={0.85} optimum={0.3} value={level} />
        </div>
        {num('audio.max_recording_seconds', 'audio-max-seconds', 'audio.maxSeconds', 120, 1, 3600)}
      </div>
      {/* Tuning most people never need, in plain words; the technical unit is in each one-line explanation. */}
      <details className="advanced" data-testid="audio-advanced">
        <summary>{t('settings.advanced')}</summary>
        <div className="group">
          {num('audio.silence_rms', 'audio-silence', 'audio.silence', 20, 0, 32768, t('audio.silence.help'))}
          {num('audio.pre_roll_ms', 'audio-pre-roll', 'audio.preRoll', 300, 0, 2000, t('audio.preRoll.help'))}
          <SwitchField
            id="audio-vad"
            label={t('audio.vad')}
            help={t('audio.vad.help')}
            checked={boolAt(config, 'audio.vad_enabled', false)}
            error={saver.errors['audio.vad_enabled']}
            onChange={(v) => saver.save('audio.vad_enabled', v)}
          />
        </div>
      </details>
    </>
  );
}
