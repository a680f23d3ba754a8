import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { PROFILES } from '../../../src/main/enhance/providers/registry.ts';
import { PROVIDER_KINDS, type ProviderKind } from '../../../src/shared/provider-kinds.ts';
import { STRICT_PROVIDERS, refusalFor } from '../../helpers/strict-providers.ts';

/**
 * `tingxie enhance --dry-run` prints the request the provider's profile builds: for every
 * preset, with its default base URL and representative models, thinking off and on, the printed body carries only
 * fields that provider accepts and nothing its strict emulation (test/helpers/strict-providers.ts) would refuse.
 */

const MODELS: Readonly<Record<ProviderKind, readonly string[]>> = {
  openai: ['gpt-4.1', 'gpt-5-mini', 'gpt-5.1', 'gpt-5-chat-latest', 'o4-mini'],
  'azure-openai': ['gpt-5-mini', 'gpt-4.1-mini'],
  deepseek: ['deepseek-v4-flash', 'deepseek-v4-pro'],
  dashscope: ['qwen-plus', 'qwen3-235b-a22b-thinking-2507'],
  moonshot: ['kimi-k2.6', 'moonshot-v1-32k'],
  zhipu: ['glm-4.7'],
  siliconflow: ['Qwen/Qwen3-8B', 'Qwen/Qwen2.5-7B-Instruct'],
  'volcengine-ark': ['doubao-seed-1-6-flash-250828', 'ep-20250601123456-abcde'],
  groq: ['llama-3.3-70b-versatile', 'openai/gpt-oss-20b', 'qwen/qwen3-32b'],
  cerebras: ['gpt-oss-120b', 'zai-glm-4.7'],
  mistral: ['mistral-small-latest', 'mistral-large-latest'],
  gemini: ['gemini-2.5-flash', 'gemini-2.5-pro'],
  openrouter: ['deepseek/deepseek-r1', 'openai/gpt-4o-mini'],
  local: ['qwen2.5-1.5b-instruct-q4_k_m.gguf'],
  ollama: ['qwen3:8b', 'qwen2.5:7b'],
  lmstudio: ['qwen3-8b'],
  vllm: ['Qwen/Qwen3-8B'],
  llamacpp: ['qwen3-8b'],
  other: ['test-model'],
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function dryRun(dir: string, kind: ProviderKind, model: string, thinking: boolean): Promise<Record<string, unknown>> {
  const config = { version: 2, ai_enhance: { providers: { p: { kind, base_url: PROFILES[kind].defaultBaseURL, models: [model] } }, default_provider: 'p', default_model: model, thinking } };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['enhance', '--dry-run', '今天下午三点开会', '--data-dir', dir], { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env: {} });
  expect(code, err.join('')).toBe(0);
  return JSON.parse(out.join('')) as Record<string, unknown>;
}

describe('tingxie enhance --dry-run, per provider preset', () => {
  it('covers every preset', () => {
    expect(Object.keys(MODELS).sort()).toEqual([...PROVIDER_KINDS].sort());
  });

  for (const kind of PROVIDER_KINDS) {
    it(`${kind}: the printed body has only fields the provider accepts, thinking off and on`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-dry-'));
      dirs.push(dir);
      const spec = STRICT_PROVIDERS[kind];
      for (const model of MODELS[kind]) {
        for (const thinking of [false, true]) {
          const body = await dryRun(dir, kind, model, thinking);
          const what = `${kind} ${model} thinking ${thinking ? 'on' : 'off'}: ${JSON.stringify({ ...body, messages: '…' })}`;
          expect(body.model, what).toBe(model);
          expect(Object.keys(body).filter((k) => !spec.accepted.includes(k)), what).toEqual([]);
          expect(refusalFor(spec, body), what).toBeNull();
        }
      }
    });
  }
});
