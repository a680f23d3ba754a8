import { useState } from 'react';
import { describedBy, SettingRow } from './setting-row.tsx';

/** Props of a one-line text setting. `onCommit` resolves true when the value was accepted. */
export interface TextFieldProps {
  readonly id: string;
  readonly label: string;
  readonly help?: string | undefined;
  readonly error?: string | null | undefined;
  readonly value: string;
  readonly maxLength?: number;
  readonly onCommit: (value: string) => Promise<boolean>;
}

/** A one-line text setting, saved on Enter or blur; a rejected draft stays with its error; Escape reverts. */
export function TextField({ id, label, help, error, value, maxLength, onCommit }: TextFieldProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const shownError = draft !== null ? error : null;
  const commit = () => {
    if (draft === null) return;
    if (draft === value) {
      setDraft(null);
      return;
    }
    void onCommit(draft).then((ok) => {
      if (ok) setDraft(null);
    });
  };
  return (
    <SettingRow id={id} label={label} help={help} error={shownError}>
      <input
        id={id}
        type="text"
        className="text"
        spellCheck={false}
        value={draft ?? value}
        maxLength={maxLength}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy(id, help, shownError)}
        onChange={(e) => setDraft(e.currentTarget.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setDraft(null);
        }}
      />
    </SettingRow>
  );
}
