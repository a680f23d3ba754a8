import { useState } from 'react';
import { describedBy } from './setting-row.tsx';

/** Props of a text setting (one-line or multi-line). `onCommit` resolves true when the value was accepted. */
export interface TextSettingProps {
  readonly id: string;
  readonly label: string;
  readonly help?: string | undefined;
  readonly error?: string | null | undefined;
  readonly value: string;
  readonly maxLength?: number;
  readonly onCommit: (value: string) => Promise<boolean>;
}

/** What {@link useTextDraft} gives a text setting: the error to show, the draft actions and the control's props. */
export interface TextDraft {
  /** The field error, shown only while a draft differs from the saved value (a rejected draft keeps it). */
  readonly shownError: string | null | undefined;
  /** Saves the draft (nothing to do without one; an unchanged draft is just dropped). */
  readonly commit: () => void;
  /** Drops the draft, back to the saved value. */
  readonly revert: () => void;
  /** The props the `<input>` / `<textarea>` shares: value, length, aria wiring, change tracking. */
  readonly control: {
    readonly id: string;
    readonly value: string;
    readonly maxLength: number | undefined;
    readonly 'aria-invalid': true | undefined;
    readonly 'aria-describedby': string | undefined;
    readonly onChange: (e: { readonly currentTarget: { readonly value: string } }) => void;
  };
}

/** The draft state of a text setting: edits stay local until committed, a rejected draft stays with its error. */
export function useTextDraft({ id, help, error, value, maxLength, onCommit }: TextSettingProps): TextDraft {
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
  return {
    shownError,
    commit,
    revert: () => setDraft(null),
    control: {
      id,
      value: draft ?? value,
      maxLength,
      'aria-invalid': shownError ? true : undefined,
      'aria-describedby': describedBy(id, help, shownError),
      onChange: (e) => setDraft(e.currentTarget.value),
    },
  };
}
