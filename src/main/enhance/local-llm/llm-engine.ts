import fs from 'node:fs';
import type { Llama, LlamaContext, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type { GenerateParams, LlmMemory, LoadParams, PromptPiece } from './llm-protocol.ts';

/*
 * The llama.cpp side of the local LLM host (runs inside llm-host.ts's process, never in main): one model,
 * one context with one KV-cache sequence per recently used key (a mode), least recently used reused first.
 * Every evaluation first keeps the longest common token prefix of what the sequence already holds
 * (LlamaContextSequence.compareContextTokens) and erases only the rest, so a prefix warmed at key-down,
 * or the previous request of the same mode, is not evaluated again. node-llama-cpp's API:
 * https://node-llama-cpp.withcat.ai/api/classes/LlamaContextSequence (evaluate, evaluateWithoutGeneratingNewTokens,
 * compareContextTokens, eraseContextTokenRanges) and /guide/choosing-a-model#memory (the size estimate).
 */

/** Thrown with a code the protocol reports. */
export class EngineError extends Error {
  readonly code: 'engine-not-available' | 'model-missing' | 'model-invalid' | 'not-loaded' | 'too-long';
  constructor(code: EngineError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

interface Slot {
  key: string | null;
  readonly seq: LlamaContextSequence;
  used: number;
}

/** How much of a prompt an evaluation took from the cache. */
export interface Aligned {
  readonly slot: Slot;
  readonly tokens: Token[];
  readonly reused: number;
}

/** Streamed pieces of an answer and how it ended. */
export interface Generated {
  readonly completionTokens: number;
  readonly finish: 'stop' | 'length' | 'cancelled';
}

let llamaPromise: Promise<Llama> | undefined;

/** The llama.cpp binding: the prebuilt binary for this platform, never a build or a download at run time. */
async function llamaBinding(): Promise<Llama> {
  llamaPromise ??= import('node-llama-cpp').then((m) =>
    // gpu 'auto' picks Metal on Apple silicon and CUDA/Vulkan where their prebuilt binaries load; 'never' build:
    // the app ships prebuilt binaries only (https://node-llama-cpp.withcat.ai/api/type-aliases/LlamaOptions).
    m.getLlama({ gpu: process.env.TINGXIE_LLM_GPU === 'off' ? false : 'auto', build: 'never', progressLogs: false, logLevel: m.LlamaLogLevel.error }),
  );
  try {
    return await llamaPromise;
  } catch (err) {
    llamaPromise = undefined;
    throw new EngineError('engine-not-available', `the llama.cpp runtime could not load: ${(err as Error).message}`);
  }
}

/** The engine: one loaded model, its sequences and their caches. */
export class LlmEngine {
  private model: LlamaModel | undefined;
  private context: LlamaContext | undefined;
  private params: LoadParams | undefined;
  private slots: Slot[] = [];
  private stops = new Set<Token>();
  private clock = 0;

  /** Loads a model (the same one with the same settings stays loaded). */
  async load(p: LoadParams): Promise<{ sequences: number; contextSize: number; alreadyLoaded: boolean }> {
    if (this.context && this.params && JSON.stringify(this.params) === JSON.stringify(p)) return { sequences: this.slots.length, contextSize: this.context.contextSize, alreadyLoaded: true };
    await this.unload();
    if (!fs.existsSync(p.modelPath)) throw new EngineError('model-missing', `no model file at ${p.modelPath}`);
    const llama = await llamaBinding();
    let model: LlamaModel;
    try {
      model = await llama.loadModel({ modelPath: p.modelPath });
    } catch (err) {
      throw new EngineError('model-invalid', `llama.cpp could not load ${p.modelPath}: ${(err as Error).message}`);
    }
    const sequences = await this.sequencesFor(model, p);
    const context = await model.createContext({ contextSize: p.contextSize, sequences, ...(p.threads > 0 ? { threads: p.threads } : {}) });
    this.model = model;
    this.context = context;
    this.params = p;
    this.slots = Array.from({ length: sequences }, () => ({ key: null, seq: context.getSequence(), used: 0 }));
    this.stops = stopTokens(model);
    return { sequences, contextSize: context.contextSize, alreadyLoaded: false };
  }

  /** As many sequences as fit the memory budget (at least one), from node-llama-cpp's own estimate. */
  private async sequencesFor(model: LlamaModel, p: LoadParams): Promise<number> {
    for (let n = Math.max(1, p.maxSequences); n > 1; n--) {
      const est = await model.fileInsights.estimateContextResourceRequirementsV2({ contextSize: p.contextSize, modelGpuLayers: 0, sequences: n });
      if (est.cpuRam + est.gpuVram <= p.memoryBudgetBytes) return n;
    }
    return 1;
  }

  get loaded(): boolean {
    return this.context !== undefined;
  }

  /** Memory the engine holds: the model's weights, the context (KV caches and buffers), the process. */
  memory(): LlmMemory {
    const ctx = this.context?.memoryUsage;
    return { modelBytes: this.model?.size ?? 0, contextBytes: ctx ? ctx.ram + ctx.vram : 0, rssBytes: process.memoryUsage.rss() };
  }

  /** Tokens of the pieces, each tokenized alone (see PromptPiece). */
  tokenize(pieces: readonly PromptPiece[]): Token[] {
    const model = this.requireModel();
    const out: Token[] = [];
    for (const p of pieces) if (p.text !== '') out.push(...model.tokenize(p.text, p.special === true));
    return out;
  }

  /** The key's sequence, else a free one, else the least recently used (its cache is dropped). */
  private acquire(key: string): Slot {
    const slot = this.slots.find((s) => s.key === key) ?? this.slots.find((s) => s.key === null) ?? [...this.slots].sort((a, b) => a.used - b.used)[0];
    if (!slot) throw new EngineError('not-loaded', 'no model loaded');
    slot.key = key;
    slot.used = ++this.clock;
    return slot;
  }

  /**
   * Aligns the key's sequence with the prompt: keeps the common prefix, erases the rest. `keepOne`: leave
   * at least one token to evaluate (a generation needs the last token's logits).
   */
  async align(key: string, pieces: readonly PromptPiece[], keepOne: boolean): Promise<Aligned> {
    const tokens = this.tokenize(pieces);
    const ctxSize = this.context?.contextSize ?? 0;
    if (tokens.length >= ctxSize) throw new EngineError('too-long', `the prompt has ${tokens.length} tokens; the context holds ${ctxSize}`);
    const slot = this.acquire(key);
    let reused = slot.seq.compareContextTokens(tokens).firstDifferentIndex;
    if (keepOne && reused >= tokens.length) reused = tokens.length - 1;
    const held = slot.seq.nextTokenIndex;
    if (reused < held) await slot.seq.eraseContextTokenRanges([{ start: reused, end: held }]);
    return { slot, tokens, reused };
  }

  /** Evaluates the prompt into the key's sequence without generating (the key-down warm-up). */
  async warm(key: string, pieces: readonly PromptPiece[]): Promise<{ tokens: number; reused: number }> {
    const a = await this.align(key, pieces, false);
    const rest = a.tokens.slice(a.reused);
    if (rest.length > 0) await a.slot.seq.evaluateWithoutGeneratingNewTokens(rest);
    return { tokens: a.tokens.length, reused: a.reused };
  }

  /**
   * Generates the answer after an aligned prompt, calling `onText` with each decoded piece (a multi-byte
   * character split over tokens waits for its last token). Greedy below temperature 0.01.
   */
  async generate(a: Aligned, gen: GenerateParams, onText: (text: string) => void, cancelled: () => boolean, onFirst: () => void): Promise<Generated> {
    const model = this.requireModel();
    let pending: Token[] = [];
    let count = 0;
    let first = true;
    const room = (this.context?.contextSize ?? 0) - a.tokens.length - 1;
    const max = Math.max(1, Math.min(gen.maxTokens, room));
    const it = a.slot.seq.evaluate(a.tokens.slice(a.reused), { temperature: gen.temperature < 0.01 ? 0 : gen.temperature });
    let finish: Generated['finish'] = 'length';
    for await (const token of it) {
      if (first) {
        first = false;
        onFirst();
      }
      if (cancelled()) {
        finish = 'cancelled';
        break;
      }
      if (!gen.ignoreEos && this.stops.has(token)) {
        finish = 'stop';
        break;
      }
      count++;
      pending.push(token);
      const text = model.detokenize(pending);
      if (!text.endsWith('\uFFFD')) {
        if (text !== '') onText(text);
        pending = [];
      }
      if (count >= max) break;
    }
    if (pending.length > 0) onText(model.detokenize(pending));
    return { completionTokens: count, finish };
  }

  /** Frees the context and the model. */
  async unload(): Promise<void> {
    const ctx = this.context;
    const model = this.model;
    this.context = undefined;
    this.model = undefined;
    this.params = undefined;
    this.slots = [];
    await ctx?.dispose();
    await model?.dispose();
  }

  private requireModel(): LlamaModel {
    if (!this.model) throw new EngineError('not-loaded', 'no model loaded');
    return this.model;
  }
}

/** Tokens that end an answer: the model's EOS and end-of-turn, and ChatML's markers when they are single tokens. */
function stopTokens(model: LlamaModel): Set<Token> {
  const stops = new Set<Token>();
  for (const t of [model.tokens.eos, model.tokens.eot]) if (t !== null) stops.add(t);
  for (const marker of ['<|im_end|>', '<|endoftext|>']) {
    const t = model.tokenize(marker, true);
    if (t.length === 1 && t[0] !== undefined) stops.add(t[0]);
  }
  return stops;
}
