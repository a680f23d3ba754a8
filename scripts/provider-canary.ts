#!/usr/bin/env node
/**
 * The provider canary (`npm run canary`; weekly in .github/workflows/canary.yml): for every provider preset the
 * app ships (src/main/enhance/providers/) whose key is set in the environment, one real dictation request —
 * the one Settings' Verify makes (src/main/enhance/verify-provider.ts): the enhancer's prompt and the body the
 * preset's profile builds, sent through the app's LLM client on the real `openai` SDK — and one line per
 * provider saying whether a cleaned text came back. A provider that starts refusing what Tingxie sends is
 * found here before users find it.
 *
 * Environment, per preset (KIND: the preset's kind in upper case, `-` as `_`, e.g. VOLCENGINE_ARK):
 *   TINGXIE_CANARY_<KIND>_KEY       the API key; the preset is skipped without it
 *   TINGXIE_CANARY_<KIND>_MODEL     the model (default: the preset's first, recommended model)
 *   TINGXIE_CANARY_<KIND>_BASE_URL  the endpoint (default: the preset's base URL)
 * Exit code: 0 when every checked provider passed or no key is set, 1 when one failed.
 *
 * Run by Node's type stripping like bench/run.ts: `node scripts/provider-canary.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { settingsFromConfig, type EnhancerSettings } from '../src/main/enhance/enhancer.ts';
import type { LlmProvider } from '../src/main/enhance/llm-client.ts';
import { redact } from '../src/shared/redact.ts';
import { providerPresets } from '../src/main/enhance/providers/presets.ts';
import { verifyProvider } from '../src/main/enhance/verify-provider.ts';
import { defaultConfig } from '../src/shared/config/config-schema.ts';
import type { ProviderCheckResult, ProviderPreset } from '../src/shared/ipc/provider-types.ts';
import type { ProviderKind } from '../src/shared/provider-kinds.ts';

/** The deadline of one canary request: longer than a dictation's 10 s, so one slow answer is not a broken provider. */
const CANARY_TIMEOUT_MS = 30_000;

/** One provider the canary will call. */
export interface CanaryTarget {
  readonly kind: ProviderKind;
  readonly label: string;
  readonly baseURL: string;
  readonly model: string;
  readonly apiKey: string;
}

/** The verdict on one provider. */
export interface CanaryResult {
  readonly kind: ProviderKind;
  readonly model: string;
  readonly ok: boolean;
  /** What happened, in English, without the key. */
  readonly message: string;
}

/** The canary's run: one result per provider whose key is set. */
export interface CanaryReport {
  readonly results: readonly CanaryResult[];
  readonly exitCode: 0 | 1;
}

/** The environment variable prefix of a preset: TINGXIE_CANARY_<KIND>. */
export function canaryEnvPrefix(kind: ProviderKind): string {
  return `TINGXIE_CANARY_${kind.toUpperCase().replaceAll('-', '_')}`;
}

/** Whether a preset's default base URL is a placeholder the user must replace (Azure's resource name). */
function isPlaceholderURL(url: string): boolean {
  return /YOUR-/i.test(url);
}

/** The target of one preset from the environment, null when its key is not set, or a result saying what is missing. */
function targetFor(preset: ProviderPreset, env: NodeJS.ProcessEnv): CanaryTarget | CanaryResult | null {
  const prefix = canaryEnvPrefix(preset.kind);
  const apiKey = env[`${prefix}_KEY`]?.trim() ?? '';
  if (apiKey === '') return null;
  const model = env[`${prefix}_MODEL`]?.trim() || preset.models[0] || '';
  const baseURL = env[`${prefix}_BASE_URL`]?.trim() || preset.defaultBaseURL;
  if (model === '') return { kind: preset.kind, model, ok: false, message: `the preset names no model: set ${prefix}_MODEL` };
  if (isPlaceholderURL(baseURL)) return { kind: preset.kind, model, ok: false, message: `the preset's base URL is a placeholder: set ${prefix}_BASE_URL` };
  return { kind: preset.kind, label: preset.label, baseURL, model, apiKey };
}

/** Every preset whose key is set: targets to call, and results for presets that cannot be called as configured. */
export function canaryTargets(env: NodeJS.ProcessEnv): { targets: CanaryTarget[]; misconfigured: CanaryResult[] } {
  const targets: CanaryTarget[] = [];
  const misconfigured: CanaryResult[] = [];
  // The built-in engine sends no request anywhere: its own tests run it (test/unit/main/local-llm/).
  for (const preset of providerPresets().filter((p) => p.kind !== 'local')) {
    const t = targetFor(preset, env);
    if (t === null) continue;
    if ('apiKey' in t) targets.push(t);
    else misconfigured.push(t);
  }
  return { targets, misconfigured };
}

/** The settings of a fresh install (thinking off, the proofread mode, English), with the canary's deadline. */
function canarySettings(model: string): EnhancerSettings {
  const s = settingsFromConfig(defaultConfig(), 'en');
  return { ...s, model, timeoutMs: Math.max(s.timeoutMs, CANARY_TIMEOUT_MS), connectTimeoutMs: Math.max(s.connectTimeoutMs, CANARY_TIMEOUT_MS) };
}

/** Verify's sentence, plus the provider's own words when it refused: what a maintainer needs to fix the profile. */
function describeCheck(r: ProviderCheckResult): string {
  if (r.refusal === null) return r.message;
  const what = [r.refusal.field && `field ${r.refusal.field}`, r.refusal.model && `model ${r.refusal.model}`].filter(Boolean).join(', ');
  return `${r.message} (the provider said${what ? ` about ${what}` : ''}: ${r.refusal.providerMessage})`;
}

/** Makes the one request of a target and says how it went. */
async function checkTarget(t: CanaryTarget, dataDir: string): Promise<CanaryResult> {
  const provider: LlmProvider = { id: `canary-${t.kind}`, kind: t.kind, baseURL: t.baseURL, apiKey: t.apiKey };
  let message: string;
  let ok = false;
  try {
    const r = await verifyProvider(provider, canarySettings(t.model), { dataDir });
    ok = r.ok;
    message = describeCheck(r);
  } catch (e) {
    // verifyProvider reports provider problems as results; a throw is a bug worth the same alarm.
    message = `canary error: ${e instanceof Error ? e.message : String(e)}`;
  }
  // The report is printed and filed as an issue: no key in it, whatever a provider echoed.
  return { kind: t.kind, model: t.model, ok, message: redact(message, [t.apiKey]) };
}

/** Checks every preset whose key is set in `env`, one after another, printing one line each through `print`. */
export async function runCanary(env: NodeJS.ProcessEnv, print: (line: string) => void = console.log): Promise<CanaryReport> {
  const { targets, misconfigured } = canaryTargets(env);
  if (targets.length === 0 && misconfigured.length === 0) {
    print('provider canary: no provider key is set (TINGXIE_CANARY_<KIND>_KEY): nothing to check.');
    return { results: [], exitCode: 0 };
  }
  const results: CanaryResult[] = [...misconfigured];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-canary-'));
  try {
    for (const t of targets) results.push(await checkTarget(t, dataDir));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  for (const r of results) print(`${r.ok ? 'PASS' : 'FAIL'} ${r.kind} · ${r.model || '(no model)'}: ${r.message}`);
  const failed = results.filter((r) => !r.ok).length;
  print(`provider canary: ${results.length - failed} passed, ${failed} failed`);
  return { results, exitCode: failed === 0 ? 0 : 1 };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = await runCanary(process.env);
  process.exitCode = report.exitCode;
}
