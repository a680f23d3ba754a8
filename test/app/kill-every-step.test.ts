/**
 * The built app killed (kill -9) at every step of a dictation — recording, transcribing, enhancing,
 * the panel open, pasted but not yet logged, logged — and started again: every dictation is either in
 * the history or offered for recovery, never both, never neither.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchApp, waitUntil, type RunningApp } from './harness/launch-app.ts';
import { useScenarioSuite } from './harness/scenario-suite.ts';

type Step = 'recording' | 'transcribing' | 'enhancing' | 'panel open' | 'pasted, not yet logged' | 'logged';

/** Where the dictation must be after the restart, by the step it was killed at. */
const EXPECTED: Readonly<Record<Step, 'offered' | 'history'>> = {
  recording: 'offered',
  transcribing: 'offered',
  enhancing: 'offered',
  'panel open': 'offered',
  // Its record was journaled before the paste: the next start logs it instead of offering it again.
  'pasted, not yet logged': 'history',
  logged: 'history',
};

function historyLines(dataDir: string): string[] {
  const file = path.join(dataDir, 'conversation_history.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '') : [];
}

function journalStages(dataDir: string): string[] {
  const dir = path.join(dataDir, 'sessions');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const s = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { stage: string; record?: unknown };
      return s.record === undefined ? s.stage : `${s.stage}+record`;
    });
}

describe('the built app: kill -9 at every step of a dictation, then start again', () => {
  const suite = useScenarioSuite();
  let holdLlm: (() => void) | null = null;
  afterEach(async () => {
    holdLlm?.();
    holdLlm = null;
    suite.scenario().llm.setChat(() => ({ kind: 'text', content: 'Hello world.' }));
    await suite.scenario().xdotool('keyup', 'Alt_R').catch(() => undefined);
  });

  const start = async (dataDir: string): Promise<RunningApp> => {
    const s = suite.scenario();
    const a = suite.track(launchApp({ dataDir, env: s.x.env, fakeAudio: s.speech }));
    await a.waitForLog('ready');
    return a;
  };

  /** The LLM answers only after the test lets it (or never, if the app is killed first). */
  const stallLlm = (): void => {
    const held = new Promise<void>((r) => (holdLlm = r));
    suite.scenario().llm.setChat(async () => {
      await held;
      return { kind: 'text', content: 'Hello world.' };
    });
  };

  /** Holds Right Alt while the fake microphone speaks, for `ms`. */
  const speak = async (a: RunningApp, ms: number, release = true): Promise<void> => {
    const s = suite.scenario();
    await a.waitForLog('microphone ready');
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(async () => (await a.state()).windows.find((w) => w.url.includes('/indicator/'))?.visible, 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, ms));
    if (release) await s.xdotool('keyup', 'Alt_R');
  };

  /** Drives one dictation to `step` and kills the app there. */
  const killAt = async (step: Step, a: RunningApp): Promise<void> => {
    const s = suite.scenario();
    switch (step) {
      case 'recording':
        await speak(a, 1500, false);
        break;
      case 'transcribing':
        stallLlm();
        await speak(a, 2500); // killed as the key comes up: the last phrase is still being decoded
        break;
      case 'enhancing':
        stallLlm();
        await speak(a, 2500);
        await waitUntil(() => s.llm.requests.some((r) => r.path.endsWith('/chat/completions')), 20_000, 'the LLM call');
        break;
      case 'panel open': {
        await speak(a, 2500);
        const panel = await a.page('panel');
        await expect.poll(() => panel.locator('textarea').first().inputValue(), { timeout: 20_000 }).toBe('Hello world.');
        break;
      }
      case 'pasted, not yet logged': {
        const field = await s.targetField();
        await speak(a, 2500);
        await waitUntil(() => field.inputValue('#t').then((v) => v === 'Hello world.'), 20_000, 'the paste');
        break;
      }
      case 'logged':
        await speak(a, 2500);
        await waitUntil(() => historyLines(a.dataDir).length === 1 && journalStages(a.dataDir).length === 0, 20_000, 'the record and the settled journal');
        break;
    }
    await a.kill();
  };

  for (const step of Object.keys(EXPECTED) as Step[]) {
    it(`killed while ${step}: ${EXPECTED[step] === 'history' ? 'in the history' : 'offered'} after the restart, and only there`, async () => {
      const s = suite.scenario();
      const field = await s.targetField();
      await field.fill('#t', '');
      await field.click('#t');
      const direct = step === 'pasted, not yet logged' || step === 'logged';
      const dataDir = s.dataDir(direct ? { output: { preview: false } } : {});
      const requestsBefore = s.llm.requests.length;
      await killAt(step, await start(dataDir));
      const journaled = journalStages(dataDir);
      holdLlm?.();

      const b = await start(dataDir);
      // Both starts log into the same file: the second start's check is the second line.
      const checks = await waitUntil(() => { const l = b.log().filter((x) => x.msg === 'recovery checked'); return l.length >= 2 ? l : null; }, 20_000, 'the restart\'s recovery check');
      const checked = checks[1] as Record<string, unknown>;
      const offered = Number(checked.offered);
      if (offered > 0) await waitUntil(async () => (await b.state()).dialogs.pending[0], 10_000, 'the recovery offer');
      const records = historyLines(dataDir).map((l) => JSON.parse(l) as Record<string, unknown>);
      const where = `killed while ${step} (journal: ${journaled.join(', ') || 'empty'}; LLM calls ${s.llm.requests.length - requestsBefore})`;
      expect(records.length + offered, `${where}: history ${records.length}, offered ${offered}`).toBe(1);
      expect(EXPECTED[step] === 'history' ? records.length : offered, where).toBe(1);
      if (records.length === 1) expect(records[0]).toMatchObject({ final_text: 'Hello world.', outcome: 'direct' });
      // The dictation is offered once, not again at the following start.
      if (offered === 0) expect(journalStages(dataDir)).toEqual([]);
    }, 90_000);
  }
});
