/*
 * Messages between the app and the local LLM host process (llm-host.ts), over Node's child_process IPC or
 * Electron's utilityProcess port (both structured clone). Requests carry an id; replies echo it.
 */

/**
 * A piece of the prompt. Pieces are tokenized one by one and their tokens joined, so a prefix of pieces
 * always gives the same tokens whatever follows it: the prefix warmed at key-down is the prefix the
 * request starts with, token for token. `special` pieces are the chat template's own markers
 * (`<|im_start|>`); everything else is tokenized with special tokens off, so dictated text that spells
 * a marker stays text.
 */
export interface PromptPiece {
  readonly text: string;
  readonly special?: boolean;
}

/** How the model is loaded and the context sized. */
export interface LoadParams {
  readonly modelPath: string;
  /** Tokens per sequence (prompt + answer). */
  readonly contextSize: number;
  /** CPU threads for evaluation; 0 = llama.cpp's choice. */
  readonly threads: number;
  /** Most sequences (recently used modes) kept; fewer when they would not fit `memoryBudgetBytes`. */
  readonly maxSequences: number;
  /** RAM the sequences' KV caches may take together. */
  readonly memoryBudgetBytes: number;
}

/** Options of one answer. */
export interface GenerateParams {
  readonly maxTokens: number;
  readonly temperature: number;
  /** Benchmarks: keep generating past the end-of-turn token, so every run produces the same count. */
  readonly ignoreEos?: boolean;
}

/** App → host. */
export type LlmRequest =
  | { readonly type: 'load'; readonly id: number; readonly params: LoadParams }
  | { readonly type: 'warm'; readonly id: number; readonly key: string; readonly pieces: readonly PromptPiece[] }
  | { readonly type: 'chat'; readonly id: number; readonly key: string; readonly pieces: readonly PromptPiece[]; readonly gen: GenerateParams }
  | { readonly type: 'cancel'; readonly id: number; readonly target: number }
  | { readonly type: 'shutdown'; readonly id: number };

/** What the engine holds in memory (bytes). */
export interface LlmMemory {
  readonly modelBytes: number;
  readonly contextBytes: number;
  readonly rssBytes: number;
}

/** Host → app. */
export type LlmEvent =
  | { readonly type: 'ready'; readonly pid: number }
  | { readonly type: 'loaded'; readonly id: number; readonly loadMs: number; readonly sequences: number; readonly contextSize: number; readonly memory: LlmMemory; readonly alreadyLoaded: boolean }
  | { readonly type: 'warmed'; readonly id: number; readonly tokens: number; readonly reused: number; readonly ms: number }
  /** The request's turn came: the engine starts evaluating it (the local deadline counts from here). */
  | { readonly type: 'started'; readonly id: number }
  | { readonly type: 'delta'; readonly id: number; readonly text: string }
  | {
      readonly type: 'done'; readonly id: number; readonly promptTokens: number; readonly cachedTokens: number; readonly completionTokens: number;
      readonly finish: 'stop' | 'length' | 'cancelled'; readonly prefillMs: number; readonly ms: number; readonly memory: LlmMemory;
    }
  | { readonly type: 'error'; readonly id: number; readonly code: LlmErrorCode; readonly message: string };

/** Why a request failed in the host. */
export type LlmErrorCode = 'engine-not-available' | 'model-missing' | 'model-invalid' | 'not-loaded' | 'too-long' | 'engine-failed' | 'bad-request';

/** Narrowing check for messages from the host (our code, but a dying process can leave garbage). */
export function isLlmEvent(value: unknown): value is LlmEvent {
  if (typeof value !== 'object' || value === null) return false;
  const t = (value as { type?: unknown }).type;
  return t === 'ready' || t === 'loaded' || t === 'warmed' || t === 'started' || t === 'delta' || t === 'done' || t === 'error';
}
