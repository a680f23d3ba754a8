/**
 * The built-in LLM engine in the built app: provider kind `local` with a random-weight GGUF (Qwen2.5's real
 * tokenizer, tiny dimensions: test/helpers/gguf-writer.ts) run by llama.cpp in its own utility process
 * (out/main/llm-host.js). Two dictations in one mode with history injection on: the answer is gibberish, so the
 * raw text is delivered (the guard's or the length check's decision is in the record), and each record shows
 * the prompt prefix the engine did not evaluate again at key-up (warmed at key-down).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureRandomQwenGguf } from '../helpers/gguf-writer.ts';
import { launchApp, waitUntil } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { useScenarioSuite } from './harness/scenario-suite.ts';

function records(dataDir: string): Record<string, unknown>[] {
  const file = path.join(dataDir, 'conversation_history.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

describe('the built app with the built-in LLM engine', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  beforeAll(() => {
    s = suite.scenario();
  });

  it('two dictations: raw text delivered, each reuses the prefix warmed at key-down; the engine runs in its own process', async () => {
    const model = ensureRandomQwenGguf();
    const dataDir = s.dataDir({
      output: { preview: false },
      ai_enhance: {
        providers: { local: { kind: 'local', base_url: 'http://localhost/' } },
        default_provider: 'local',
        default_model: model,
        timeout: 60,
        max_output_tokens: 16,
        conversation_history: { enabled: true },
        local: { context_size: 2048, threads: 1, max_sequences: 2 },
      },
    });
    const a = suite.track(launchApp({ dataDir, env: s.x.env, fakeAudio: s.speech }));
    await a.waitForLog('ready');
    await a.waitForLog('microphone ready');
    const field = await s.targetField();
    for (let i = 1; i <= 2; i++) {
      await field.fill('#t', '');
      await s.xdotool('keydown', 'Alt_R');
      await new Promise((r) => setTimeout(r, 2500));
      await s.xdotool('keyup', 'Alt_R');
      await waitUntil(() => records(dataDir).length === i, 90_000, `record ${i}`);
      expect(await field.inputValue('#t')).toBe('hello world'); // the raw recognized text: the gibberish answer was not used
    }
    const [first, second] = records(dataDir) as { final_text: string; usage?: { prompt_tokens: number; cached_tokens: number } }[];
    expect(first?.final_text).toBe('hello world');
    expect(second?.final_text).toBe('hello world');
    // Both dictations: the prompt prefix was evaluated at key-down, while the user spoke, so at key-up only the
    // tail was (direct-mode records are not history lines: only preview-confirmed ones are, history-builder.ts).
    for (const r of [first, second]) {
      expect(r?.usage?.prompt_tokens).toBeGreaterThan(100);
      expect((r?.usage?.cached_tokens ?? 0) / (r?.usage?.prompt_tokens ?? 1)).toBeGreaterThan(0.8);
    }
    // The engine's gibberish was not used: the record says why (the answer ran to the token limit or the guard refused it).
    expect(String((second as Record<string, unknown> | undefined)?.enhance_error)).toMatch(/truncated|diverged|empty/);
    // The model runs in its own process (out/main/llm-host.js), which stays loaded between dictations.
    const hosts = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('llm-host.js');
      } catch {
        return false;
      }
    });
    expect(hosts.length).toBeGreaterThan(0);
  }, 240_000);
});
