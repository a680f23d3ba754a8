import type { ProviderKind } from '../../../shared/provider-kinds.ts';
import { cerebrasProfile } from './cerebras.ts';
import { dashScopeProfile } from './dashscope.ts';
import { deepSeekProfile } from './deepseek.ts';
import { geminiProfile } from './gemini.ts';
import { groqProfile } from './groq.ts';
import { llamaCppProfile, lmStudioProfile, vllmProfile } from './local-servers.ts';
import { localProfile } from './local.ts';
import { mistralProfile } from './mistral.ts';
import { moonshotProfile } from './moonshot.ts';
import { ollamaProfile } from './ollama.ts';
import { azureOpenAiProfile, openAiProfile } from './openai.ts';
import { openRouterProfile } from './openrouter.ts';
import { CORE_FIELDS, OPENAI_USAGE, cacheRule, plainRules, type ProviderProfile } from './profile.ts';
import { siliconFlowProfile } from './siliconflow.ts';
import { volcengineArkProfile } from './volcengine-ark.ts';
import { zhipuProfile } from './zhipu.ts';

/*
 * "Other": any OpenAI-compatible server Tingxie has no profile for. Only the core fields of the OpenAI chat API
 * (https://platform.openai.com/docs/api-reference/chat/create) and no thinking field, since every server has its
 * own; add one through extra_body.
 */

/** Any other OpenAI-compatible server. */
export const otherProfile: ProviderProfile = {
  kind: 'other',
  label: 'Other (OpenAI-compatible)',
  docs: ['https://platform.openai.com/docs/api-reference/chat/create'],
  defaultBaseURL: 'http://localhost:8000/v1',
  fields: CORE_FIELDS,
  models: [],
  usage: OPENAI_USAGE,
  rules: () => plainRules(),
  cache: () => cacheRule('unknown', 0, 1, 'unknown for this server'),
  contextWindow: () => undefined,
};

/** Every profile by kind. */
export const PROFILES: Readonly<Record<ProviderKind, ProviderProfile>> = {
  openai: openAiProfile,
  'azure-openai': azureOpenAiProfile,
  deepseek: deepSeekProfile,
  dashscope: dashScopeProfile,
  moonshot: moonshotProfile,
  zhipu: zhipuProfile,
  siliconflow: siliconFlowProfile,
  'volcengine-ark': volcengineArkProfile,
  groq: groqProfile,
  cerebras: cerebrasProfile,
  mistral: mistralProfile,
  gemini: geminiProfile,
  openrouter: openRouterProfile,
  local: localProfile,
  ollama: ollamaProfile,
  lmstudio: lmStudioProfile,
  vllm: vllmProfile,
  llamacpp: llamaCppProfile,
  other: otherProfile,
};

/** The profile of a kind ('other' when absent). */
export function profileFor(kind: ProviderKind | undefined): ProviderProfile {
  return PROFILES[kind ?? 'other'];
}
