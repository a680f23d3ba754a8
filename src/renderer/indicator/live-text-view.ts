/**
 * The indicator's live text (`feedback.live_text`): the tail of what was said so far, fitted into a box
 * of two lines. Older words leave at the top-left behind an ellipsis, the latest stay in view, and the
 * words a partial added fade in (not under reduced motion, see indicator.css). The text is cut at word
 * boundaries (Intl.Segmenter: a Latin word is never split, Chinese breaks between words) and measured in
 * the real layout, so nothing ever overflows or is clipped, whatever the mix of scripts and the font.
 */

/** What the indicator does with its live text box. */
export interface LiveTextView {
  /** The box, placed in the indicator by the caller. */
  readonly element: HTMLElement;
  /** The whole text decoded so far (not a delta). */
  set(text: string): void;
  /** Empties the box (a new session). */
  clear(): void;
  /** Fits the text again (the box changed size or became visible). */
  refit(): void;
  /** The whole text decoded so far. */
  readonly text: string;
}

const ELLIPSIS = '…';
/** A word longer than this (in UTF-16 units) may be cut inside when it cannot be shown whole. */
const LONG_WORD = 24;

const words = new Intl.Segmenter('zh', { granularity: 'word' });

/** Where a shown tail may start: each word (Latin, Chinese, a number), in order; never a space or a comma. */
function wordStarts(text: string): number[] {
  const starts: number[] = [];
  for (const s of words.segment(text)) if (s.index > 0 && s.isWordLike === true) starts.push(s.index);
  return starts;
}

/** The start of the word `at` falls in (a revision inside a word lights up the whole word). */
function wordStartAt(text: string, at: number): number {
  return at >= text.length ? at : (words.segment(text).containing(at)?.index ?? at);
}

/** Where a tail may start inside a single word too long for the box (a URL): each character. */
function graphemeStarts(text: string, from: number): number[] {
  const starts: number[] = [];
  const seg = new Intl.Segmenter('zh', { granularity: 'grapheme' });
  for (const s of seg.segment(text)) if (s.index > from) starts.push(s.index);
  return starts;
}

/** Length of the common prefix of `a` and `b`. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Shows `full` in `line` from `start` (an ellipsis before it when cut), the words from `freshFrom` apart; `animate` restarts their fade-in. */
function renderTail(line: HTMLElement, full: string, freshFrom: number, start: number, animate: boolean): void {
  const cut = start > 0 ? ELLIPSIS : '';
  const oldEnd = Math.max(start, freshFrom);
  const fresh = document.createElement('span');
  fresh.className = animate ? 'live-new live-fade' : 'live-new';
  fresh.textContent = full.slice(oldEnd);
  const lead = document.createElement('span');
  lead.className = 'live-cut';
  lead.textContent = cut;
  line.replaceChildren(lead, full.slice(start, oldEnd), fresh);
}

/** The smallest index below `n` for which `holds` is true, by binary search (it holds from some index on), or -1. */
function firstTrue(n: number, holds: (i: number) => boolean): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (holds(mid)) {
      found = mid;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  return found;
}

/** Builds an empty live text box. */
export function createLiveText(): LiveTextView {
  const box = document.createElement('span');
  box.className = 'live';
  const line = document.createElement('span');
  line.className = 'live-text';
  box.append(line);
  let full = '';
  /** Where the words added by the latest partial start (they fade in and stay brighter). */
  let freshFrom = 0;
  /** Words arrived while the box was not laid out: they fade in once it is. */
  let fadePending = false;
  /** The box size the text was last fitted to ('' = not laid out). */
  let fittedTo = '';

  /** Shows `full` from `start` (an ellipsis before it when cut); `animate` restarts the fade-in. */
  const render = (start: number, animate: boolean): void => renderTail(line, full, freshFrom, start, animate);
  const fits = (): boolean => line.getBoundingClientRect().height <= box.clientHeight + 0.5;
  /** Index of the smallest start in `starts` whose tail fits (tails only get shorter along the list), or -1. */
  const firstFitting = (starts: readonly number[]): number =>
    firstTrue(starts.length, (i) => {
      render(starts[i]!, false);
      return fits();
    });
  const fit = (fade: boolean): void => {
    box.lang = /\p{Script=Han}/u.test(full) ? 'zh-CN' : '';
    render(0, false);
    fittedTo = box.clientHeight === 0 ? '' : `${box.clientWidth}×${box.clientHeight}`;
    // Not laid out (hidden, or the window not shown yet): shown whole now, fitted when it appears.
    if (box.clientHeight === 0) {
      fadePending ||= fade;
      return;
    }
    const animate = fade || fadePending;
    fadePending = false;
    if (fits()) {
      if (animate) render(0, true);
      return;
    }
    const starts = wordStarts(full);
    const i = firstFitting(starts);
    let start = i >= 0 ? starts[i]! : full.length;
    // The word before the tail did not fit whole: if it is very long (a URL, a path), its end is shown.
    const before = i > 0 ? starts[i - 1]! : i === 0 ? 0 : (starts.at(-1) ?? 0);
    if (start - before > LONG_WORD) {
      const inside = graphemeStarts(full, before).filter((g) => g < start);
      const j = firstFitting(inside);
      if (j >= 0) start = inside[j]!;
    }
    render(start, animate);
  };

  // Only a real change of size refits (a refit restarts nothing, but it would cut a fade-in short).
  const resized = (): void => {
    if (box.clientHeight > 0 && `${box.clientWidth}×${box.clientHeight}` !== fittedTo) fit(false);
  };
  if (typeof ResizeObserver === 'function') new ResizeObserver(resized).observe(box);
  return {
    element: box,
    get text() {
      return full;
    },
    set(text) {
      if (text === full) return;
      const keep = commonPrefix(full, text);
      // A revision of earlier words (not only words added) lights up from where it differs.
      freshFrom = wordStartAt(text, keep);
      full = text;
      fit(true);
    },
    clear() {
      full = '';
      freshFrom = 0;
      fadePending = false;
      line.replaceChildren();
    },
    refit() {
      fit(false);
    },
  };
}
