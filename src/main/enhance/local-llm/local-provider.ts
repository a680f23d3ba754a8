import path from 'node:path';
import type { CallUsage, ChatMessage, ChatOutcome, StreamEvent } from '../llm-client.ts';
import { ThinkStream } from '../think-split.ts';
import type { LoadParams, PromptPiece } from './llm-protocol.ts';
import type { LocalLlm} from './local-llm.ts';
import { LocalLlmError } from './local-llm.ts';

/*
 * The built-in engine as a provider (`kind: local`): the enhancer's built request becomes ChatML pieces
 * (Qwen2.5 and Qwen3 instruct models use ChatML: https://qwen.readthedocs.io/en/latest/getting_started/concepts.html#control-tokens-chat-template),
 * the answer streams through the same <think> split as a server's, and the outcome has the shape of
 * llm-client.ts's, so the guard, the cache report and the stats treat it like any provider.
 */

/** `ai_enhance.local` settings the engine reads. */
export interface LocalEngineSettings {
  readonly contextSize: number;
  readonly threads: number;
  readonly maxSequences: number;
  readonly memoryMb: number;
  readonly idleUnloadMinutes: number;
}

/** Defaults of `ai_enhance.local` (the config schema repeats them). */
export const LOCAL_ENGINE_DEFAULTS: LocalEngineSettings = { contextSize: 4096, threads: 0, maxSequences: 4, memoryMb: 1024, idleUnloadMinutes: 10 };

/** Folder (under the data folder) where downloaded GGUF models live. */
export const LLM_MODELS_DIR = path.join('models', 'llm');

/**
 * How long a local request may wait for the engine before it starts answering (process start, model load,
 * an earlier request): the dictation's deadline counts only once the engine starts on it, so a slow first
 * load does not drop the text to raw, but a wedged engine still gives the raw text back.
 */
export const LOCAL_START_CAP_MS = 120_000;

/** The model file: an absolute path, or a file name in `<dataDir>/models/llm`. */
export function localModelPath(dataDir: string, model: string): string {
  return path.isAbsolute(model) ? model : path.join(dataDir, LLM_MODELS_DIR, model);
}

/** Load parameters from the settings. */
export function loadParamsFor(modelPath: string, s: LocalEngineSettings): LoadParams {
  return { modelPath, contextSize: s.contextSize, threads: s.threads, maxSequences: s.maxSequences, memoryBudgetBytes: s.memoryMb * 1024 * 1024 };
}

const IM_START: PromptPiece = { text: '<|im_start|>', special: true };
const IM_END: PromptPiece = { text: '<|im_end|>', special: true };

/**
 * The ChatML pieces of a request, and the prefix of them that holds only `stablePrefix` (the start of the
 * system message that does not depend on the input). Qwen3 with thinking off gets the empty think block its
 * template writes for enable_thinking=false (https://huggingface.co/Qwen/Qwen3-0.6B, "Switching Between
 * Thinking and Non-Thinking Mode").
 */
export function chatPieces(messages: readonly ChatMessage[], stablePrefix: string, opts: { thinking: boolean; model: string }): { prefix: PromptPiece[]; all: PromptPiece[] } {
  const all: PromptPiece[] = [];
  let prefix: PromptPiece[] = [];
  for (const [i, m] of messages.entries()) {
    all.push(IM_START);
    if (i === 0 && m.role === 'system' && stablePrefix !== '' && m.content.startsWith(stablePrefix)) {
      all.push({ text: `system\n${stablePrefix}` });
      prefix = [...all];
      all.push({ text: m.content.slice(stablePrefix.length) });
    } else all.push({ text: `${m.role}\n${m.content}` });
    all.push(IM_END, { text: '\n' });
  }
  all.push(IM_START, { text: 'assistant\n' });
  if (!opts.thinking && /qwen-?3/i.test(path.basename(opts.model))) all.push({ text: '<think>\n\n</think>\n\n' });
  return { prefix, all };
}

/** One local chat, as llm-client's streamChat reports a server's. */
export async function localChat(
  llm: LocalLlm,
  params: LoadParams,
  o: { key: string; messages: readonly ChatMessage[]; stablePrefix: string; maxTokens: number; temperature: number; thinking: boolean; timeoutMs: number; ignoreEos?: boolean; signal?: AbortSignal; onEvent?: (e: StreamEvent) => void },
): Promise<ChatOutcome> {
  const ac = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const startCap = setTimeout(() => ac.abort(), LOCAL_START_CAP_MS);
  const onUser = (): void => ac.abort();
  o.signal?.addEventListener('abort', onUser, { once: true });
  const split = new ThinkStream();
  const { all } = chatPieces(o.messages, o.stablePrefix, { thinking: o.thinking, model: params.modelPath });
  try {
    const r = await llm.chat(params, {
      key: o.key, pieces: all, gen: { maxTokens: o.maxTokens, temperature: o.temperature, ...(o.ignoreEos === true ? { ignoreEos: true } : {}) }, signal: ac.signal,
      onStarted: () => {
        clearTimeout(startCap);
        timer = setTimeout(() => {
          timedOut = true;
          ac.abort();
        }, Math.max(0, o.timeoutMs));
      },
      onDelta: (text) => {
        const out = split.push(text);
        if (out.thinking) o.onEvent?.({ type: 'thinking', text: out.thinking });
        if (out.answer) o.onEvent?.({ type: 'answer', text: out.answer });
      },
    });
    const usage: CallUsage = { prompt_tokens: r.promptTokens, completion_tokens: r.completionTokens, cached_tokens: r.cachedTokens };
    if (r.finish === 'cancelled') {
      const reason = o.signal?.aborted ? { code: 'cancelled', message: 'cancelled' } as const : { code: 'timeout', message: timedOut ? 'the local model did not finish before the deadline' : 'the local engine did not start in time' } as const;
      return { ok: false, reason, attempts: 1, usage };
    }
    if (r.finish === 'length') return { ok: false, reason: { code: 'truncated', message: 'the answer hit the output token limit' }, attempts: 1, usage };
    const s = split.result();
    return { ok: true, answer: s.answer.trim(), thinking: s.thinking, usage, attempts: 1 };
  } catch (err) {
    const e = err instanceof LocalLlmError ? err : new LocalLlmError('engine-failed', String(err));
    if (e.code === 'cancelled') return { ok: false, reason: { code: 'cancelled', message: 'cancelled' }, attempts: 1 };
    if (e.code === 'too-long') return { ok: false, reason: { code: 'too-long', message: e.message }, attempts: 1 };
    const code = e.code === 'engine-crashed' ? 'server' : 'bad-response';
    return { ok: false, reason: { code, message: `local engine: ${e.message}` }, attempts: 1 };
  } finally {
    clearTimeout(startCap);
    if (timer) clearTimeout(timer);
    o.signal?.removeEventListener('abort', onUser);
  }
}
