/**
 * Text rules in the built app, with enhancement off (the default until an LLM is set up): a dictation with
 * fillers and a spoken self-correction is pasted clean, a replacement rule and a snippet fire in real
 * dictations — through the remote engine (the local OpenAI-compatible server answers the transcription
 * with the words a user said) and through local whisper.cpp (the random-weight model says "hello world") —
 * and the history keeps the text as recognized with what was removed and which rules fired. The rules are
 * added with the `tingxie rules` command, as a user would, on the same data folder.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchApp, waitUntil, type RunningApp } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { useScenarioSuite } from './harness/scenario-suite.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function records(dataDir: string): Record<string, unknown>[] {
  const file = path.join(dataDir, 'conversation_history.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

/** `tingxie rules …` on the app's data folder. */
function rules(dataDir: string, ...args: string[]): void {
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/node'), [path.join(ROOT, 'bin/tingxie.mjs'), '--data-dir', dataDir, 'rules', ...args], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`tingxie rules ${args.join(' ')}: ${r.stderr}`);
}

describe('the built app: text rules without an LLM', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  beforeAll(() => {
    s = suite.scenario();
  });

  /** The app on a data folder with enhancement off and no preview (the text goes straight into the field). */
  async function start(dataDir: string): Promise<RunningApp> {
    const a = suite.track(launchApp({ dataDir, env: s.x.env, fakeAudio: s.speech }));
    await a.waitForLog('ready');
    await a.waitForLog('microphone ready');
    return a;
  }

  const remoteConfig = (): Record<string, unknown> => ({
    ai_enhance: { enabled: false },
    asr: { engine: 'remote', language: 'zh', remote: { base_url: s.llm.baseURL, model: 'whisper-1' } },
    output: { preview: false },
  });

  /** Holds the key for a moment and waits for `expected` in the text field. */
  async function dictate(expected: string): Promise<void> {
    const field = await s.targetField();
    await field.fill('#t', '');
    await s.xdotool('keydown', 'Alt_R');
    await new Promise((r) => setTimeout(r, 1500));
    await s.xdotool('keyup', 'Alt_R');
    await waitUntil(async () => (await field.inputValue('#t')) === expected, 20_000, `the pasted text ${JSON.stringify(expected)}`);
  }

  it('fillers and a self-correction come out clean with enhancement off; the record keeps what was recognized', async () => {
    const said = '嗯，那个，我们明天三点，不对，四点开会。';
    s.llm.setTranscription(() => ({ kind: 'text', text: said }));
    const dataDir = s.dataDir(remoteConfig());
    const chats = s.llm.requests.filter((r) => r.path === '/v1/chat/completions').length;
    await start(dataDir);
    await dictate('我们明天四点开会。');
    await waitUntil(() => records(dataDir).length === 1, 5000, 'the record');
    expect(records(dataDir)[0]).toMatchObject({
      asr_text: said,
      enhanced_text: null,
      final_text: '我们明天四点开会。',
      user_corrected: false,
      text_rules: { removed: [{ text: '嗯，那个，', kind: 'filler' }, { text: '三点，不对，', kind: 'self-correction' }], fired: [] },
    });
    // No LLM was asked: the rules need none.
    expect(s.llm.requests.filter((r) => r.path === '/v1/chat/completions').length).toBe(chats);
  }, 90_000);

  it('a replacement rule (same pinyin) and a snippet fire in real dictations', async () => {
    const dataDir = s.dataDir(remoteConfig());
    rules(dataDir, 'add', '平平→萍萍', '--same-pinyin');
    rules(dataDir, 'add', 'cloud', 'Claude');
    rules(dataDir, 'add', '--snippet', '我的邮箱', 'ping@example.com\nTingxie');
    await start(dataDir);
    s.llm.setTranscription(() => ({ kind: 'text', text: '我和苹苹用cloud写代码。' }));
    await dictate('我和萍萍用Claude写代码。');
    s.llm.setTranscription(() => ({ kind: 'text', text: '我的邮箱。' }));
    await dictate('ping@example.com\nTingxie');
    await waitUntil(() => records(dataDir).length === 2, 5000, 'both records');
    const [first, second] = records(dataDir);
    expect(first).toMatchObject({ asr_text: '我和苹苹用cloud写代码。', final_text: '我和萍萍用Claude写代码。' });
    expect(first?.text_rules).toEqual({ removed: [], fired: [{ kind: 'replacement', from: '苹苹', to: '萍萍' }, { kind: 'replacement', from: 'cloud', to: 'Claude' }] });
    expect(second).toMatchObject({ asr_text: '我的邮箱。', final_text: 'ping@example.com\nTingxie', text_rules: { fired: [{ kind: 'snippet', from: '我的邮箱' }] } });
  }, 90_000);

  it('the local engine too: a rule fires on what whisper.cpp decoded', async () => {
    const dataDir = s.dataDir({ ai_enhance: { enabled: false }, output: { preview: false } });
    rules(dataDir, 'add', 'hello', 'Howdy');
    await start(dataDir);
    // The random-weight model says " hello world" (test/helpers/whisper-model.ts, its script).
    await dictate('Howdy world');
    await waitUntil(() => records(dataDir).length === 1, 5000, 'the record');
    expect(records(dataDir)[0]).toMatchObject({ asr_text: 'hello world', final_text: 'Howdy world', text_rules: { fired: [{ kind: 'replacement', from: 'hello', to: 'Howdy' }] } });
  }, 90_000);
});
