/*
 * The GGUF instruct models the built-in engine can download (Q4_K_M: about 4.8 bits per weight, the usual
 * size/quality trade-off for llama.cpp on a laptop). The model manager (src/main/asr/model-manager.ts)
 * downloads them like the speech models — progress, pause/resume with HTTP Range, the mirror's host — into
 * <data folder>/models/llm/<file>, the folder the local provider reads a bare file name from
 * (local-provider.ts `localModelPath`).
 *
 * Files and sizes from the repositories' "Files" pages on Hugging Face:
 *   huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF, …-1.5B-…, …-3B-… (Qwen's own quantizations);
 *   huggingface.co/bartowski/Qwen2.5-7B-Instruct-GGUF (Qwen's own 7B Q4_K_M is split in two files, which
 *   this single-file download does not join);
 *   huggingface.co/unsloth/Qwen3-0.6B-GGUF and …/Qwen3-1.7B-GGUF (Qwen's own GGUF repositories of these two
 *   sizes publish Q8_0 only); huggingface.co/Qwen/Qwen3-4B-GGUF.
 * SHA-256: only the 1.5B's was found in a source reachable here (its "Git LFS Details",
 * https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/blob/main/qwen2.5-1.5b-instruct-q4_k_m.gguf). For the
 * others no published checksum was found, so `sha256` is null: the download is then checked for its size (the
 * server's announced length must arrive whole) and for being a GGUF file, never against an invented hash.
 * `approxBytes` are the pages' rounded decimal sizes, for the disk-space check and the cards; they are not
 * used as a hard cap (model-manager.ts bounds a GGUF download by the length the server announces).
 */

/** One downloadable GGUF model. */
export interface LlmCatalogEntry {
  /** Catalog name (also the download's name in `models:*`). */
  readonly name: string;
  /** Hugging Face repository (owner/name) the file is fetched from. */
  readonly repo: string;
  /** File name in the repository, and in <data folder>/models/llm. */
  readonly file: string;
  readonly approxBytes: number;
  /** SHA-256 (hex) from the file's Hugging Face page, or null when none was found (see above). */
  readonly sha256: string | null;
  readonly family: 'qwen2.5' | 'qwen3';
  /** Parameters, billions (for the cards). */
  readonly params: number;
}

const MB = 1000 * 1000;
const GB = 1000 * MB;

function qwen25(size: string, params: number, approxBytes: number, sha256: string | null): LlmCatalogEntry {
  return { name: `qwen2.5-${size}-instruct-q4_k_m`, repo: `Qwen/Qwen2.5-${size.toUpperCase()}-Instruct-GGUF`, file: `qwen2.5-${size}-instruct-q4_k_m.gguf`, approxBytes, sha256, family: 'qwen2.5', params };
}

function qwen3(repo: string, size: string, params: number, approxBytes: number): LlmCatalogEntry {
  return { name: `qwen3-${size}-q4_k_m`, repo, file: `Qwen3-${size.toUpperCase()}-Q4_K_M.gguf`, approxBytes, sha256: null, family: 'qwen3', params };
}

/** The catalog, smallest first per family. */
export const LLM_CATALOG: readonly LlmCatalogEntry[] = ([
  qwen25('0.5b', 0.5, 491 * MB, null),
  qwen25('1.5b', 1.5, 1.12 * GB, '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e'),
  qwen25('3b', 3, 2.1 * GB, null),
  { name: 'qwen2.5-7b-instruct-q4_k_m', repo: 'bartowski/Qwen2.5-7B-Instruct-GGUF', file: 'Qwen2.5-7B-Instruct-Q4_K_M.gguf', approxBytes: 4.68 * GB, sha256: null, family: 'qwen2.5', params: 7 },
  qwen3('unsloth/Qwen3-0.6B-GGUF', '0.6b', 0.6, 397 * MB),
  qwen3('unsloth/Qwen3-1.7B-GGUF', '1.7b', 1.7, 1.11 * GB),
  qwen3('Qwen/Qwen3-4B-GGUF', '4b', 4, 2.5 * GB),
] satisfies LlmCatalogEntry[]).map((e) => ({ ...e, approxBytes: Math.round(e.approxBytes) }));

