/** Request schemas and response types of the app-rules channels, spread into contract.ts. */
import { z } from 'zod';

/** Phantom type marker (contract.ts's `returns`, repeated to avoid an import cycle). */
const marker = <T>(): { readonly __type?: T } => ({});

/** An app the user dictated into (from the history's input context), newest first. */
export interface RecentApp {
  /** What the input context called it (X11: the WM_CLASS class; macOS: the app name). */
  readonly app_name: string;
  /** The other identifier (X11: the WM_CLASS instance; macOS: the bundle id). */
  readonly bundle_id: string;
  /** Dictations into it among the records read. */
  readonly count: number;
}

/** The app-rules channels. */
export const appRulesContract = {
  'apps:recent': { request: z.undefined({ error: 'this call takes no payload' }), response: marker<readonly RecentApp[]>() },
} as const;
