import { createRequire } from 'node:module';
import { encoderFor, segmentedCounter, tokenizerFamilyFor, type TokenizerFamily } from './tokenizers.ts';

/**
 * Token counting for the prompt budget. OpenAI models are counted exactly with gpt-tokenizer's BPE
 * (o200k or cl100k, loaded lazily and synchronously the first time an OpenAI model needs it); Qwen 2/2.5/3,
 * DeepSeek V3/R1 and Llama 3 exactly with their own tokenizers (tokenizers.ts, preloaded in the background);
 * other models (GLM, Gemma, Mistral…) get an estimate that errs on the high side: one token per CJK
 * character, one per ~3.5 other characters, plus per-message overhead.
 *
 * Fast path: byte-level BPE never produces more tokens than UTF-8 bytes, so when the byte length
 * already fits the budget no exact count is needed at all (this keeps prompt building under 1 ms).
 */

type Encoder = { countTokens(text: string): number };
// Not named `require`: electron-vite's ESM shim declares a top-level `require` in every chunk that calls one.
const nodeRequire = createRequire(import.meta.url);
const encoders = new Map<string, Encoder | null>();

function loadEncoder(name: 'o200k_base' | 'cl100k_base'): Encoder | null {
  if (!encoders.has(name)) {
    try {
      encoders.set(name, nodeRequire(`gpt-tokenizer/encoding/${name}`) as Encoder);
    } catch {
      encoders.set(name, null); // the estimate takes over
    }
  }
  return encoders.get(name) ?? null;
}

/** The BPE encoding of an OpenAI model, or null when the model is not an OpenAI one. */
export function encodingForModel(model: string): 'o200k_base' | 'cl100k_base' | null {
  const m = model.toLowerCase().replace(/^openai\//, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)/.test(m)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5)/.test(m)) return 'cl100k_base';
  return null;
}

/** Fallback estimate: CJK characters count one token each, other text ~3.5 characters per token (rounded up). */
export function estimateTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if ((c >= 0x2e80 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef) || c >= 0x20000) cjk++;
    else other++;
  }
  return cjk + Math.ceil(other / 3.5);
}

/** A model-aware token counter. */
export interface TokenCounter {
  /** 'bpe' when counts are exact for the model, 'estimate' otherwise. */
  readonly method: 'bpe' | 'estimate';
  /** The tokenizer that counts: an OpenAI encoding, an open family's tokenizer, or 'estimate'. */
  readonly tokenizer: 'o200k_base' | 'cl100k_base' | TokenizerFamily | 'estimate';
  count(text: string): number;
}

const familyCounters = new Map<TokenizerFamily, (text: string) => number>();

/** Counter for a model: exact BPE for OpenAI, Qwen, DeepSeek and Llama 3 models (the estimate if the tokenizer cannot load). */
export function tokenCounterFor(model: string): TokenCounter {
  const enc = encodingForModel(model);
  const bpe = enc !== null ? loadEncoder(enc) : null;
  if (enc && bpe) return { method: 'bpe', tokenizer: enc, count: (t) => bpe.countTokens(t) };
  const family = tokenizerFamilyFor(model);
  if (family) {
    let count = familyCounters.get(family);
    if (!count) {
      const encoder = encoderFor(family);
      if (encoder) {
        count = segmentedCounter((t) => encoder.encode(t, { add_special_tokens: false }).length);
        familyCounters.set(family, count);
      }
    }
    if (count) return { method: 'bpe', tokenizer: family, count };
  }
  return { method: 'estimate', tokenizer: 'estimate', count: estimateTokens };
}

/** Tokens a chat message costs besides its text (role markers). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Context window (input + output tokens) of well-known models; unknown models get a conservative 8k. */
export function contextWindowFor(model: string): number {
  const m = model.toLowerCase();
  if (/^(gpt-4\.1)/.test(m)) return 1_047_576;
  if (/^(gpt-5)/.test(m)) return 400_000;
  if (/^(o1|o3|o4)/.test(m)) return 200_000;
  if (/^(gpt-4o|chatgpt-4o|gpt-4-turbo|gpt-oss)/.test(m)) return 128_000;
  if (/^gpt-3\.5/.test(m)) return 16_385;
  if (/deepseek/.test(m)) return 65_536;
  if (/qwen(2\.5|3)/.test(m)) return 32_768;
  if (/llama-?3/.test(m)) return 8_192;
  return 8_192;
}

/** Upper bound of tokens for byte-level BPE: the UTF-8 byte length. */
export function byteUpperBound(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
