import { useState } from 'react';
import { describedBy, SettingRow } from './setting-row.tsx';

/** Props of an integer setting. `onCommit` resolves true when the value was accepted. */
export interface NumberFieldProps {
  readonly id: string;
  readonly label: string;
  readonly help?: string | undefined;
  /** Error from the last save attempt (shown at the field). */
  readonly error?: string | null | undefined;
  /** Shown when the text is not a whole number at all (nothing is sent then). */
  readonly notANumberMessage: string;
  readonly value: number;
  readonly min?: number;
  readonly max?: number;
  readonly onCommit: (value: number) => Promise<boolean>;
}

/**
 * An integer setting. Typing edits a local draft; the value is sent on Enter or when the field loses
 * focus (not per keystroke, which would save "1" on the way to "15"). A rejected value stays in the
 * field with its error so the user can fix it; Escape goes back to the saved value.
 */
export function NumberField(props: NumberFieldProps) {
  const { id, label, help, error, notANumberMessage, value, min, max, onCommit } = props;
  const [draft, setDraft] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const shownError = localError ?? (draft !== null ? error : null);

  const commit = async (): Promise<void> => {
    if (draft === null) return;
    const text = draft.trim();
    if (!/^-?\d+$/.test(text)) {
      setLocalError(notANumberMessage);
      return;
    }
    setLocalError(null);
    const n = Number(text);
    if (n === value) {
      setDraft(null);
      return;
    }
    // The draft stays until the store accepts it, so a rejected value remains visible with its error.
    if (await onCommit(n)) setDraft(null);
  };

  return (
    <SettingRow id={id} label={label} help={help} error={shownError}>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        step={1}
        min={min}
        max={max}
        value={draft ?? String(value)}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy(id, help, shownError)}
        onChange={(e) => setDraft(e.currentTarget.value)}
        onBlur={() => void commit()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void commit();
          if (e.key === 'Escape') {
            setDraft(null);
            setLocalError(null);
          }
        }}
      />
    </SettingRow>
  );
}
