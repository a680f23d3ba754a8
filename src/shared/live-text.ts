/**
 * When the recording indicator shows the text decoded so far (`feedback.live_text`). One rule for main
 * (the indicator window's size) and the renderers (the indicator's layout, the Settings switch), so the
 * window never grows for text that cannot come: only a local engine decodes while the key is held.
 */

/** The settings the rule reads. */
export interface LiveTextSettings {
  readonly visual_indicator: boolean;
  readonly live_text: boolean;
  readonly engine: 'local' | 'remote';
  readonly decode_while_speaking: boolean;
}

/** Why live text cannot be shown with these settings, or null when it can be switched on. */
export type LiveTextBlocker = 'indicator-off' | 'remote-engine' | 'decode-off';

/** What stops the live text (whatever `live_text` says), or null. */
export function liveTextBlocker(s: Omit<LiveTextSettings, 'live_text'>): LiveTextBlocker | null {
  if (!s.visual_indicator) return 'indicator-off';
  if (s.engine === 'remote') return 'remote-engine';
  if (!s.decode_while_speaking) return 'decode-off';
  return null;
}

/** Whether the indicator shows the text so far: switched on, and nothing stops it. */
export function liveTextShown(s: LiveTextSettings): boolean {
  return s.live_text && liveTextBlocker(s) === null;
}
