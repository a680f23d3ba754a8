/**
 * Recordings channels (zod-free, for the preload): the History Browser plays, saves and re-transcribes a
 * record's kept audio; Settings shows what the kept audio takes. Spread into channels.ts.
 */

/** Invoke channels of the recordings feature and their arity (see channels.ts). */
export const recordingsChannelArity = {
  'recordings:info': 1,
  'recordings:save': 1,
  'recordings:retranscribe': 1,
  'recordings:apply': 1,
  'recordings:usage': 0,
} as const;

/** What the History window calls of them. */
export const recordingsHistoryChannels = ['recordings:info', 'recordings:save', 'recordings:retranscribe', 'recordings:apply'] as const;
