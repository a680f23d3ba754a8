/**
 * Channels of learning from edits (zod-free, for the preload): spread into channels.ts, so the feature adds
 * its channels in one place. The preview panel proposes and accepts pairs while the user edits; the History
 * Browser does the same after an edit is saved.
 */

/** Invoke channels of the learning feature and their arity (see channels.ts). */
export const learningChannelArity = {
  'learning:propose': 1,
  'learning:accept': 1,
} as const;
