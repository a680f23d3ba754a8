/**
 * App-rules channels (zod-free, for the preload): the Settings rules editor asks for the apps the user
 * dictated into recently, to pick a rule's app from. Spread into channels.ts.
 */

/** Invoke channels of the app rules and their arity (see channels.ts). */
export const appRulesChannelArity = {
  'apps:recent': 0,
} as const;
