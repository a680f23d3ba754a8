import { useRef, useState } from 'react';
import { keyDisplayName, keyNameOf } from '../../shared/key-names.ts';
import { describedBy, SettingRow } from '../components/setting-row.tsx';
import { useI18n } from '../lib/i18n-context.ts';

/** Props of a key recorder for a config key name (cancel, restart, mode keys). */
export interface KeyNameFieldProps {
  readonly id: string;
  readonly label: string;
  readonly help?: string | undefined;
  /** The config key name (`space`, `alt_r`, `ctrl+r`), '' for none. */
  readonly value: string;
  readonly platform: string;
  /** Offers a Clear button that saves '' (no key). */
  readonly allowNone?: boolean;
  readonly error?: string | null | undefined;
  readonly onCommit: (name: string) => Promise<boolean>;
}

/**
 * Records one key by pressing it, shown by its OS name ("Right Alt", "Right ⌥ Option"). A modifier is
 * saved alone when it is released without another key, else as a combo with the key pressed. Escape
 * is a key like any other here (it may be the cancel key): clicking elsewhere stops recording.
 */
export function KeyNameField({ id, label, help, value, platform, allowNone = false, error, onCommit }: KeyNameFieldProps) {
  const { t } = useI18n();
  const [recording, setRecording] = useState(false);
  const lone = useRef<string | null>(null);
  const commit = (name: string): void => {
    setRecording(false);
    lone.current = null;
    void onCommit(name);
  };
  return (
    <SettingRow id={id} label={label} help={recording ? t('rec.key.record') : help} error={error}>
      <span className="key-field">
        <button
          id={id}
          type="button"
          className={recording ? 'shortcut recording' : 'shortcut'}
          aria-pressed={recording}
          aria-describedby={describedBy(id, recording ? t('rec.key.record') : help, error)}
          onClick={() => setRecording(true)}
          onBlur={() => {
            setRecording(false);
            lone.current = null;
          }}
          onKeyDown={(e) => {
            if (!recording) return;
            e.preventDefault();
            if (e.repeat) return;
            const name = keyNameOf(e);
            if (name === null) return;
            // A modifier alone: wait for its release (another key meanwhile makes a combo).
            if (/^(alt|ctrl|shift|cmd)_[lr]$/.test(name)) lone.current = name;
            else commit(name);
          }}
          onKeyUp={(e) => {
            if (!recording || lone.current === null) return;
            e.preventDefault();
            if (keyNameOf(e) === lone.current) commit(lone.current);
          }}
        >
          {recording ? t('rec.recording') : value.trim() === '' ? t('rec.key.none') : keyDisplayName(value, platform)}
        </button>
        {allowNone && value.trim() !== '' && !recording ? (
          <button type="button" aria-label={`${t('rec.key.clear')}: ${label}`} onClick={() => void onCommit('')}>
            {t('rec.key.clear')}
          </button>
        ) : null}
      </span>
    </SettingRow>
  );
}
