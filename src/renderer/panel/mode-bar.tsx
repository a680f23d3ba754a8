import type { DictationModeWire } from '../../shared/ipc/dictation-types.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Props of the mode buttons. */
export interface ModeBarProps {
  readonly modes: readonly DictationModeWire[];
  readonly current: string;
  readonly cached: readonly string[];
  readonly keyLabel: string;
  readonly disabled: boolean;
  readonly onPick: (mode: string) => void;
}

/** The mode buttons: the nth re-runs with ⌘/Ctrl+n; a mode this session already ran is marked cached. */
export function ModeBar({ modes, current, cached, keyLabel, disabled, onPick }: ModeBarProps) {
  const { t } = useI18n();
  return (
    <div className="panel-modes" role="group" aria-label={t('panel.modes', { key: keyLabel })} data-testid="panel-modes">
      {modes.map((m, i) => {
        const isCached = cached.includes(m.id);
        const shortcut = i < 9 ? t('panel.mode.shortcut', { key: keyLabel, n: i + 1 }) : '';
        return (
          <button
            key={m.id}
            type="button"
            className={`mode-button${m.id === current ? ' is-current' : ''}`}
            aria-pressed={m.id === current}
            aria-keyshortcuts={i < 9 ? `${keyLabel === '⌘' ? 'Meta' : 'Control'}+${i + 1}` : undefined}
            data-mode={m.id}
            disabled={disabled}
            onClick={() => onPick(m.id)}
          >
            <span>{m.label}</span>
            {shortcut !== '' ? <kbd>{shortcut}</kbd> : null}
            {isCached ? <span className="mode-cached">{t('panel.mode.cached')}</span> : null}
          </button>
        );
      })}
    </div>
  );
}
