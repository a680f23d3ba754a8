import { SelectField } from '../components/select-field.tsx';
import { SwitchField } from '../components/switch-field.tsx';
import { boolAt, choiceAt, stringAt, valueAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { HotkeyStatus } from './hotkey-status.tsx';
import { ShortcutField } from './shortcut-field.tsx';
import type { TabProps } from './tab-props.ts';

const HOLD_KEYS = ['alt_r', 'alt_l', 'ctrl_r', 'cmd_r', 'shift_r', 'fn', 'f13', 'f14', 'f15'] as const;
const modes = ['hold', 'toggle'] as const;

/** The enabled hold-to-talk key (the first one set to true in `hotkeys`). */
function holdKeyOf(config: TabProps['config']): string {
  const hk = valueAt(config, 'hotkeys');
  if (hk && typeof hk === 'object' && !Array.isArray(hk)) {
    const on = Object.entries(hk).find(([, v]) => v === true);
    if (on) return on[0];
  }
  return 'alt_r';
}

/** General → Recording: hold/toggle, the hold key, the toggle shortcut (key recorder), sounds, indicator. */
export function RecordingSection({ config, saver, bridge, platform }: TabProps & { readonly platform: string }) {
  const { t } = useI18n();
  const holdKey = holdKeyOf(config);
  const keyOptions: { value: string; label: string }[] = HOLD_KEYS.map((k) => ({ value: k, label: k }));
  if (!keyOptions.some((o) => o.value === holdKey)) keyOptions.push({ value: holdKey, label: holdKey });
  return (
    <>
      <h2>{t('rec.section')}</h2>
      <HotkeyStatus bridge={bridge} config={config} />
      <div className="group">
        <SelectField
          id="rec-mode"
          label={t('rec.mode')}
          value={choiceAt(config, 'recording.mode', modes, 'hold')}
          options={modes.map((m) => ({ value: m, label: t(`rec.mode.${m}`) }))}
          error={saver.errors['recording.mode']}
          onChange={(v) => saver.save('recording.mode', v)}
        />
        <SelectField
          id="rec-hold-key"
          label={t('rec.holdKey')}
          value={holdKey}
          options={keyOptions}
          error={saver.errors['hotkeys']}
          onChange={(v) => saver.save('hotkeys', { [v]: true })}
        />
        <ShortcutField
          id="rec-toggle-shortcut"
          label={t('rec.toggleShortcut')}
          platform={platform}
          value={stringAt(config, 'recording.toggle_shortcut', 'CommandOrControl+Shift+Space')}
          error={saver.errors['recording.toggle_shortcut']}
          onCommit={(a) => saver.save('recording.toggle_shortcut', a)}
        />
        <SwitchField
          id="rec-sounds"
          label={t('rec.sounds')}
          checked={boolAt(config, 'feedback.sound_enabled', true)}
          error={saver.errors['feedback.sound_enabled']}
          onChange={(v) => saver.save('feedback.sound_enabled', v)}
        />
        <SwitchField
          id="rec-indicator"
          label={t('rec.indicator')}
          checked={boolAt(config, 'feedback.visual_indicator', true)}
          error={saver.errors['feedback.visual_indicator']}
          onChange={(v) => saver.save('feedback.visual_indicator', v)}
        />
      </div>
    </>
  );
}
