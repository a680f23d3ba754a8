/**
 * The preview panel's state as a pure reducer over the dictation events main sends and the user's
 * actions. Rules that matter: once the user edits the final text, later deltas and results never
 * overwrite it (an explicit mode switch is a request for new text, so it clears that flag); results
 * with a usable answer mark their mode as cached for this session (main keeps the same per-mode cache);
 * finished previews go to a short list of recent ones that can be reopened.
 */
import type { DictationEvent, DictationOutcome, DictationSnapshot, DictationState } from '../../shared/ipc/dictation-types.ts';
import type { Notice, NoticeLevel } from '../../shared/notices/notice.ts';

/** A notice shown in the panel (a code: the view puts it into the window's language); repeats are merged. */
export interface PanelNotice {
  readonly level: NoticeLevel;
  readonly notice: Notice;
  /** How many times this same notice arrived (shown as ×n). */
  readonly count: number;
}

/** A finished preview of this app session, reopenable from the panel. */
export interface RecentPreview {
  readonly sessionId: string;
  readonly at: number;
  readonly mode: string;
  readonly asrText: string;
  readonly text: string;
  readonly outcome: DictationOutcome;
}

/** Everything the panel renders. */
export interface PanelState {
  readonly sessionId: string | null;
  readonly state: DictationState;
  readonly mode: string;
  readonly asrText: string;
  /** The answer as it streams in (reset on a retry or a mode switch). */
  readonly streamText: string;
  readonly thinking: string;
  /** The editable final text. */
  readonly draft: string;
  readonly edited: boolean;
  /** The latest result of this session (usage, timing, status, cached). */
  readonly result: DictationSnapshot | null;
  readonly cachedModes: readonly string[];
  readonly notices: readonly PanelNotice[];
  readonly recent: readonly RecentPreview[];
  /** The recent preview being looked at again, if any (shown instead of the live session). */
  readonly reopened: RecentPreview | null;
  /** The session whose transcription failed (its audio is kept): the panel offers Retry; null otherwise. */
  readonly failedSession: string | null;
}

/** What changes the panel state. */
export type PanelAction =
  | { readonly type: 'event'; readonly event: DictationEvent; readonly now: number }
  /** The session as `dictation:status` reported it when the panel (re)loaded. */
  | { readonly type: 'snapshot'; readonly snapshot: DictationSnapshot }
  | { readonly type: 'edit'; readonly text: string }
  | { readonly type: 'mode-requested'; readonly mode: string }
  | { readonly type: 'reopen'; readonly sessionId: string }
  /** The user edited the reopened preview's text (delivering it then updates its history record). */
  | { readonly type: 'edit-reopened'; readonly text: string }
  | { readonly type: 'close-reopened' }
  | { readonly type: 'dismiss-notices' }
  /** The user put the idle panel away. */
  | { readonly type: 'hidden' };

/** How many finished previews the panel keeps (WenZi: the last 10). */
export const MAX_RECENT = 10;
/** Distinct notices kept (identical ones are merged into one with a count). */
const MAX_NOTICES = 6;

/** The panel before any session. */
export const initialPanelState: PanelState = {
  sessionId: null, state: 'idle', mode: '', asrText: '', streamText: '', thinking: '', draft: '', edited: false,
  result: null, cachedModes: [], notices: [], recent: [], reopened: null, failedSession: null,
};

function newSession(s: PanelState, sessionId: string | null, mode: string): PanelState {
  return { ...initialPanelState, sessionId, mode, recent: s.recent };
}

function withDraft(s: PanelState, text: string): PanelState {
  return s.edited ? s : { ...s, draft: text };
}

