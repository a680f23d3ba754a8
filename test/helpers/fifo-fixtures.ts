/**
 * Named pipes (FIFOs) for the hostile-file tests, and a guard that turns a hang into a failure. Opening
 * a FIFO blocks until its other end opens, in libuv's thread pool for an async open: a test that found
 * such a hang must not leave its worker stuck, so every FIFO made here is released after each test
 * (O_RDWR opens both ends without blocking on Linux, man 7 fifo).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterEach } from 'vitest';

/** Call at the top of a test file: returns `mkfifo(path)`, whose FIFOs are released after each test. */
export function useFifos(): (p: string) => void {
  const made: string[] = [];
  afterEach(() => {
    for (const p of made.splice(0)) {
      try {
        fs.closeSync(fs.openSync(p, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
      } catch {
        // already replaced by a regular file, or gone
      }
    }
  });
  return (p) => {
    execFileSync('mkfifo', [p]);
    made.push(p);
  };
}

/** `p`, or a rejection saying it hung when it has not settled within `ms`. */
export async function settles<T>(p: Promise<T>, ms = 3000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung: not settled within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, hung]);
  } finally {
    clearTimeout(timer);
  }
}
