import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import type { TokenizerLoader as Loader } from '@lenml/tokenizers';

/**
 * Exact tokenizers of the open model families users run: Qwen 2/2.5/3 (one BPE), DeepSeek V3/R1 and Llama 3.x,
 * run by @lenml/tokenizers (the tokenizer part of transformers.js, no network). Their data ships in
 * assets/tokenizers (scripts/pack-tokenizers.mjs: the @lenml/tokenizer-* packages' tokenizer.json without
 * the vocabulary, which is rebuilt from the merges; brotli, ~2 MB for the three). GLM has no maintained
 * offline tokenizer package (only ChatGLM3's, a different SentencePiece model), so GLM and every other
 * family keep the estimate.
 *
 * Loading costs 0.3–0.4 s of CPU, so nothing loads at start: `preloadTokenizer` (called in the background
 * when the enhancer opens or its model changes) reads and decompresses asynchronously; a count before
 * that finishes loads synchronously. Counts are memoised per line (see `segmentedCounter`).
 */

export type TokenizerFamily = 'qwen2' | 'deepseek-v3' | 'llama3';

/** The family whose tokenizer counts `model` exactly, or null (provider prefixes like `qwen/`, `Qwen/` are ignored). */
export function tokenizerFamilyFor(model: string): TokenizerFamily | null {
  const m = model.toLowerCase().replace(/^.*\//, '');
  // Qwen2, 2.5, 3 and QwQ share one byte-level BPE (151,643 tokens); Qwen 1 and qwen-max/plus/turbo are others.
  if (/^(qwen2|qwen-?2\.5|qwen3|qwq)/.test(m)) return 'qwen2';
  // DeepSeek V3, V3.1, V3.2 and R1 (not the R1 distills: those are Qwen and Llama models) and the API's aliases.
  if (/^deepseek-r1-distill-qwen/.test(m)) return 'qwen2';
  if (/^deepseek-r1-distill-llama/.test(m)) return 'llama3';
  if (/^(deepseek-v3|deepseek-r1|deepseek-chat|deepseek-reasoner)/.test(m)) return 'deepseek-v3';
  // Llama 3, 3.1, 3.2, 3.3 (Llama 4 and Llama 2 use other tokenizers).
  if (/^(meta-)?llama-?3/.test(m)) return 'llama3';
  return null;
}

type Encoder = { encode(text: string, options: { add_special_tokens: boolean }): number[] };
const nodeRequire = createRequire(import.meta.url);
const loaded = new Map<TokenizerFamily, Encoder | null>();
const pending = new Map<TokenizerFamily, Promise<void>>();
let assetsDir: string | null | undefined;

/** Where the packed tokenizers are: the app's `assets/tokenizers` above this module (source tree or app.asar). */
export function tokenizersDir(): string | null {
  if (assetsDir === undefined) {
    assetsDir = null;
    for (let dir = import.meta.dirname, i = 0; i < 6; i++, dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'assets', 'tokenizers');
      if (fs.existsSync(path.join(candidate, 'qwen2.json.br'))) {
        assetsDir = candidate;
        break;
      }
    }
  }
  return assetsDir;
}

interface Packed {
  readonly alphabet: string[];
  readonly tokenizer: { model: Record<string, unknown> & { merges: string }; added_tokens: { id: number; content: string }[] } & Record<string, unknown>;
  readonly config: Record<string, unknown>;
}

function build(raw: Buffer): Encoder {
  const packed = JSON.parse(zlib.brotliDecompressSync(raw).toString('utf8')) as Packed;
  const merges = packed.tokenizer.model.merges.split('\n');
  // The vocabulary is the alphabet plus every merge's result; ids (irrelevant to counts) skip the added tokens' ids.
  const reserved = new Set(packed.tokenizer.added_tokens.map((t) => t.id));
  const vocab: Record<string, number> = {};
  let next = 0;
  const add = (token: string): void => {
    if (token in vocab) return;
    while (reserved.has(next)) next++;
    vocab[token] = next++;
  };
  for (const t of packed.alphabet) add(t);
  for (const m of merges) add(m.replace(' ', ''));
  for (const t of packed.tokenizer.added_tokens) vocab[t.content] = t.id;
  const { TokenizerLoader } = nodeRequire('@lenml/tokenizers') as { TokenizerLoader: typeof Loader };
  const tokenizerJSON = { ...packed.tokenizer, model: { ...packed.tokenizer.model, vocab, merges } };
  return TokenizerLoader.fromPreTrained({ tokenizerJSON, tokenizerConfig: packed.config } as unknown as Parameters<typeof TokenizerLoader.fromPreTrained>[0]) as unknown as Encoder;
}

function fileOf(family: TokenizerFamily): string | null {
  const dir = tokenizersDir();
  return dir ? path.join(dir, `${family}.json.br`) : null;
}

/** The family's encoder, loading it synchronously if `preloadTokenizer` has not finished; null if it cannot load. */
export function encoderFor(family: TokenizerFamily): Encoder | null {
  if (!loaded.has(family)) {
    try {
      const file = fileOf(family);
      loaded.set(family, file ? build(fs.readFileSync(file)) : null);
    } catch {
      loaded.set(family, null); // the estimate takes over
    }
  }
  return loaded.get(family) ?? null;
}

/** Whether the family's tokenizer is loaded (a count would not block). */
export function tokenizerLoaded(family: TokenizerFamily): boolean {
  return loaded.has(family);
}

/** Loads the model's tokenizer off the hot path (file read asynchronously); resolves when counting is exact. */
export function preloadTokenizer(model: string): Promise<void> {
  const family = tokenizerFamilyFor(model);
  if (!family || loaded.has(family)) return Promise.resolve();
  let p = pending.get(family);
  if (!p) {
    const file = fileOf(family);
    p = (file ? fs.promises.readFile(file) : Promise.reject(new Error('no tokenizer data')))
      .then((raw) => {
        if (!loaded.has(family)) loaded.set(family, build(raw));
      })
      .catch(() => {
        if (!loaded.has(family)) loaded.set(family, null);
      });
    pending.set(family, p);
  }
  return p;
}

/** Most distinct lines whose counts are remembered per tokenizer. */
const MEMO_LIMIT = 8192;

/**
 * A counter that splits text where a line break is followed by a non-space character and memoises each
 * piece. The three families' pre-tokenizers never join a line break with what follows it when that is not
 * a space, so the sum of the pieces is the exact count of the whole (tokenizers.test.ts checks it on
 * built prompts); history lines repeat from one dictation to the next, so a prompt costs the new lines only.
 */
export function segmentedCounter(countPiece: (text: string) => number): (text: string) => number {
  const memo = new Map<string, number>();
  return (text) => {
    let total = 0;
    for (const piece of text.split(/(?<=\n)(?=\S)/)) {
      let n = memo.get(piece);
      if (n === undefined) {
        n = countPiece(piece);
        if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
        memo.set(piece, n);
      }
      total += n;
    }
    return total;
  };
}
