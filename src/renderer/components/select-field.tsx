import { useState } from 'react';
import { describedBy, SettingRow } from './setting-row.tsx';

/** One choice of a select field. */
export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

/** Props of a setting chosen from a list. */
export interface SelectFieldProps {
  readonly id: string;
  readonly label: string;
  readonly help?: string | undefined;
  readonly error?: string | null | undefined;
  readonly value: string;
  readonly options: readonly SelectOption[];
  /** Saves the new value; while its promise is pending the select shows the user's choice. */
  readonly onChange: (value: string) => Promise<unknown>;
}

/** A setting chosen from a fixed list (native `<select>`). */
export function SelectField({ id, label, help, error, value, options, onChange }: SelectFieldProps) {
  const [pending, setPending] = useState<string | null>(null);
  return (
    <SettingRow id={id} label={label} help={help} error={error}>
      <select
        id={id}
        value={pending ?? value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, help, error)}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setPending(next);
          void onChange(next).finally(() => setPending(null));
        }}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </SettingRow>
  );
}
