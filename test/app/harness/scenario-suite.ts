/**
 * The lifecycle most whole-app test files share: one scenario (Xvfb, servers, speech) for the file, and
 * at most one running app per test, killed after the test whatever happened in it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { OpenAiTestServerOptions } from '../../helpers/openai-test-server.ts';
import { waitUntil, type RunningApp } from './launch-app.ts';
import { startScenario, type Scenario } from './scenario.ts';

export interface ScenarioSuite {
  /** The file's scenario (started before its first test). */
  readonly scenario: () => Scenario;
  /** Registers the app a test started, so it is killed after the test. */
  track(app: RunningApp): RunningApp;
}

/** Call at the top of a describe block. */
export function useScenarioSuite(llm: OpenAiTestServerOptions = {}): ScenarioSuite {
  let s: Scenario | undefined;
  let app: RunningApp | null = null;
  beforeAll(async () => {
    s = await startScenario(llm);
  }, 60_000);
  afterEach(async () => {
    if (app !== null && app.process.exitCode === null) await app.kill();
    app = null;
  });
  afterAll(async () => {
    await s?.close();
  });
  return {
    scenario: () => {
      if (s === undefined) throw new Error('the scenario is not started yet (use it inside a test)');
      return s;
    },
    track(a) {
      app = a;
      return a;
    },
  };
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
