import { useState } from 'react';
import { describedBy, SettingRow } from './setting-row.tsx';

/** Props of a multi-line text setting. `onCommit` resolves true when the value was accepted. */
export interface TextAreaFieldProps {
  readonly id: string;
  readonly label: string;
  readonly help?: string | undefined;
  readonly error?: string | null | undefined;
  readonly value: string;
  readonly maxLength?: number;
  readonly onCommit: (value: string) => Promise<boolean>;
}

/** A multi-line text setting, saved when the field loses focus (a rejected draft stays visible). */
export function TextAreaField({ id, label, help, error, value, maxLength, onCommit }: TextAreaFieldProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const shownError = draft !== null ? error : null;
  return (
    <SettingRow id={id} label={label} help={help} error={shownError} layout="block">
      <textarea
        id={id}
        value={draft ?? value}
        maxLength={maxLength}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy(id, help, shownError)}
        onChange={(e) => setDraft(e.currentTarget.value)}
        onBlur={() => {
          if (draft === null) return;
          if (draft === value) {
            setDraft(null);
            return;
          }
          void onCommit(draft).then((ok) => {
            if (ok) setDraft(null);
          });
        }}
      />
    </SettingRow>
  );
}
