import { useState } from 'react';
import { describedBy, SettingRow } from '../components/setting-row.tsx';
import { useI18n } from '../lib/i18n-context.ts';
import { displayShortcut, isConflicting, recordKey } from '../lib/shortcut.ts';

/** Props of a shortcut recorder. */
export interface ShortcutFieldProps {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly platform: string;
  readonly error?: string | null | undefined;
  /** Help text (default: how to record a shortcut). */
  readonly help?: string;
  /** '' is allowed (no shortcut): Delete or Backspace while recording removes it. */
  readonly allowNone?: boolean;
  readonly onCommit: (accelerator: string) => Promise<boolean>;
}

/**
 * A key recorder: click (or Enter/Space) to record, press the combination, Escape cancels. Saves the
 * Electron accelerator; warns at the field when it clashes with a common shortcut.
 */
export function ShortcutField({ id, label, value, platform, error, help, allowNone, onCommit }: ShortcutFieldProps) {
  const { t } = useI18n();
  const [recording, setRecording] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  const conflict = value !== '' && isConflicting(value) ? t('rec.conflict', { shortcut: displayShortcut(value, platform) }) : null;
  const shownError = error ?? hint;
  return (
    <SettingRow id={id} label={label} help={conflict ?? help ?? t('rec.toggleShortcut.help')} error={shownError}>
      <button
        id={id}
        type="button"
        className={recording ? 'shortcut recording' : 'shortcut'}
        aria-pressed={recording}
        aria-describedby={describedBy(id, 'help', shownError)}
        onClick={() => {
          setRecording(true);
          setHint(null);
        }}
        onBlur={() => setRecording(false)}
        onKeyDown={(e) => {
          if (!recording) return;
          e.preventDefault();
          if (e.key === 'Escape') {
            setRecording(false);
            return;
          }
          if (allowNone && (e.key === 'Delete' || e.key === 'Backspace') && !e.ctrlKey && !e.altKey && !e.metaKey && !e.shiftKey) {
            setRecording(false);
            setHint(null);
            void onCommit('');
            return;
          }
          const r = recordKey(e, platform);
          if (r.kind === 'pending') return;
          if (r.kind === 'invalid') {
            setHint(t('rec.needsModifier'));
            return;
          }
          setRecording(false);
          setHint(null);
          void onCommit(r.accelerator);
        }}
      >
        {recording ? t('rec.recording') : value === '' ? t('rec.shortcut.none') : displayShortcut(value, platform)}
      </button>
    </SettingRow>
  );
}
