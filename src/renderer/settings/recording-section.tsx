import { SelectField } from '../components/select-field.tsx';
import { SwitchField } from '../components/switch-field.tsx';
import { boolAt, choiceAt, stringAt, valueAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { keyDisplayName } from '../../shared/key-names.ts';
import { liveTextBlocker } from '../../shared/live-text.ts';
import { HotkeyStatus } from './hotkey-status.tsx';
import { KeyNameField } from './key-name-field.tsx';
import { ShortcutField } from './shortcut-field.tsx';
import type { TabProps } from './tab-props.ts';

/** Hold keys offered per platform: fn/Globe only where it can be watched (macOS). */
function holdKeys(platform: string): readonly string[] {
  return platform === 'darwin' ? ['fn', 'alt_r', 'alt_l', 'ctrl_r', 'cmd_r', 'shift_r', 'f13', 'f14', 'f15'] : ['alt_r', 'alt_l', 'ctrl_r', 'cmd_r', 'shift_r', 'f13', 'f14', 'f15'];
}
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

/**
 * General → Recording: hold/toggle, the hold key, the toggle shortcut (key recorder), the keys that act
 * while recording (cancel, restart, mode), sounds, indicator. Keys are shown by their OS names.
 */
export function RecordingSection({ config, saver, bridge, platform }: TabProps & { readonly platform: string }) {
  const { t } = useI18n();
  const holdKey = holdKeyOf(config);
  const keyOptions: { value: string; label: string }[] = holdKeys(platform).map((k) => ({ value: k, label: keyDisplayName(k, platform) }));
  if (!keyOptions.some((o) => o.value === holdKey)) keyOptions.push({ value: holdKey, label: keyDisplayName(holdKey, platform) });
  const indicatorOn = boolAt(config, 'feedback.visual_indicator', true);
  // The text so far needs the indicator and a local engine that decodes while the key is held.
  const liveBlocker = liveTextBlocker({
    visual_indicator: indicatorOn,
    engine: choiceAt(config, 'asr.engine', ['local', 'remote'] as const, 'local'),
    decode_while_speaking: boolAt(config, 'asr.local.decode_while_speaking', true),
  });
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
        <ShortcutField
          id="rec-enhance-selection-shortcut"
          label={t('rec.enhanceSelectionShortcut')}
          help={t('rec.enhanceSelectionShortcut.help')}
          platform={platform}
          allowNone
          value={stringAt(config, 'recording.enhance_selection_shortcut', '')}
          error={saver.errors['recording.enhance_selection_shortcut']}
          onCommit={(a) => saver.save('recording.enhance_selection_shortcut', a)}
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
          checked={indicatorOn}
          error={saver.errors['feedback.visual_indicator']}
          onChange={(v) => saver.save('feedback.visual_indicator', v)}
        />
        <SwitchField
          id="rec-live-text"
          label={t('rec.liveText')}
          help={t(liveBlocker === null ? 'rec.liveText.help' : `rec.liveText.${liveBlocker}`)}
          disabled={liveBlocker !== null}
          checked={boolAt(config, 'feedback.live_text', false)}
          error={saver.errors['feedback.live_text']}
          onChange={(v) => saver.save('feedback.live_text', v)}
        />
      </div>
      <RecordingKeys config={config} saver={saver} platform={platform} />
    </>
  );
}

/** The keys that act while recording: cancel, restart, previous and next mode. */
function RecordingKeys({ config, saver, platform }: Pick<TabProps, 'config' | 'saver'> & { readonly platform: string }) {
  const { t } = useI18n();
  const recordingKey = (id: string, path: string, label: string, fallback: string, opts: { help?: string } = {}) => (
    <KeyNameField
      id={id}
      label={label}
      help={opts.help}
      platform={platform}
      allowNone
      value={stringAt(config, path, fallback)}
      error={saver.errors[path]}
      onCommit={(name) => saver.save(path, name)}
    />
  );
  return (
    <div className="group" role="group" aria-labelledby="rec-keys-title" aria-describedby="rec-keys-help">
      <div className="row-block">
        <span className="row-text">
          <span className="row-label" id="rec-keys-title">
            {t('rec.keys.title')}
          </span>
          <span className="help" id="rec-keys-help">
            {t('rec.keys.help')}
          </span>
        </span>
      </div>
      {recordingKey('rec-cancel-key', 'feedback.cancel_key', t('rec.cancelKey'), 'space', { help: t('rec.cancelKey.help') })}
      {recordingKey('rec-restart-key', 'feedback.restart_key', t('rec.restartKey'), platform === 'darwin' ? 'cmd' : '', { help: t('rec.restartKey.help') })}
      {recordingKey('rec-prev-mode-key', 'recording.prev_mode_key', t('rec.prevModeKey'), 'left')}
      {recordingKey('rec-next-mode-key', 'recording.next_mode_key', t('rec.nextModeKey'), 'right')}
    </div>
  );
}
