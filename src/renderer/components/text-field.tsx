import { SettingRow } from './setting-row.tsx';
import { useTextDraft, type TextSettingProps } from './text-draft.ts';

/** Props of a one-line text setting. `onCommit` resolves true when the value was accepted. */
export type TextFieldProps = TextSettingProps;

/** A one-line text setting, saved on Enter or blur; a rejected draft stays with its error; Escape reverts. */
export function TextField(props: TextFieldProps) {
  const { shownError, commit, revert, control } = useTextDraft(props);
  return (
    <SettingRow id={props.id} label={props.label} help={props.help} error={shownError}>
      <input
        {...control}
        type="text"
        className="text"
        spellCheck={false}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') revert();
        }}
      />
    </SettingRow>
  );
}
