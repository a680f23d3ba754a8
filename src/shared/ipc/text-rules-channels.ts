/**
 * Text-rules channels (zod-free, for the preload): Settings lists, saves, removes and tries the
 * replacement rules and snippets (src/main/text-rules/). Spread into channels.ts.
 */

/** Invoke channels of the text rules and their arity (see channels.ts). */
export const textRulesChannelArity = {
  'rules:list': 0,
  'rules:save-replacement': 1,
  'rules:save-snippet': 1,
  'rules:remove': 1,
  'rules:try': 1,
} as const;

/** The Settings window's text-rules channels (window-scopes.ts). */
export const textRulesSettingsChannels = Object.keys(textRulesChannelArity) as readonly (keyof typeof textRulesChannelArity)[];
