/**
 * The provider presets of the AI enhancement (`ai_enhance.providers.<id>.kind`). Each kind has one profile
 * in src/main/enhance/providers/ that says, from the provider's documentation, which request it accepts;
 * `other` is any OpenAI-compatible server and gets only the core OpenAI fields; `local` is the built-in engine
 * (src/main/enhance/local-llm/), which takes no HTTP request at all. Kept here (environment-free)
 * so the config schema and the Settings UI share the one list.
 */

/** Every provider kind, in the order Settings lists them. */
export const PROVIDER_KINDS = [
  'openai', 'azure-openai', 'deepseek', 'dashscope', 'moonshot', 'zhipu', 'siliconflow', 'volcengine-ark', 'groq', 'cerebras',
  'mistral', 'gemini', 'openrouter', 'local', 'ollama', 'lmstudio', 'vllm', 'llamacpp', 'other',
] as const;

/** A provider kind. */
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** True for a known provider kind. */
export function isProviderKind(v: unknown): v is ProviderKind {
  return typeof v === 'string' && (PROVIDER_KINDS as readonly string[]).includes(v);
}
