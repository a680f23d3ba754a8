import { useEffect, useRef, useState } from 'react';
import type { DictationModeWire } from '../../shared/ipc/dictation-types.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Props of the mode buttons. */
export interface ModeBarProps {
  readonly modes: readonly DictationModeWire[];
  readonly current: string;
  readonly cached: readonly string[];
  readonly keyLabel: string;
  readonly disabled: boolean;
  readonly labelOf: (mode: string) => string;
  readonly onPick: (mode: string) => void;
}

/**
 * The mode buttons, by label: the nth re-runs with ⌘/Ctrl+n (its digit shown small, the whole shortcut
 * in the tooltip and aria-keyshortcuts); a mode this session already ran is marked "ready" (picking it
 * again is instant). The buttons wrap onto a second row rather than being cut or hidden, so every mode is
 * on screen at the panel's default size in both languages; past three rows the bar scrolls down, with a
 * fade at the edge that has more (src/renderer/styles/panel.css).
 */
export function ModeBar({ modes, current, cached, keyLabel, disabled, labelOf, onPick }: ModeBarProps) {
  const { t } = useI18n();
  const bar = useRef<HTMLDivElement>(null);
  // Whether the bar scrolls (more than three rows of modes): with its buttons disabled it then takes focus
  // itself, so the modes out of view can be scrolled to from the keyboard (WCAG 2.1.1).
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    bar.current?.querySelector('.is-current')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current, modes]);
  // Which edges have more modes out of view (faded by CSS, so a cut row reads as "scroll for more").
  useEffect(() => {
    const el = bar.current;
    if (el === null) return;
    const update = (): void => {
      const start = el.scrollTop > 1;
      const end = el.scrollTop + el.clientHeight < el.scrollHeight - 1;
      el.dataset.more = start && end ? 'both' : start ? 'start' : end ? 'end' : 'none';
      setScrolls(el.scrollHeight > el.clientHeight + 1);
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      ro.disconnect();
    };
  }, [modes, cached]);
  return (
    <div ref={bar} className="panel-modes" role="group" aria-label={t('panel.modes', { key: keyLabel })} data-testid="panel-modes" tabIndex={disabled && scrolls ? 0 : undefined}>
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
            title={shortcut}
            data-mode={m.id}
            disabled={disabled}
            onClick={() => onPick(m.id)}
          >
            <span>{labelOf(m.id)}</span>
            {i < 9 ? (
              <kbd aria-hidden="true" className="mode-key">
                {i + 1}
              </kbd>
            ) : null}
            {isCached ? <span className="mode-cached">{t('panel.mode.cached')}</span> : null}
          </button>
        );
      })}
    </div>
  );
}
