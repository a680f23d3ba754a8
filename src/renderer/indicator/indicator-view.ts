/**
 * The recording indicator's DOM: a dot, a label and a level meter of a few bars. Pure DOM over a root
 * element, so the browser test can drive it with events like the app does. When a dictation ends badly
 * it shows a short message with the next step instead (main shows the window wider for it). With live
 * text on (`feedback.live_text`) the label gives way to the text decoded so far once words arrive (main
 * shows the window taller for it, from the start, so nothing moves then); see live-text-view.ts. A failed
 * transcription that the panel does not show gets a Retry button here (main makes the window take
 * clicks while it shows, src/main/app/indicator-window.ts).
 */
import type { DictationEvent, DictationState } from '../../shared/ipc/dictation-types.ts';
import type { Notice, NoticeLevel } from '../../shared/notices/notice.ts';
import { indicatorOffersRetry, shortNoticeText } from '../../shared/notices/notice-short.ts';
import { translate, type MessageKey, type UiLanguage } from '../lib/i18n.ts';
import { createLiveText, type LiveTextView } from './live-text-view.ts';

/** Number of meter bars. */
export const BARS = 9;

/** The states in which the app works on the recording (the bars move on their own; elapsed time shows). */
const WORKING: ReadonlySet<DictationState> = new Set(['transcribing', 'enhancing']);
/** After this long in a working state the elapsed seconds show: a slow local model does not look hung. */
export const ELAPSED_AFTER_MS = 1000;

const LABELS: Readonly<Record<DictationState, MessageKey | null>> = {
  idle: null,
  recording: 'indicator.recording',
  transcribing: 'indicator.transcribing',
  enhancing: 'indicator.enhancing',
  preview: 'indicator.preview',
  output: 'indicator.output',
};

/** The indicator's label for a state in `lang` ('' when idle). */
export function indicatorLabel(state: DictationState, lang: UiLanguage): string {
  const key = LABELS[state];
  return key === null ? '' : translate(lang, key);
}

/** The running indicator: applies dictation events, and switches language when the setting changes. */
export interface IndicatorHandle {
  apply(e: DictationEvent): void;
  setLanguage(lang: UiLanguage): void;
  /** Whether failures open the preview panel (preview on, or direct mode opted in): the next step differs. */
  setPanelShowsFailures(panel: boolean): void;
  /** Whether the text decoded so far is shown (shared/live-text.ts `liveTextShown`); off looks as before. */
  setLiveText(on: boolean): void;
}

/** A new empty span of class `className`. */
function span(className: string): HTMLElement {
  const el = document.createElement('span');
  el.className = className;
  return el;
}

/** The level meter: a few bars, smoothed like a VU meter. */
interface Meter {
  readonly element: HTMLElement;
  /** Shows a level (0..1; clamped). */
  show(level: number): void;
  /** Back to 0 (out of recording). */
  reset(): void;
  setLanguage(lang: UiLanguage): void;
}

/** Builds the level meter, named in `lang`. */
function createMeter(lang: UiLanguage): Meter {
  const meter = document.createElement('span');
  meter.className = 'meter';
  meter.setAttribute('role', 'meter');
  meter.setAttribute('aria-valuemin', '0');
  meter.setAttribute('aria-valuemax', '1');
  // A meter needs a value and a name (WCAG 4.1.2); it reads 0 until the first level event.
  meter.setAttribute('aria-valuenow', '0.00');
  meter.setAttribute('aria-label', translate(lang, 'audio.meter'));
  const bars: HTMLElement[] = [];
  for (let i = 0; i < BARS; i++) {
    const b = document.createElement('span');
    b.className = 'bar';
    // The working state's wave runs across the bars (indicator.css).
    b.style.setProperty('--i', String(i));
    meter.append(b);
    bars.push(b);
  }
  let smooth = 0;
  return {
    element: meter,
    show(raw) {
      // Fast attack, slower release, like a VU meter: speech reads as movement, not flicker.
      const level = Math.max(0, Math.min(1, raw));
      smooth = level > smooth ? level : smooth * 0.7 + level * 0.3;
      meter.setAttribute('aria-valuenow', smooth.toFixed(2));
      bars.forEach((b, i) => {
        // Middle bars are tallest; each bar lights up once the level passes its share.
        const shape = 1 - Math.abs(i - (BARS - 1) / 2) / BARS;
        const h = Math.max(0.12, Math.min(1, smooth * 1.6 * shape));
        b.style.setProperty('--h', h.toFixed(3));
      });
    },
    reset() {
      smooth = 0;
      meter.setAttribute('aria-valuenow', '0.00');
    },
    setLanguage(next) {
      meter.setAttribute('aria-label', translate(next, 'audio.meter'));
    },
  };
}

/** Live text in view: the label steps aside (kept for screen readers), the text takes its place. */
function layoutLiveText(root: HTMLElement, label: HTMLElement, live: LiveTextView, liveOn: boolean): void {
  const text = liveOn && live.text !== '' && root.dataset.state !== 'notice' && root.dataset.state !== 'idle';
  const appears = text && root.dataset.text === undefined;
  if (text) root.dataset.text = '';
  else delete root.dataset.text;
  label.classList.toggle('sr-only', text);
  // The box was not laid out until now: fit the text into it (words that came meanwhile fade in).
  if (appears) live.refit();
}

