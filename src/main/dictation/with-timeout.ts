/**
 * The one timer race of the dictation path: a promise, or a fallback once `ms` have passed, whichever
 * comes first. The timer is cleared when the promise wins and never keeps the process alive.
 */

/** `work`'s value, or `fallback` when `work` has not settled within `ms` (a rejection still rejects). */
export async function withTimeout<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
