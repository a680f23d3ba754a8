/** `apps:recent`: the apps the user dictated into lately, for the Settings rules editor (app-rules-editor.tsx). */
import type { RecentApp } from '../../../shared/ipc/app-rules-contract.ts';
import type { IpcHandlers } from '../dispatcher.ts';

/** What the app-rules channels delegate to. */
export interface AppRulesApi {
  recentApps(): Promise<readonly RecentApp[]>;
}

/** Handlers of the app-rules channels; without `api` the editor offers no recent apps (its list is empty). */
export function appRulesHandlers(api: AppRulesApi | undefined): Pick<IpcHandlers, 'apps:recent'> {
  return { 'apps:recent': () => api?.recentApps() ?? [] };
}

/** How many of the newest records are looked through (a bound on the work, not on the apps). */
const LOOKED_AT = 500;

/**
 * The distinct apps in the newest records' input context (WenZi's object shape), newest first — linear
 * in the records read. `records`: the active history file, oldest first.
 */
export function recentAppsOf(records: readonly { readonly input_context?: unknown }[]): RecentApp[] {
  const seen = new Map<string, { app_name: string; bundle_id: string; count: number }>();
  for (let i = records.length - 1; i >= 0 && i >= records.length - LOOKED_AT; i--) {
    const ctx = records[i]?.input_context;
    if (ctx === null || typeof ctx !== 'object') continue;
    const c = ctx as Record<string, unknown>;
    const app = typeof c.app_name === 'string' ? c.app_name.trim() : '';
    if (app === '') continue;
    const key = app.toLowerCase();
    const known = seen.get(key);
    if (known !== undefined) known.count += 1;
    else seen.set(key, { app_name: app, bundle_id: typeof c.bundle_id === 'string' ? c.bundle_id : '', count: 1 });
  }
  return [...seen.values()];
}
