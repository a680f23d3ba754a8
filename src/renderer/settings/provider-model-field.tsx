import { useState } from 'react';
import { SettingRow } from '../components/setting-row.tsx';
import { useTextDraft } from '../components/text-draft.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Props of a provider's model field. */
export interface ModelFieldProps {
  readonly id: string;
  readonly label: string;
  readonly help?: string | undefined;
  readonly error?: string | null | undefined;
  readonly value: string;
  /** Offered in the field's list: the provider's own models first. Any other id may be typed. */
  readonly suggestions: readonly string[];
  /** Saves the (trimmed, non-empty) model id; resolves true when it was accepted. */
  readonly onCommit: (model: string) => Promise<boolean>;
}

/**
 * A model id chosen from the provider's own list (a native `<datalist>`: a combobox with free text), saved on
 * Enter or blur. An id the list does not have is accepted (Ark endpoint ids, fine-tunes): Verify decides.
 */
export function ModelField({ id, label, help, error, value, suggestions, onCommit }: ModelFieldProps) {
  const { t } = useI18n();
  const [empty, setEmpty] = useState(false);
  const { shownError, commit, revert, control } = useTextDraft({
    id,
    label,
    help,
    error: empty ? t('ai.provider.model.required') : error,
    value,
    maxLength: 200,
    onCommit: async (draft) => {
      const model = draft.trim();
      setEmpty(model === '');
      return model === '' ? false : onCommit(model);
    },
  });
  return (
    <SettingRow id={id} label={label} help={help} error={shownError}>
      <input
        {...control}
        type="text"
        className="text"
        list={`${id}-list`}
        spellCheck={false}
        autoComplete="off"
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') {
            setEmpty(false);
            revert();
          }
        }}
      />
      <datalist id={`${id}-list`} data-testid={`${id}-list`}>
        {suggestions.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
    </SettingRow>
  );
}