/**
 * The elapsed seconds of a working state: `data-elapsed` on the root once ELAPSED_AFTER_MS have passed (the
 * meter steps aside for the count), updated a few times a second; any other state stops the clock.
 */
function workingClock(root: HTMLElement, lang: () => UiLanguage): { readonly element: HTMLElement; follow(state: DictationState): void; tick(): void } {
  const out = span('elapsed');
  // The label already says what happens; the count would only chatter in a screen reader.
  out.setAttribute('aria-hidden', 'true');
  let since: number | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  const tick = (): void => {
    const ms = since === null ? 0 : Date.now() - since;
    if (since === null || ms < ELAPSED_AFTER_MS) {
      delete root.dataset.elapsed;
      out.textContent = '';
      return;
    }
    root.dataset.elapsed = '';
    out.textContent = translate(lang(), 'indicator.elapsed', { seconds: Math.floor(ms / 1000) });
  };
  return {
    element: out,
    follow(state) {
      if (timer !== null) clearInterval(timer);
      timer = null;
      since = WORKING.has(state) ? Date.now() : null;
      if (since !== null) timer = setInterval(tick, 250);
      tick();
    },
    tick,
  };
}

/** The indicator's parts, in `root`: dot, label, live text, meter, elapsed count. */
function buildParts(root: HTMLElement, lang: UiLanguage, language: () => UiLanguage) {
  root.className = 'indicator';
  root.dataset.state = 'idle';
  const parts = { label: span('label'), meter: createMeter(lang), live: createLiveText(), clock: workingClock(root, language) };
  root.replaceChildren(span('dot'), parts.label, parts.live.element, parts.meter.element, parts.clock.element);
  return parts;
}

/** The Retry button of a failed transcription: runs `onRetry` once, then hides until the next failure. */
function retryButton(root: HTMLElement, onRetry: () => void): { show(on: boolean, lang: UiLanguage): void } {
  const button = document.createElement('button');
  root.append(button);
  button.type = 'button';
  button.className = 'retry';
  button.hidden = true;
  button.addEventListener('click', () => {
    button.hidden = true;
    onRetry();
  });
  return {
    show(on, lang) {
      button.hidden = !on;
      button.textContent = translate(lang, 'indicator.retry');
      button.title = translate(lang, 'indicator.retry.label');
    },
  };
}

/**
 * Builds the indicator inside `root` (labels in `lang`) and returns its handle; `onRetry` is the Retry
 * button's action (the app's `dictation:retry-last`), without it no Retry is offered.
 */
export function mountIndicator(root: HTMLElement, lang: UiLanguage = 'en', onRetry?: () => void): IndicatorHandle {
  let language = lang;
  const { label, meter, live, clock } = buildParts(root, lang, () => language);
  const retry = retryButton(root, () => onRetry?.());
  let state: DictationState = 'idle';
  let panel = true;
  let shown: { readonly level: NoticeLevel; readonly notice: Notice } | null = null;
  let liveOn = false;
  /** The dictation the indicator follows: partial text of any other is ignored. */
  let session: string | null = null;
  const layout = (): void => layoutLiveText(root, label, live, liveOn);
  const showNotice = (): void => {
    const text = shown === null ? null : shortNoticeText(language, shown.notice, { where: 'indicator', panel });
    retry.show(shown !== null && text !== null && onRetry !== undefined && indicatorOffersRetry(shown.notice, panel), language);
    if (shown === null || text === null) return;
    root.dataset.state = 'notice';
    root.dataset.level = shown.level;
    label.textContent = text;
    label.setAttribute('role', shown.level === 'error' ? 'alert' : 'status');
    layout();
  };
  const apply = (e: DictationEvent): void => {
    if (e.kind === 'state') {
      // A new dictation replaces a message; going idle keeps it (main hides the window after a while).
      if (e.state === 'idle' && shown !== null) return;
      // A new dictation (or a restarted take) starts with an empty text.
      if (e.sessionId !== session) {
        session = e.sessionId;
        live.clear();
      }
      shown = null;
      retry.show(false, language);
      delete root.dataset.level;
      label.removeAttribute('role');
      root.dataset.state = e.state;
      state = e.state;
      label.textContent = indicatorLabel(e.state, language);
      if (e.state !== 'recording') meter.reset();
      clock.follow(e.state);
      layout();
      return;
    }
    if (e.kind === 'partial') {
      if (e.sessionId === session && (state === 'recording' || state === 'transcribing')) {
        live.set(e.text);
        layout();
      }
      return;
    }
    if (e.kind === 'notice') {
      if (shortNoticeText(language, e.notice, { where: 'indicator', panel }) !== null) {
        shown = { level: e.level, notice: e.notice };
        clock.follow('idle');
        showNotice();
      }
      return;
    }
    if (e.kind === 'level') meter.show(e.level);
  };
  return {
    apply,
    setLanguage(next) {
      language = next;
      document.documentElement.lang = next === 'zh' ? 'zh-CN' : 'en';
      meter.setLanguage(next);
      label.textContent = indicatorLabel(state, language);
      clock.tick();
      showNotice();
    },
    setPanelShowsFailures(next) {
      panel = next;
      showNotice();
    },
    setLiveText(on) {
      liveOn = on;
      root.toggleAttribute('data-live', on);
      layout();
    },
  };
}
