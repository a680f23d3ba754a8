/**
 * A new install reaches "learning on, local model" from the setup guide alone, in the built app: first start
 * (no speech model: the guide opens) → speech through a cloud service (a real test request) → the AI step,
 * "On this computer" with "Learn from what I confirm" checked → Download: a random-weight GGUF (Qwen2.5's real
 * tokenizer, tiny dimensions: test/helpers/gguf-writer.ts) served by a local HTTP server at Hugging Face's
 * /<repo>/resolve/main/<file> path under the mirror setting's host → the config says local provider, that
 * file, AI on, learning on → one dictation is enhanced by the built-in engine in its own process. Random
 * weights answer gibberish, so the guard rejects it and the raw text is pasted: the record's model, tokens and
 * cached tokens (the prefix evaluated while the key was held) show the path, not the text.
 */
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LLM_CATALOG, recommendLlmModels, thisMachine } from '../../src/main/enhance/local-llm/llm-catalog.ts';
import { ensureRandomQwenGguf } from '../helpers/gguf-writer.ts';
import { launchApp, waitUntil } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { useScenarioSuite } from './harness/scenario-suite.ts';
import { chooseCloudSpeech } from './harness/setup-guide.ts';

const shots = path.resolve(import.meta.dirname, '../../test-results/app');

function records(dataDir: string): Record<string, unknown>[] {
  const file = path.join(dataDir, 'conversation_history.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

describe('the built app: the setup guide turns on AI with the built-in engine', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  let origin = '';
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    // Every catalog file path serves the same tiny model: the step offers whichever this machine is recommended.
    const hit = LLM_CATALOG.some((e) => req.url === `/${e.repo}/resolve/main/${e.file}`);
    if (!hit) {
      res.writeHead(404).end();
      return;
    }
    const body = fs.readFileSync(ensureRandomQwenGguf());
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  beforeAll(async () => {
    s = suite.scenario();
    fs.mkdirSync(shots, { recursive: true });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('first start → guide → AI on this computer (download) → learning on → a dictation through the local engine', async () => {
    s.llm.setTranscription(() => ({ kind: 'text', text: 'hello world' }));
    const dataDir = s.dataDir(
      {
        // The mirror setting names whisper.cpp's repository on a host; the GGUF comes from the same host.
        asr: { local: { models_mirror: `${origin}/ggerganov/whisper.cpp/resolve/main` } },
        output: { preview: false },
        // As a new install: AI off, learning off (the config defaults); small engine settings for a 2-core machine.
        ai_enhance: { enabled: false, timeout: 60, max_output_tokens: 16, conversation_history: { enabled: false }, local: { context_size: 2048, threads: 1, max_sequences: 2 } },
      },
      { noModel: true },
    );
    const a = suite.track(launchApp({ dataDir, env: s.x.env, fakeAudio: s.speech }));
    await a.waitForLog('microphone ready');
    const page = await a.page('onboarding');
    await chooseCloudSpeech(page, s.llm.baseURL, 'sk-setup-ai');

    // The AI step: on this computer is the default, learning is checked.
    await page.getByRole('heading', { name: 'Tidy the text and learn from your corrections' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Learn from what I confirm' }).isChecked()).toBe(true);
    // A model without a published checksum (the served file is the tiny random one, whose SHA-256 differs).
    const offered = recommendLlmModels(thisMachine('en', os.totalmem(), process.platform, process.arch));
    const pick = LLM_CATALOG.find((e) => offered.includes(e.name) && e.sha256 === null);
    if (pick === undefined) throw new Error(`no unchecked model among ${offered.join(', ')}`);
    await page.getByTestId('ai-local').getByRole('combobox').selectOption(pick.name);
    await page.getByTestId('ai-local').getByRole('button', { name: 'Download' }).click();
    await page.getByRole('status').getByText(/is installed: your dictations will be tidied on this computer/).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(shots, 'setup-ai-installed-en.png') });
    expect(requests).toContain(`/${pick.repo}/resolve/main/${pick.file}`);
    expect(fs.statSync(path.join(dataDir, 'models', 'llm', pick.file)).size).toBe(fs.statSync(ensureRandomQwenGguf()).size);
    const written = (): { ai_enhance: Record<string, unknown> & { conversation_history: { enabled: boolean }; providers: Record<string, { kind: string; models: string[] }> } } =>
      JSON.parse(fs.readFileSync(path.join(dataDir, 'config.json'), 'utf8')) as never;
    await waitUntil(() => written().ai_enhance.enabled === true, 10_000, 'AI on');
    const ai = written().ai_enhance;
    expect(ai).toMatchObject({ default_provider: 'local', default_model: pick.file, conversation_history: { enabled: true } });
    expect(ai.providers.local).toMatchObject({ kind: 'local', models: [pick.file] });
    await page.getByRole('button', { name: 'Set up later' }).click();

    // One dictation: recognised by the cloud service, enhanced by the built-in engine.
    const field = await s.targetField();
    await field.fill('#t', '');
    await s.xdotool('keydown', 'Alt_R');
    await new Promise((r) => setTimeout(r, 2500));
    await s.xdotool('keyup', 'Alt_R');
    await waitUntil(() => records(dataDir).length === 1, 45_000, 'the record');
    const [r] = records(dataDir) as ({ final_text: string; enhance_model?: string; usage?: { prompt_tokens: number; cached_tokens: number }; enhance_error?: string } & Record<string, unknown>)[];
    expect(r?.final_text).toBe('hello world');
    expect(await field.inputValue('#t')).toBe('hello world');
    expect(r?.usage?.prompt_tokens).toBeGreaterThan(100);
    expect((r?.usage?.cached_tokens ?? 0) / (r?.usage?.prompt_tokens ?? 1)).toBeGreaterThan(0.8);
    expect(String(r?.enhance_error)).toMatch(/truncated|diverged|empty/);
    expect(JSON.stringify(r)).toContain(pick.file);
  }, 90_000);
});
