import { defineConfig } from 'vitest/config';

/**
 * Four projects: `unit` (plain Node, real SQLite and files), `browser` (real Chromium driven by
 * playwright-core against the built renderer), `app` (the built app run whole under the electron
 * stand-in on Xvfb) and `e2e` (the Electron binary; skipped with a reason where there is none).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          // What a window shows after an action is polled for; vitest's 1 s default is shorter than one
          // query + render takes on 2 busy cores, and a poll that never succeeds still fails after 5 s.
          expect: { poll: { timeout: 5000 } },
        },
      },
      {
        test: {
          // The built app run whole under the electron stand-in (test/app/stand-in), on Xvfb.
          name: 'app',
          include: ['test/app/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          expect: { poll: { timeout: 5000 } },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
