/**
 * Dictation and capture channels (zod-free, for the preload): spread into channels.ts so the feature
 * adds its channels in one place.
 */

/** Invoke channels of the dictation feature and their arity (see channels.ts). */
export const dictationChannelArity = {
  'capture:frames': 1,
  'capture:status': 1,
  'dictation:status': 0,
  'dictation:confirm': 1,
  'dictation:cancel': 1,
  'dictation:recoverable': 0,
  'dictation:recover': 1,
  'dictation:hotkeys': 0,
  'dictation:modes': 0,
  'dictation:set-mode': 1,
  'dictation:prompt': 1,
  'dictation:deliver': 1,
  'dictation:hide-panel': 0,
  'dictation:retry': 1,
  'dictation:retry-last': 0,
  'dictation:rerun': 1,
} as const;

/** Events of the dictation feature (main → renderer). */
export const dictationEventChannels = ['dictation:event', 'capture:command', 'dictation:sound'] as const;
