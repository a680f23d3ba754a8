/**
 * The one timer race of the app (the dictation's context reads, the enhancer's hard deadline): a promise,
 * or a fallback once `ms` have passed, whichever comes first. The timer is cleared when the promise wins
 * and never keeps the process alive. Environment-free: setTimeout exists in Node and in every window.
 */

/** `work`'s value, or `fallback` when `work` has not settled within `ms` (a rejection still rejects). */
export async function withTimeout<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    // Node's timers can be unref'd (a window's are plain numbers).
    (timer as unknown as { unref?: () => void }).unref?.();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
