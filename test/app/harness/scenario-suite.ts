/**
 * The lifecycle most whole-app test files share: one scenario (Xvfb, servers, speech) for the file; the apps a
 * test starts, killed after the test whatever happened in it; and reusable fixtures for tests that only look
 * at an app in some state ("started", "after one dictation"): made by the first test that asks, by any test
 * that asks after one quit or killed that app, and killed after the file. No test depends on another having
 * run, so any one runs alone (`-t`), while the file starts an app no more often than its tests need.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { OpenAiTestServerOptions } from '../../helpers/openai-test-server.ts';
import { launchApp, waitUntil, type LaunchOptions, type RunningApp } from './launch-app.ts';
import { startScenario, type Scenario } from './scenario.ts';

/** How a test starts an app: launchApp's options over the scenario's display and microphone, and the wait. */
export interface AppStart extends Partial<LaunchOptions> {
  /** config.json of a fresh data folder (ignored when `dataDir` is given). */
  readonly config?: Record<string, unknown>;
  /** How long to wait for 'ready' (a packaged start loads more from disk). */
  readonly readyMs?: number;
  /** Return once 'ready' is logged, without waiting for the microphone (default: wait for both). */
  readonly noMicrophone?: boolean;
}

/** A fixture holding an app (and whatever the test reads besides). */
export interface AppFixture {
  readonly app: RunningApp;
}

export interface ScenarioSuite {
  /** The file's scenario (started before its first test). */
  readonly scenario: () => Scenario;
  /** Registers an app a test started, so it is killed after the test. */
  track(app: RunningApp): RunningApp;
  /** Starts the built app on the scenario, tracked, and waits until it is ready to dictate. */
  startApp(opts?: AppStart): Promise<RunningApp>;
  /**
   * A fixture made on first use and reused while its app runs: made again when a test quit or killed that
   * app (or making it failed), killed after the file. `make` starts its app with the `start` it is given
   * (as startApp, but not killed after the test), or takes the app of another reusable fixture.
   */
  reusable<T extends AppFixture>(make: (start: (opts?: AppStart) => Promise<RunningApp>) => Promise<T>): () => Promise<T>;
}

/** True while the app's process has neither exited nor been killed. */
export function isRunning(app: RunningApp): boolean {
  return app.process.exitCode === null && app.process.signalCode === null;
}

/** Call at the top of a describe block. */
export function useScenarioSuite(llm: OpenAiTestServerOptions = {}): ScenarioSuite {
  let s: Scenario | undefined;
  let tracked: RunningApp[] = [];
  const reused: (() => RunningApp | null)[] = [];
  const scenario = (): Scenario => {
    if (s === undefined) throw new Error('the scenario is not started yet (use it inside a test)');
    return s;
  };
  beforeAll(async () => {
    s = await startScenario(llm);
  }, 60_000);
  afterEach(async () => {
    for (const a of tracked) if (isRunning(a)) await a.kill();
    tracked = [];
  });
  afterAll(async () => {
    for (const current of reused) {
      const a = current();
      if (a !== null && isRunning(a)) await a.kill();
    }
    await s?.close();
  });
  /** Launches the app, hands it to `own` (which decides when it dies) and waits until it is ready. */
  const launchReady = async (opts: AppStart, own: (a: RunningApp) => void): Promise<RunningApp> => {
    const sc = scenario();
    const { config, readyMs, noMicrophone, ...launch } = opts;
    const a = launchApp({ env: sc.x.env, fakeAudio: sc.speech, ...launch, dataDir: launch.dataDir ?? sc.dataDir(config) });
    own(a);
    await a.waitForLog('ready', readyMs);
    if (noMicrophone !== true) await a.waitForLog('microphone ready');
    return a;
  };
  const suite: ScenarioSuite = {
    scenario,
    track(a) {
      tracked.push(a);
      return a;
    },
    startApp: (opts = {}) => launchReady(opts, (a) => suite.track(a)),
    reusable<T extends AppFixture>(make: (start: (opts?: AppStart) => Promise<RunningApp>) => Promise<T>) {
      let made: Promise<T> | null = null;
      let app: RunningApp | null = null;
      reused.push(() => app);
      const start = (opts: AppStart = {}): Promise<RunningApp> => launchReady(opts, (a) => (app = a));
      return async () => {
        if (made === null || (app !== null && !isRunning(app))) {
          if (app !== null && isRunning(app)) await app.kill();
          app = null;
          const making = make(start);
          made = making;
          // A fixture built on another one's app (not started through `start`) is watched all the same; a
          // failed make is made again by the next test that asks, not handed on as the same failure.
          making.then(
            (f) => (app = f.app),
            () => {
              if (made === making) made = null;
            },
          );
        }
        return made;
      };
    },
  };
  return suite;
}

/** Whether the app's window of this kind (its page path, e.g. 'indicator') is shown. */
export async function windowVisible(app: RunningApp, kind: string): Promise<boolean> {
  return (await app.state()).windows.find((w) => w.url.includes(`/${kind}/`))?.visible ?? false;
}

/**
 * Waits until the data folder's active history file holds `count` records and returns them parsed. The
 * file alone is not enough: the store creates it (empty) when it opens, before any record is in it.
 */
export async function historyRecords(dataDir: string, count: number, ms: number): Promise<Record<string, unknown>[]> {
  const file = path.join(dataDir, 'conversation_history.jsonl');
  const lines = (): string[] => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '') : []);
  await waitUntil(() => lines().length >= count, ms, `${count} history record(s)`);
  return lines().map((l) => JSON.parse(l) as Record<string, unknown>);
}