/** The entry named `name` (catalog name or file name), or undefined. */
export function findLlmModel(name: string): LlmCatalogEntry | undefined {
  return LLM_CATALOG.find((e) => e.name === name || e.file === name);
}

/** What the recommendation is made for. */
export interface LlmMachine {
  readonly totalMemBytes: number;
  /** macOS on arm64: Metal and unified memory make a bigger model fast enough. */
  readonly appleSilicon: boolean;
  readonly lang: 'zh' | 'en';
}

const GiB = 1024 * 1024 * 1024;

/**
 * The models to offer, best first, for a machine and a UI language. Enhancement runs after every dictation
 * while the user waits, so the size is bounded by speed before quality: on a CPU, prefill and decode grow
 * with the parameter count, and the model shares memory with the speech model and the apps being dictated
 * into. Below ~6 GiB only the sub-1B models; ~8 GiB the 1.5B class; 16 GiB and more the 3–4B class; Apple
 * silicon with 16 GiB and more also runs the 7B at dictation speed (Metal). Chinese first gets Qwen2.5
 * (the tokenizer and prompt sizes the benchmarks measure, docs/dev/BENCHMARKS.md), English first Qwen3 of
 * the same class (thinking off, local-provider.ts `chatPieces`).
 */
export function recommendLlmModels(m: LlmMachine): string[] {
  const gib = m.totalMemBytes / GiB;
  let tier: string[][];
  if (gib < 6) tier = [['qwen2.5-0.5b-instruct-q4_k_m'], ['qwen3-0.6b-q4_k_m']];
  else if (gib < 14) tier = [['qwen2.5-1.5b-instruct-q4_k_m'], ['qwen3-1.7b-q4_k_m'], ['qwen2.5-0.5b-instruct-q4_k_m']];
  else if (m.appleSilicon) tier = [['qwen2.5-7b-instruct-q4_k_m', 'qwen2.5-3b-instruct-q4_k_m'], ['qwen3-4b-q4_k_m'], ['qwen2.5-1.5b-instruct-q4_k_m']];
  else tier = [['qwen2.5-3b-instruct-q4_k_m'], ['qwen3-4b-q4_k_m'], ['qwen2.5-1.5b-instruct-q4_k_m']];
  // tier[0] holds the Qwen2.5 choice(s), tier[1] the Qwen3 one: English puts Qwen3 first.
  const [first = [], second = [], ...rest] = tier;
  const ordered = m.lang === 'en' && second.length > 0 ? [second, first, ...rest] : [first, second, ...rest];
  return ordered.flat();
}

/** This computer's memory and chip, for the recommendation. */
export function thisMachine(lang: 'zh' | 'en', totalMemBytes: number, platform: string, arch: string): LlmMachine {
  return { totalMemBytes, appleSilicon: platform === 'darwin' && arch === 'arm64', lang };
}

/** What the cards show of an LLM model: size class, family, file, and its place per UI language on this machine. */
export interface LlmCardInfo {
  readonly params: number;
  readonly family: 'qwen2.5' | 'qwen3';
  readonly file: string;
  readonly rank: { readonly zh?: number; readonly en?: number };
}

/** The card info of catalog model `name` on a machine (memory, platform, arch), or undefined when it is not an LLM model. */
export function llmCardInfo(name: string, totalMemBytes: number, platform: string, arch: string): LlmCardInfo | undefined {
  const e = LLM_CATALOG.find((x) => x.name === name);
  if (e === undefined) return undefined;
  const rank: { zh?: number; en?: number } = {};
  for (const lang of ['zh', 'en'] as const) {
    const i = recommendLlmModels(thisMachine(lang, totalMemBytes, platform, arch)).indexOf(name);
    if (i !== -1) rank[lang] = i;
  }
  return { params: e.params, family: e.family, file: e.file, rank };
}
