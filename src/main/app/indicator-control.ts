/**
 * The recording indicator wired to its window, the feedback settings and the pointer's display
 * (the decisions are in indicator-window.ts; this only feeds it from Electron and the config).
 */
import { screen } from 'electron';
import type { BrowserWindow } from 'electron';
import type { Config } from '../../shared/config/config-schema.ts';
import { liveTextShown } from '../../shared/live-text.ts';
import { IndicatorWindow, indicatorPosition, type IndicatorSettings } from './indicator-window.ts';

/** What {@link createIndicatorControl} reads. */
export interface IndicatorControlDeps {
  /** The indicator window, if open. */
  readonly window: () => BrowserWindow | undefined;
  readonly config: () => Config;
}

/** The indicator's settings from the config: what it shows, and whether the live text is on for this engine. */
export function indicatorSettingsOf(cfg: Config): IndicatorSettings {
  const { visual_indicator, live_text } = cfg.feedback;
  const live = liveTextShown({ visual_indicator, live_text, engine: cfg.asr.engine, decode_while_speaking: cfg.asr.local.decode_while_speaking });
  return { visual_indicator, preview: cfg.output.preview, preview_on_failure: cfg.output.preview_on_failure, live_text: live };
}

/** The recording indicator: recording/processing, and a short message with the next step after a failure. */
export function createIndicatorControl(deps: IndicatorControlDeps): IndicatorWindow {
  return new IndicatorWindow({
    window: () => {
      const w = deps.window();
      return w === undefined || w.isDestroyed() ? undefined : w;
    },
    settings: () => indicatorSettingsOf(deps.config()),
    // Bottom centre of the display the pointer is on: where the user is looking.
    place: (size) => indicatorPosition(screen.getDisplayNearestPoint(screen.getCursorScreenPoint()).workArea, size),
  });
}
