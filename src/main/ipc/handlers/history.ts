/** `history:*` handlers: the History Browser's reads and edits, delegated to the history service. */
import { recordKey } from '../../../shared/history/record.ts';
import type { HistoryChangedEvent } from '../../../shared/ipc/wire-types.ts';
import type { HistoryService } from '../../history/history-service.ts';
import { deleteAll, deleteDay } from '../../history/privacy.ts';
import type { StoreEvent } from '../../history/store/store-types.ts';
import type { IpcHandlers } from '../dispatcher.ts';
import type { HistoryApi } from '../services.ts';

/** Handlers for the history channels. */
export function historyHandlers(
  history: HistoryApi,
): Pick<IpcHandlers, 'history:query' | 'history:count' | 'history:update' | 'history:delete' | 'history:delete-day' | 'history:delete-all' | 'history:stats'> {
  return {
    'history:query': (q) => history.query(q),
    'history:count': (q) => history.countMatches(q),
    // An edit in the browser is a correction of the final text: it sets edited_at (store) and user_corrected.
    'history:update': ({ key, final_text }) => history.update(key, { final_text, user_corrected: true }),
    'history:delete': ({ key }) => history.delete(key),
    'history:delete-day': ({ day, tzOffsetMinutes }) => history.deleteDay(day, tzOffsetMinutes),
    'history:delete-all': async () => {
      await history.deleteAll();
      return null;
    },
    'history:stats': (q) => history.stats(q),
  };
}

/** Adapts the history service to what the handlers need; the privacy deletions work through its store. */
export function historyApiOf(service: HistoryService): HistoryApi {
  return {
    query: (q) => service.query(q),
    countMatches: (q) => service.countMatches(q),
    update: (key, fields) => service.update(key, fields),
    delete: (key) => service.delete(key),
    deleteDay: (day, tz) => deleteDay(service.store, day, tz),
    deleteAll: () => deleteAll(service.store),
    stats: (q) => service.stats(q),
  };
}

/**
 * Every change the History window should show, as `history:changed` events: the app's own writes (the
 * store's events) and other programs' edits the index took in (another tool appending to the JSONL).
 * Returns the unsubscribe function.
 */
export function historyChangesOf(service: HistoryService): (listener: (e: HistoryChangedEvent) => void) => () => void {
  return (listener) => {
    const offStore = service.store.onChange((e) => listener(historyChangedEvent(e)));
    const offExternal = service.onExternalChange(() => listener({ change: 'external', keys: [] }));
    return () => {
      offStore();
      offExternal();
    };
  };
}

/** The store's change events as the renderer's `history:changed` payload. */
export function historyChangedEvent(e: StoreEvent): HistoryChangedEvent {
  switch (e.type) {
    case 'appended':
      return { change: e.type, keys: [recordKey(e.record)] };
    case 'updated':
      return { change: e.type, keys: [recordKey(e.record)] };
    case 'deleted':
      return { change: e.type, keys: e.keys.slice(0, 1000) };
    case 'added':
      return { change: e.type, keys: [] };
    case 'rotated':
    case 'cleared':
      return { change: e.type, keys: [] };
  }
}