function onEvent(s: PanelState, e: DictationEvent, now: number): PanelState {
  // Events of another session than the one on screen start a new one (or are stale, for done/results).
  switch (e.kind) {
    case 'state': {
      // A retry reuses its session id: leaving idle always starts a fresh view.
      const fresh = e.sessionId !== null && e.state !== 'idle' && (e.sessionId !== s.sessionId || e.previous === 'idle');
      const base = fresh ? newSession(s, e.sessionId, e.mode) : s;
      return { ...base, state: e.state, mode: e.state === 'idle' ? base.mode : e.mode };
    }
    case 'level':
    case 'partial': // the indicator's live text; the panel shows the transcript once it is final
      return s;
    case 'asr':
      if (e.sessionId !== s.sessionId) return s;
      return withDraft({ ...s, asrText: e.text }, e.text);
    case 'delta': {
      if (e.sessionId !== s.sessionId) return s;
      if (e.stream === 'thinking') return { ...s, thinking: s.thinking + e.text };
      if (e.stream === 'reset') return withDraft({ ...s, streamText: '', thinking: '' }, s.asrText);
      const streamText = s.streamText + e.text;
      return withDraft({ ...s, streamText }, streamText);
    }
    case 'result': {
      if (e.sessionId !== s.sessionId) return s;
      const r = e.snapshot;
      const usable = r.enhanceStatus === 'enhanced' || r.enhanceStatus === 'guarded';
      const cachedModes = usable && !s.cachedModes.includes(r.mode) ? [...s.cachedModes, r.mode] : s.cachedModes;
      return withDraft({ ...s, result: r, mode: r.mode, streamText: r.enhancedText ?? '', thinking: r.thinking, cachedModes, asrText: r.asrText || s.asrText }, r.text);
    }
    case 'notice': {
      if (e.sessionId !== null && e.sessionId !== s.sessionId) return s;
      return { ...s, notices: addNotice(s.notices, e.level, e.notice) };
    }
    case 'done': {
      if (e.sessionId !== s.sessionId || s.asrText === '') return { ...s, state: 'idle', failedSession: e.sessionId === s.sessionId && e.outcome === 'failed' ? e.sessionId : null };
      const entry: RecentPreview = { sessionId: e.sessionId, at: now, mode: s.mode, asrText: s.asrText, text: s.draft, outcome: e.outcome };
      return { ...s, recent: [entry, ...s.recent.filter((r) => r.sessionId !== e.sessionId)].slice(0, MAX_RECENT) };
    }
    default: {
      const never: never = e;
      return never;
    }
  }
}

/** Same code and parameters: the same notice (merged, newest position, count up). */
function noticeKey(n: Notice): string {
  return JSON.stringify(n);
}

function addNotice(list: readonly PanelNotice[], level: NoticeLevel, notice: Notice): readonly PanelNotice[] {
  const key = noticeKey(notice);
  const same = list.find((n) => noticeKey(n.notice) === key);
  const rest = list.filter((n) => n !== same);
  return [...rest, { level, notice, count: (same?.count ?? 0) + 1 }].slice(-MAX_NOTICES);
}

const SEVERITY: Readonly<Record<NoticeLevel, number>> = { info: 0, warning: 1, error: 2 };

/** The notice the collapsed line shows: the most severe, the newest among equals. */
export function headlineNotice(list: readonly PanelNotice[]): PanelNotice | null {
  let best: PanelNotice | null = null;
  for (const n of list) if (best === null || SEVERITY[n.level] >= SEVERITY[best.level]) best = n;
  return best;
}

/** The next panel state. */
export function panelReducer(s: PanelState, a: PanelAction): PanelState {
  switch (a.type) {
    case 'event':
      return onEvent(s, a.event, a.now);
    case 'snapshot': {
      const snap = a.snapshot;
      if (snap.sessionId === null) return { ...s, state: 'idle', mode: snap.mode };
      const base = snap.sessionId === s.sessionId ? s : newSession(s, snap.sessionId, snap.mode);
      return withDraft({ ...base, state: snap.state, mode: snap.mode, asrText: snap.asrText, result: snap.enhanceStatus === null ? base.result : snap }, snap.text);
    }
    case 'edit':
      return { ...s, draft: a.text, edited: true };
    case 'mode-requested':
      return { ...s, mode: a.mode, edited: false, streamText: '', thinking: '' };
    case 'reopen':
      return { ...s, reopened: s.recent.find((r) => r.sessionId === a.sessionId) ?? null };
    case 'edit-reopened': {
      const r = s.reopened;
      if (r === null) return s;
      const reopened = { ...r, text: a.text };
      return { ...s, reopened, recent: s.recent.map((x) => (x.sessionId === r.sessionId ? reopened : x)) };
    }
    case 'close-reopened':
      return { ...s, reopened: null };
    case 'dismiss-notices':
      return { ...s, notices: [] };
    case 'hidden':
      // The panel was put away: a failure shown in it is done with (its audio stays retryable from the tray).
      return s.state === 'idle' ? { ...s, failedSession: null, notices: [] } : s;
    default: {
      const never: never = a;
      return never;
    }
  }
}

/**
 * What the panel's Retry would run again: the transcription of a session that failed (its audio is
 * journaled), or the enhancement that fell back to the raw text; null when there is nothing to retry.
 */
export function retryKind(s: PanelState): 'asr' | 'llm' | null {
  if (s.failedSession !== null && s.state === 'idle') return 'asr';
  if (s.state === 'preview' && s.sessionId !== null && s.result?.enhanceStatus === 'fallback') return 'llm';
  return null;
}

/** Whether the live session can be confirmed now (the machine accepts confirm while enhancing or in preview). */
export function canConfirm(s: PanelState): boolean {
  return s.sessionId !== null && (s.state === 'enhancing' || s.state === 'preview') && s.draft.trim() !== '';
}
