import type { LlmProvider } from './llm-client.ts';

/**
 * The context window a provider says it serves for a model, looked up once per provider + model:
 * - Ollama: the window is the server's, not the model's. `POST /api/show` gives the model's trained
 *   length (`model_info["<arch>.context_length"]`) and a `num_ctx` the Modelfile sets (`parameters`);
 *   `GET /api/ps` gives the `context_length` a loaded model was given. Without either, Ollama's default
 *   applies: 4096 tokens below 24 GiB of VRAM in current releases (docs/context-length.mdx: "< 24 GiB VRAM:
 *   4k context"; docs/faq.md "How can I specify the context window size?"), 2048 before 0.6 — we take 4096,
 *   the smallest current default, capped by the model's own length; `ai_enhance.context_window` overrides.
 *   https://github.com/ollama/ollama/blob/main/docs/api.md#show-model-information
 * - Providers whose model list carries a length (`GET {base}/models`): OpenRouter `context_length`
 *   (openrouter.ai/docs/api-reference/list-available-models), Groq `context_window`
 *   (console.groq.com/docs/models), vLLM `max_model_len` (docs.vllm.ai, OpenAI-compatible server). Other
 *   providers are not asked (their lists say nothing about windows).
 * A failed lookup (server down, no such field) is remembered for a minute, a found one for the session.
 */

/** Ollama's default context when neither the Modelfile nor the loaded model says otherwise (docs/context-length.mdx). */
export const OLLAMA_DEFAULT_NUM_CTX = 4096;

/** Where a window came from. */
export type WindowSource = 'config' | 'ollama-num-ctx' | 'ollama-loaded' | 'ollama-default' | 'model-list' | 'profile' | 'table';

export interface ProviderWindow {
  readonly tokens: number;
  readonly source: WindowSource;
  /** The model's trained length where the provider reports it (Ollama). */
  readonly modelMax?: number;
}

type Fetch = typeof fetch;
/** Providers whose model list carries each model's window (see above); others are not asked. */
const MODEL_LIST_KINDS: ReadonlySet<string> = new Set(['openrouter', 'groq', 'vllm']);
const FAILURE_TTL_MS = 60_000;
const LOOKUP_TIMEOUT_MS = 1500;

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
}

/** The server root of an OpenAI-compatible base URL (`http://host:11434/v1` → `http://host:11434`). */
function ollamaRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
}

async function getJson(f: Fetch, url: string, init: RequestInit = {}): Promise<unknown> {
  const res = await f(url, { ...init, signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json() as Promise<unknown>;
}

/** Reads Ollama's `/api/show` (and `/api/ps` for a loaded model) for `model`. */
export async function ollamaWindow(baseURL: string, model: string, f: Fetch = fetch): Promise<ProviderWindow | undefined> {
  const root = ollamaRoot(baseURL);
  const show = (await getJson(f, `${root}/api/show`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model }) })) as {
    model_info?: Record<string, unknown>; parameters?: unknown;
  };
  let modelMax: number | undefined;
  for (const [k, v] of Object.entries(show.model_info ?? {})) if (k.endsWith('.context_length')) modelMax = num(v) ?? modelMax;
  const cap = (n: number): number => (modelMax ? Math.min(n, modelMax) : n);
  const withMax = modelMax ? { modelMax } : {};
  try {
    const ps = (await getJson(f, `${root}/api/ps`)) as { models?: { name?: string; model?: string; context_length?: unknown }[] };
    const loaded = ps.models?.find((m) => m.name === model || m.model === model || m.name === `${model}:latest`);
    const n = num(loaded?.context_length);
    if (n) return { tokens: n, source: 'ollama-loaded', ...withMax };
  } catch {
    // /api/ps is optional (older servers have no context_length there)
  }
  const param = typeof show.parameters === 'string' ? /^num_ctx\s+(\d+)/m.exec(show.parameters) : null;
  if (param?.[1]) return { tokens: cap(Number(param[1])), source: 'ollama-num-ctx', ...withMax };
  return { tokens: cap(OLLAMA_DEFAULT_NUM_CTX), source: 'ollama-default', ...withMax };
}

/** Reads the model list (`GET {baseURL}/models`) for `model`'s length where the provider includes one. */
export async function modelListWindow(provider: LlmProvider, model: string, f: Fetch = fetch): Promise<ProviderWindow | undefined> {
  const headers: Record<string, string> = provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {};
  const list = (await getJson(f, `${provider.baseURL.replace(/\/+$/, '')}/models`, { headers })) as { data?: Record<string, unknown>[] };
  const entry = list.data?.find((m) => m.id === model);
  if (!entry) return undefined;
  const top = entry.top_provider as Record<string, unknown> | undefined;
  const n = num(entry.context_length) ?? num(entry.context_window) ?? num(entry.max_model_len) ?? num(entry.max_context_length) ?? num(top?.context_length);
  return n ? { tokens: n, source: 'model-list' } : undefined;
}

/** Per provider + model cache of the provider's answer. */
export class ContextWindowLookup {
  private readonly cache = new Map<string, { at: number; value: Promise<ProviderWindow | undefined>; ok: boolean }>();
  private readonly fetchImpl: Fetch;
  private readonly now: () => number;

  constructor(opts: { fetch?: Fetch; now?: () => number } = {}) {
    this.fetchImpl = opts.fetch ?? fetch;
    this.now = opts.now ?? Date.now;
  }

  /** The provider's window for `model` (cached; undefined when it does not say or cannot be reached). */
  resolve(provider: LlmProvider | undefined, model: string): Promise<ProviderWindow | undefined> {
    if (!provider) return Promise.resolve(undefined);
    const key = `${provider.id}\u0000${provider.baseURL}\u0000${model}`;
    const hit = this.cache.get(key);
    if (hit && (hit.ok || this.now() - hit.at < FAILURE_TTL_MS)) return hit.value;
    const entry = { at: this.now(), ok: false, value: Promise.resolve<ProviderWindow | undefined>(undefined) };
    const ask = provider.kind === 'ollama' ? ollamaWindow(provider.baseURL, model, this.fetchImpl)
      : provider.kind !== undefined && MODEL_LIST_KINDS.has(provider.kind) ? modelListWindow(provider, model, this.fetchImpl)
      : Promise.resolve(undefined); // the provider's list says nothing about windows: the profile and the table apply
    entry.value = ask.then(
      (w) => {
        entry.ok = w !== undefined;
        return w;
      },
      () => undefined,
    );
    this.cache.set(key, entry);
    return entry.value;
  }
}

/** The app's lookup (dictation, Settings' report and the CLI share its cache within a process). */
export const contextWindowLookup = new ContextWindowLookup();
