import type { ProviderKind } from '../../src/shared/provider-kinds.ts';
import { CLOUD_SPECS } from './strict-provider-specs.ts';
import { INTL_SPECS } from './strict-provider-specs-intl.ts';
import { LOCAL_SPECS } from './strict-provider-specs-local.ts';

/**
 * Strict provider emulation for the OpenAI test server: per provider, what its documentation and public issue
 * threads (named in test/helpers/strict-provider-specs*.ts) say it refuses, with its own error shape and status, how
 * it reports usage in a stream, and how it counts cached prompt tokens. Written from those sources, not from
 * Tingxie's profiles, so a contract test against it catches a profile that disagrees with the provider.
 */

/** A request body as the server parsed it. */
export type Body = Readonly<Record<string, unknown>>;

/** What the server answers instead of a completion. */
export interface Refusal {
  readonly status: number;
  readonly body: unknown;
}

/** How a provider counts cached prompt tokens (the server applies it to o200k tokens of the prompt). */
export type CacheCount =
  /** OpenAI: the shared prefix from 1024 tokens on, in 128-token steps. */
  | { readonly kind: 'blocks'; readonly min: number; readonly step: number }
  /** DeepSeek: only whole prefix units (earlier prompts, and common prefixes of earlier prompts) hit. */
  | { readonly kind: 'units' }
  /** The shared prefix when it is at least `min` tokens, else 0. */
  | { readonly kind: 'min-prefix'; readonly min: number }
  /** Nothing cached (the field is still present, as 0) or not reported at all. */
  | { readonly kind: 'zero' }
  | { readonly kind: 'unreported' };

/** Where and how usage is reported in a stream. */
export interface UsageStyle {
  /** openai: prompt_tokens_details.cached_tokens; deepseek: prompt_cache_hit/miss_tokens; moonshot: cached_tokens; plain: no cache field. */
  readonly shape: 'openai' | 'deepseek' | 'moonshot' | 'plain';
  /** include-usage: a last chunk with empty choices, only when stream_options.include_usage is set; finish-chunk:
   * on the chunk with finish_reason, always; choice: inside choices[0] of that chunk, always (Moonshot). */
  readonly place: 'include-usage' | 'finish-chunk' | 'choice';
}

/** One provider's strict behaviour. */
export interface StrictSpec {
  readonly kind: ProviderKind;
  /** Top-level request fields the provider accepts. */
  readonly accepted: readonly string[];
  /** reject: an unknown field is refused with `unknownField`; ignore: dropped, as the real server does. */
  readonly unknown: 'reject' | 'ignore';
  readonly unknownField: (fields: readonly string[]) => Refusal;
  /** Model-specific checks (model name, token field, temperature, thinking value): a refusal or null. */
  readonly check: (body: Body, model: string) => Refusal | null;
  /** Whether the model reasons visibly for this request (reasoning it streams). */
  readonly thinks: (body: Body, model: string) => boolean;
  /** How visible reasoning is streamed. */
  readonly reasoningField: 'reasoning_content' | 'reasoning' | 'think-tag';
  readonly usage: UsageStyle;
  readonly cache: (model: string) => CacheCount;
}

/** Every strict provider by kind. */
export const STRICT_PROVIDERS: Readonly<Record<ProviderKind, StrictSpec>> = { ...CLOUD_SPECS, ...INTL_SPECS, ...LOCAL_SPECS };

/** The first refusal the provider gives a body, or null when it accepts it. */
export function refusalFor(spec: StrictSpec, body: Body): Refusal | null {
  const model = typeof body.model === 'string' ? body.model : '';
  const unknown = Object.keys(body).filter((k) => !spec.accepted.includes(k));
  if (unknown.length > 0 && spec.unknown === 'reject') return spec.unknownField(unknown);
  return spec.check(body, model);
}

/** Cached tokens under a rule, given the prompt's tokens and the earlier prompts of the same model (mutated: the prompt is remembered). */
export function countCached(rule: CacheCount, tokens: readonly number[], memory: { prompts: number[][]; units: number[][] }): number {
  let shared = 0;
  for (const p of memory.prompts) shared = Math.max(shared, commonPrefix(p, tokens));
  let hit = 0;
  switch (rule.kind) {
    case 'blocks':
      hit = shared < rule.min ? 0 : Math.floor(shared / rule.step) * rule.step;
      break;
    case 'min-prefix':
      hit = shared >= rule.min ? shared : 0;
      break;
    case 'units':
      for (const u of memory.units) if (u.length <= tokens.length && commonPrefix(u, tokens) === u.length) hit = Math.max(hit, u.length);
      // Persisted after this request: the request itself, and its common prefix with each earlier prompt.
      for (const p of memory.prompts) {
        const n = commonPrefix(p, tokens);
        if (n > 0 && !memory.units.some((u) => u.length === n && commonPrefix(u, tokens) === n)) memory.units.push(tokens.slice(0, n));
      }
      memory.units.push([...tokens]);
      break;
    case 'zero':
    case 'unreported':
      hit = 0;
      break;
    default: {
      const never: never = rule;
      throw new Error(`unknown cache rule ${JSON.stringify(never)}`);
    }
  }
  memory.prompts.push([...tokens]);
  return Math.min(hit, tokens.length);
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** The usage object in the provider's shape. */
export function usageIn(shape: UsageStyle['shape'], prompt: number, completion: number, cached: number, rule: CacheCount): Record<string, unknown> {
  const base = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (rule.kind === 'unreported' || shape === 'plain') return base;
  switch (shape) {
    case 'openai':
      return { ...base, prompt_tokens_details: { cached_tokens: cached } };
    case 'deepseek':
      return { ...base, prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: prompt - cached };
    case 'moonshot':
      return { ...base, cached_tokens: cached };
    default: {
      const never: never = shape;
      throw new Error(`unknown usage shape ${String(never)}`);
    }
  }
}
