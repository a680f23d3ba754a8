import { SettingRow } from './setting-row.tsx';
import { useTextDraft, type TextSettingProps } from './text-draft.ts';

/** Props of a multi-line text setting. `onCommit` resolves true when the value was accepted. */
export type TextAreaFieldProps = TextSettingProps;

/** A multi-line text setting, saved when the field loses focus (a rejected draft stays visible). */
export function TextAreaField(props: TextAreaFieldProps) {
  const { shownError, commit, control } = useTextDraft(props);
  return (
    <SettingRow id={props.id} label={props.label} help={props.help} error={shownError} layout="block">
      <textarea {...control} onBlur={commit} />
    </SettingRow>
  );
}
