import { useState } from 'react';
import { describedBy, SettingRow } from './setting-row.tsx';

/** Props of a boolean setting shown as a switch. */
export interface SwitchFieldProps {
  readonly id: string;
  readonly label: string;
  readonly help?: string | undefined;
  readonly error?: string | null | undefined;
  readonly checked: boolean;
  /** Cannot be changed now (the help says why). */
  readonly disabled?: boolean | undefined;
  /** Saves the new value; while its promise is pending the switch shows the value the user chose. */
  readonly onChange: (checked: boolean) => Promise<unknown>;
}

/** A boolean setting: a real checkbox with role="switch", so keyboard and screen readers work natively. */
export function SwitchField({ id, label, help, error, checked, disabled, onChange }: SwitchFieldProps) {
  // Without this the controlled switch would snap back until main answers, then flip again.
  const [pending, setPending] = useState<boolean | null>(null);
  return (
    <SettingRow id={id} label={label} help={help} error={error}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={pending ?? checked}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, help, error)}
        onChange={(e) => {
          const next = e.currentTarget.checked;
          setPending(next);
          void onChange(next).finally(() => setPending(null));
        }}
      />
    </SettingRow>
  );
}
