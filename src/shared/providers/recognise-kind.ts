import { PROVIDER_KINDS, type ProviderKind } from '../provider-kinds.ts';

/*
 * Which provider kind a base URL belongs to, for the one-time migration of a config written before `kind`
 * existed (src/main/settings/migrations.ts) and the Verify advice (src/main/enhance/verify-provider.ts).
 * Request code never calls this: it asks the profile chosen by the config's `kind`
 * (src/main/enhance/providers/registry.ts). Kept here so settings need not import enhance, its peer.
 */

/** True when the URL's host is `host` or one of its subdomains. */
export function hostIs(url: URL, ...hosts: readonly string[]): boolean {
  const h = url.hostname.toLowerCase();
  return hosts.some((x) => h === x || h.endsWith(`.${x}`));
}

/** Each kind's hosts (its documented base URL), or for a local server its default port. */
const RECOGNISERS: Readonly<Record<ProviderKind, (url: URL) => boolean>> = {
  openai: (url) => hostIs(url, 'api.openai.com'),
  'azure-openai': (url) => hostIs(url, 'openai.azure.com', 'cognitiveservices.azure.com', 'services.ai.azure.com'),
  deepseek: (url) => hostIs(url, 'deepseek.com'),
  dashscope: (url) => hostIs(url, 'aliyuncs.com'),
  moonshot: (url) => hostIs(url, 'moonshot.cn', 'moonshot.ai', 'kimi.ai', 'kimi.com'),
  zhipu: (url) => hostIs(url, 'bigmodel.cn', 'z.ai'),
  siliconflow: (url) => hostIs(url, 'siliconflow.cn', 'siliconflow.com'),
  'volcengine-ark': (url) => hostIs(url, 'volces.com', 'bytepluses.com'),
  groq: (url) => hostIs(url, 'groq.com'),
  cerebras: (url) => hostIs(url, 'cerebras.ai'),
  mistral: (url) => hostIs(url, 'mistral.ai'),
  gemini: (url) => hostIs(url, 'generativelanguage.googleapis.com'),
  openrouter: (url) => hostIs(url, 'openrouter.ai'),
  // The built-in engine has no server: a URL never names it.
  local: () => false,
  ollama: (url) => url.port === '11434',
  lmstudio: (url) => url.port === '1234',
  vllm: (url) => url.port === '8000',
  llamacpp: (url) => url.port === '8080',
  other: () => false,
};

/**
 * The kind a base URL belongs to. Provider hosts are checked before the local servers' default ports
 * (PROVIDER_KINDS order); anything else is 'other'.
 */
export function recogniseKind(baseURL: string): ProviderKind {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return 'other';
  }
  for (const kind of PROVIDER_KINDS) if (RECOGNISERS[kind](url)) return kind;
  return 'other';
}
