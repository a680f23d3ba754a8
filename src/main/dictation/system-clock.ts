import type { ClockPort } from '../ports/dictation-ports.ts';

/** The real clock. */
export const systemClock: ClockPort = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};
