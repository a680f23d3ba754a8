/**
 * scripts/provider-canary.ts, run as the canary workflow runs it (`node scripts/provider-canary.ts`, Node's type
 * stripping), against local servers as strict as each provider (test/helpers/strict-providers.ts): with every
 * preset's key set and its base URL pointed at its strict server, every preset passes with one real request
 * through the app's own request builder and `openai` client; a provider that refuses the request is reported
 * as a failure (exit 1) without the key; with no key set it says so and exits 0.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { providerPresets } from '../../../src/main/enhance/providers/presets.ts';
import type { ProviderKind } from '../../../src/shared/provider-kinds.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../helpers/openai-test-server.ts';
import { canaryEnvPrefix } from '../../../scripts/provider-canary.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const SCRIPT = path.join(root, 'scripts/provider-canary.ts');
const KEY = 'sk-canary-TINGXIE-0123456789abcdefSECRET';

/** The environment without any canary variable of the machine running the tests. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TINGXIE_CANARY_')));
}

/** Runs the canary script in its own Node process (asynchronously: the servers answer from this one). */
function runScript(env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT], { cwd: root, env, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

const servers: OpenAiTestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** A server as strict as the provider `kind`, and the canary variables that point the preset at it. */
async function strictTarget(kind: ProviderKind, model?: string): Promise<{ server: OpenAiTestServer; env: Record<string, string> }> {
  const server = await startOpenAiTestServer({ strict: kind });
  servers.push(server);
  const prefix = canaryEnvPrefix(kind);
  return { server, env: { [`${prefix}_KEY`]: KEY, [`${prefix}_BASE_URL`]: server.baseURL, ...(model !== undefined ? { [`${prefix}_MODEL`]: model } : {}) } };
}

const chatCalls = (s: OpenAiTestServer): number => s.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

describe('scripts/provider-canary.ts', () => {
  it('every preset the app ships passes against its strict server, with one chat request each', async () => {
    // The built-in engine ('local') has no server to call: the canary leaves it out.
    const presets = providerPresets().filter((p) => p.kind !== 'local');
    // Presets without a model list (local servers, "other") name one, as a user of such a server would.
    const targets = await Promise.all(presets.map((p) => strictTarget(p.kind, p.models.length === 0 ? 'test-model' : undefined)));
    const { code, output } = await runScript({ ...cleanEnv(), ...Object.assign({}, ...targets.map((t) => t.env)) });
    expect(output).toContain(`provider canary: ${presets.length} passed, 0 failed`);
    expect(code).toBe(0);
    for (const p of presets) expect(output).toMatch(new RegExp(`^PASS ${p.kind} · `, 'm'));
    for (const [i, t] of targets.entries()) {
      expect(t.server.refusals, presets[i]?.kind).toEqual([]);
      expect(chatCalls(t.server), presets[i]?.kind).toBe(1);
    }
    expect(output).not.toContain(KEY);
  }, 120_000);

  it('a provider that refuses the request is reported as a failure, without the key, and the run exits 1', async () => {
    // DeepSeek refuses its retired model names (strict-provider-specs.ts): a request the provider no longer takes.
    const refusing = await strictTarget('deepseek', 'deepseek-chat');
    const passing = await strictTarget('openai');
    const { code, output } = await runScript({ ...cleanEnv(), ...refusing.env, ...passing.env });
    expect(code).toBe(1);
    expect(output).toMatch(/^FAIL deepseek · deepseek-chat: refused: .*the provider said.*: The supported API model names are deepseek-v4-pro or deepseek-v4-flash/m);
    expect(output).toMatch(/^PASS openai · /m);
    expect(output).toContain('provider canary: 1 passed, 1 failed');
    expect(refusing.server.refusals).toHaveLength(1);
    expect(output).not.toContain(KEY);
  }, 60_000);

  it('says so and exits 0 when no provider key is set', async () => {
    const { code, output } = await runScript(cleanEnv());
    expect(code).toBe(0);
    expect(output).toContain('no provider key is set');
  }, 30_000);
});
