/**
 * Shows and hides the recording indicator: during recording (and while transcribing, or enhancing in
 * direct mode), taller and wider when it shows the text decoded so far (`feedback.live_text`), and for a
 * few seconds after a dictation ends badly, wider, with a short message and the next step (the window's
 * page picks the words, see shared/notices/notice-short.ts). Decisions are pure
 * functions; the Electron calls go through the small window port, so the rules are unit-tested.
 */
import type { DictationState } from '../../shared/ipc/dictation-types.ts';
import type { Notice } from '../../shared/notices/notice.ts';
import { indicatorOffersRetry, shortNoticeText } from '../../shared/notices/notice-short.ts';

/** The indicator's size while recording, and while it shows a message. */
export const INDICATOR_SIZE = { width: 168, height: 40 } as const;
export const INDICATOR_MESSAGE_SIZE = { width: 400, height: 40 } as const;
/**
 * The indicator's size while recording with live text: two lines of 14 px text (about 20 Chinese
 * characters or 7 English words a line), from the first moment of the session so nothing moves when
 * the first words arrive; as wide as a message, so a failure after it does not change the width.
 */
export const INDICATOR_LIVE_SIZE = { width: 400, height: 64 } as const;
/** How long a message stays; one with a Retry button longer, so there is time to reach it. */
export const INDICATOR_MESSAGE_MS = 6000;
export const INDICATOR_RETRY_MS = 12000;
/** How far above the bottom of the work area the indicator sits. */
export const INDICATOR_BOTTOM_GAP = 48;

/**
 * Where a window of `size` goes in a display's work area (DIPs, Electron's screen coordinates): bottom
 * centre, {@link INDICATOR_BOTTOM_GAP} up, in whole DIPs. The bottom edge depends only on the area, so a
 * taller window (live text) grows upwards from where the small pill sits.
 */
export function indicatorPosition(area: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }, size: { readonly width: number; readonly height: number }): { x: number; y: number } {
  return { x: Math.round(area.x + (area.width - size.width) / 2), y: Math.round(area.y + area.height - size.height - INDICATOR_BOTTOM_GAP) };
}

/** The settings the rules read. */
export interface IndicatorSettings {
  readonly visual_indicator: boolean;
  readonly preview: boolean;
  readonly preview_on_failure: boolean;
  /** Whether the indicator shows the text so far (shared/live-text.ts `liveTextShown`, not the raw key). */
  readonly live_text: boolean;
}

/** The indicator's size while it shows a dictation's state. */
export function indicatorSize(s: IndicatorSettings): { readonly width: number; readonly height: number } {
  return s.live_text ? INDICATOR_LIVE_SIZE : INDICATOR_SIZE;
}

/** Whether the indicator shows during `state`. */
export function indicatorVisibleIn(state: DictationState, s: IndicatorSettings): boolean {
  return s.visual_indicator && (state === 'recording' || state === 'transcribing' || (state === 'enhancing' && !s.preview));
}

/** Whether `notice` is said on the indicator (it has a short form there). */
export function indicatorShowsNotice(notice: Notice, s: IndicatorSettings): boolean {
  return s.visual_indicator && shortNoticeText('en', notice, { where: 'indicator', panel: s.preview || s.preview_on_failure }) !== null;
}

/** What the rules need of the window (a BrowserWindow in the app). */
export interface IndicatorWindowPort {
  isVisible(): boolean;
  getSize(): number[];
  setSize(width: number, height: number): void;
  setPosition(x: number, y: number): void;
  showInactive(): void;
  hide(): void;
  /** Click-through (true) except while a message with a Retry button shows (Electron BrowserWindow.setIgnoreMouseEvents). */
  setIgnoreMouseEvents(ignore: boolean): void;
}

/** Timers (injectable for tests). */
export interface IndicatorTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What {@link IndicatorWindow} is given. */
export interface IndicatorWindowDeps {
  readonly window: () => IndicatorWindowPort | undefined;
  readonly settings: () => IndicatorSettings;
  /** Where a window of this size goes: bottom centre of the display the pointer is on. */
  readonly place: (size: { width: number; height: number }) => { x: number; y: number };
  readonly timers?: IndicatorTimers;
}

/** Drives one indicator window. */
export class IndicatorWindow {
  private state: DictationState = 'idle';
  private timer: unknown = null;

  private readonly deps: IndicatorWindowDeps;

  constructor(deps: IndicatorWindowDeps) {
    this.deps = deps;
  }

  private get timers(): IndicatorTimers {
    return this.deps.timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };
  }

  /** The dictation moved to `state`. */
  stateChanged(state: DictationState): void {
    this.state = state;
    const w = this.deps.window();
    if (w === undefined) return;
    if (indicatorVisibleIn(state, this.deps.settings())) {
      this.clearMessage();
      this.show(w, indicatorSize(this.deps.settings()));
    } else if (this.timer === null) {
      // A message still showing outlives the session's end (its timer hides it).
      w.hide();
    }
  }

  /** Something went wrong (or was dropped): say it for a few seconds where the user is looking. */
  notice(notice: Notice): void {
    const w = this.deps.window();
    if (w === undefined || !indicatorShowsNotice(notice, this.deps.settings())) return;
    this.clearMessage();
    const s = this.deps.settings();
    const retry = indicatorOffersRetry(notice, s.preview || s.preview_on_failure);
    this.show(w, INDICATOR_MESSAGE_SIZE);
    // The Retry button must be clickable: the window takes clicks only while it shows.
    if (retry) w.setIgnoreMouseEvents(false);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      const win = this.deps.window();
      if (win === undefined) return;
      win.setIgnoreMouseEvents(true);
      const now = this.deps.settings();
      if (indicatorVisibleIn(this.state, now)) this.show(win, indicatorSize(now));
      else win.hide();
    }, retry ? INDICATOR_RETRY_MS : INDICATOR_MESSAGE_MS);
  }

  private clearMessage(): void {
    if (this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      // Back to click-through: the message (and any Retry button) is gone.
      this.deps.window()?.setIgnoreMouseEvents(true);
    }
    this.timer = null;
  }

  private show(w: IndicatorWindowPort, size: { width: number; height: number }): void {
    const [width, height] = w.getSize();
    if (!w.isVisible() || width !== size.width || height !== size.height) {
      w.setSize(size.width, size.height);
      const at = this.deps.place(size);
      w.setPosition(at.x, at.y);
    }
    if (!w.isVisible()) w.showInactive();
  }
}
