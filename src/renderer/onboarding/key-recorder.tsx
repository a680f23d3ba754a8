import { useRef, useState } from 'react';
import { keyNameOf } from '../../shared/key-names.ts';
import { useI18n } from '../lib/i18n-context.ts';

/**
 * The hold-key recorder: click, then press a key. A modifier alone is recorded at its release (another key
 * meanwhile makes a combo, which the check refuses); Escape is a key like any other here.
 */
export function KeyRecorder({ labelledBy, shown, onRecorded }: { readonly labelledBy: string; readonly shown: string; readonly onRecorded: (name: string) => void }) {
  const { t } = useI18n();
  const [recording, setRecording] = useState(false);
  const lone = useRef<string | null>(null);
  const done = (name: string): void => {
    setRecording(false);
    lone.current = null;
    onRecorded(name);
  };
  return (
    <button
      type="button"
      className={recording ? 'shortcut recording' : 'shortcut'}
      aria-labelledby={`${labelledBy} ${labelledBy}-value`}
      aria-pressed={recording}
      onClick={() => setRecording(true)}
      onBlur={() => setRecording(false)}
      onKeyDown={(e) => {
        if (!recording) return;
        e.preventDefault();
        if (e.repeat) return;
        const k = keyNameOf(e);
        if (k === null) return;
        if (/^(alt|ctrl|shift|cmd)_[lr]$/.test(k)) lone.current = k;
        else done(k);
      }}
      onKeyUp={(e) => {
        if (!recording || lone.current === null) return;
        e.preventDefault();
        if (keyNameOf(e) === lone.current) done(lone.current);
      }}
    >
      <span id={`${labelledBy}-value`}>{recording ? t('rec.recording') : shown}</span>
    </button>
  );
}
