/**
 * The last dictation one key away: Paste last (into the app focused now — the one the user meant when a
 * paste went to the wrong window or failed), Copy last, and Reopen last preview (its transcript in the
 * preview panel, in its mode; the modes it already ran this session answer again at once from the
 * controller's per-mode cache). The tray items and the shortcuts (hotkey-last-dictation.ts) run these.
 *
 * "Last" is the last record this run logged (seen through the history port, so it is known even with
 * history off), else — after a restart — the newest record in the history.
 */
import type { HistoryPort } from '../ports/dictation-ports.ts';
import type { NewHistoryRecord } from '../../shared/history/record.ts';
import type { HistoryPage, HistoryQuery } from '../../shared/history/query.ts';
import type { Notify } from './app-notices.ts';

/** What is kept of the last dictation. */
export interface LastText {
  readonly asrText: string;
  readonly finalText: string;
  readonly mode: string;
  readonly sttModel: string;
  /** The session that produced it, when it ran in this run of the app (its mode results may be cached). */
  readonly sessionId: string | null;
}

/** What {@link createLastDictation} uses. */
export interface LastDictationDeps {
  /** The newest records (after a restart). */
  readonly history: { query(q: HistoryQuery): Promise<HistoryPage> };
  /** Remembers the window focused now as the paste target (paste.ts `rememberTarget`). */
  readonly rememberTarget: () => void;
  readonly notify: Notify;
}

/** The controller as the last dictation drives it. */
export interface LastDictationController {
  readonly state: { readonly state: string };
  deliver(text: string, action: 'paste' | 'copy'): Promise<void>;
  rerun(text: string, mode: string, sttModel?: string, id?: string): void;
  onEvent(listener: (e: { readonly kind: string; readonly sessionId?: string | null }) => void): () => void;
}

/** The last dictation and what can be done with it. */
export interface LastDictation {
  /** The history port that also remembers each logged record (give it to the controller). */
  watch(history: HistoryPort): HistoryPort;
  /** The controller built over the watched port (its sessions are followed; the actions drive it). */
  attach(controller: LastDictationController): void;
  /** The last dictation (this run's, else the newest history record); null when there is none. */
  get(): Promise<LastText | null>;
  paste(): Promise<void>;
  copy(): Promise<void>;
  reopen(): Promise<void>;
}

/** The last dictation over the controller and the history. */
export function createLastDictation(deps: LastDictationDeps): LastDictation {
  let last: LastText | null = null;
  /** The session whose text is being logged now (the record itself does not name it). */
  let session: string | null = null;
  const remember = (r: NewHistoryRecord): void => {
    if (r.final_text.trim() === '' && r.asr_text.trim() === '') return;
    last = { asrText: r.asr_text, finalText: r.final_text, mode: r.enhance_mode, sttModel: r.stt_model, sessionId: session };
  };
  const get = async (): Promise<LastText | null> => {
    if (last !== null) return last;
    try {
      const row = (await deps.history.query({ pageSize: 1, includeArchived: true } as HistoryQuery)).rows[0];
      return row === undefined ? null : { asrText: row.asr_text, finalText: row.final_text, mode: row.enhance_mode, sttModel: row.stt_model, sessionId: null };
    } catch {
      return null; // the index is not ready (indexing): nothing to offer yet
    }
  };
  let controller: LastDictationController | null = null;
  const withLast = async (act: (l: LastText, c: LastDictationController) => Promise<void> | void): Promise<void> => {
    const l = await get();
    if (l === null || controller === null) {
      deps.notify('info', { code: 'no-last-dictation' });
      return;
    }
    try {
      await act(l, controller);
    } catch (err) {
      deps.notify('error', { code: 'step-failed', reason: String((err as Error)?.message ?? err) });
    }
  };
  return {
    watch(history) {
      // Every other call goes to the history as it is; `log` also remembers what was logged.
      return new Proxy(history, {
        get(target, key) {
          if (key === 'log') {
            return async (r: NewHistoryRecord) => {
              const result = await target.log(r);
              remember(result?.record !== undefined && 'final_text' in result.record ? (result.record as NewHistoryRecord) : r);
              return result;
            };
          }
          const v: unknown = Reflect.get(target, key, target);
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    },
    attach(c) {
      controller = c;
      c.onEvent((e) => {
        if (e.kind === 'state' && typeof e.sessionId === 'string') session = e.sessionId;
      });
    },
    get,
    paste: () =>
      withLast((l, c) => {
        // The app focused now is where the user wants it (not the one the dictation started in).
        deps.rememberTarget();
        return c.deliver(l.finalText, 'paste');
      }),
    copy: () => withLast((l, c) => c.deliver(l.finalText, 'copy')),
    reopen: () =>
      withLast((l, c) => {
        if (c.state.state !== 'idle') throw new Error('finish or cancel the current dictation first');
        deps.rememberTarget();
        // The same session id: the modes it already ran answer from the controller's cache at once.
        c.rerun(l.asrText, l.mode, l.sttModel, l.sessionId ?? undefined);
      }),
  };
}
