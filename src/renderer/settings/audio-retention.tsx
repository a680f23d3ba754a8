import { useEffect, useState } from 'react';
import type { RecordingsUsageInfo } from '../../shared/ipc/recordings-contract.ts';
import { formatBytes } from '../components/model-card.tsx';
import { NumberField } from '../components/number-field.tsx';
import { numberAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import type { TabProps } from './tab-props.ts';

/**
 * How long each dictation's audio is kept (audio.retention_days; 0 keeps none), with the space the kept
 * recordings take and what the last retention sweep removed. Changing the days sweeps at once (main).
 */
export function AudioRetention({ config, saver, bridge }: TabProps) {
  const { t } = useI18n();
  const days = numberAt(config, 'audio.retention_days', 7);
  const [usage, setUsage] = useState<RecordingsUsageInfo | null>(null);
  useEffect(() => {
    let live = true;
    bridge.recordings.usage().then(
      (u) => live && setUsage(u),
      () => live && setUsage(null),
    );
    return () => {
      live = false;
    };
  }, [bridge, days]);
  // What is kept now joins the field's help, inside its row.
  const kept = usage === null ? '' : ` ${t('privacy.audio.usage', { count: usage.count, size: formatBytes(usage.bytes) })}`;
  const swept = usage?.lastSweep ? ` ${t('privacy.audio.swept', { count: usage.lastSweep.removed })}` : '';
  return (
    <NumberField
      id="audio-retention-days"
      label={t('privacy.audio')}
      help={`${t('privacy.audio.help')}${kept}${swept}`}
      min={0}
      max={3650}
      value={days}
      notANumberMessage={t('error.notANumber')}
      error={saver.errors['audio.retention_days']}
      onCommit={(v) => saver.save('audio.retention_days', v, t('privacy.audio'))}
    />
  );
}
