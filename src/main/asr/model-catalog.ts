import type { SherpaFamily } from './sherpa-families.ts';

/*
 * The models users can download. whisper.cpp ggml models: names as whisper.cpp publishes them
 * (ggml-<name>.bin), approximate sizes (for the disk-space check before the server says the exact size)
 * and the SHA-1 checksums from whisper.cpp's models/README
 * (https://github.com/ggml-org/whisper.cpp/blob/master/models/README.md). Sizes are MiB as listed there.
 * sherpa-onnx models (SHERPA_CATALOG) are a folder of files, installed as <models>/<name>/.
 */

/** One file of a sherpa-onnx model folder. */
export interface SherpaCatalogFile {
  readonly file: string;
  readonly approxBytes: number;
  /**
   * SHA-256 (hex), or null when no published checksum was found: the manager then accepts the file
   * without one, but still checks the model's graph and metadata before installing it.
   */
  readonly sha256: string | null;
}

/** What makes a catalog entry a sherpa-onnx model. */
export interface SherpaCatalogInfo {
  readonly family: SherpaFamily;
  /** Hugging Face repository the files are fetched from (owner/name). */
  readonly repo: string;
  /** The ONNX model inside the folder (tokens.txt sits beside it). */
  readonly modelFile: string;
  readonly files: readonly SherpaCatalogFile[];
  /** Languages it recognises, for the cards. */
  readonly languages: readonly string[];
}

/** One downloadable model. */
export interface CatalogEntry {
  readonly name: string;
  readonly approxBytes: number;
  /** SHA-1 of the whisper file (hex); downloads that do not match are refused. null for sherpa models (per file there). */
  readonly sha1: string | null;
  readonly englishOnly: boolean;
  readonly quantized: boolean;
  /** Present for sherpa-onnx models; absent for whisper.cpp ones. */
  readonly sherpa?: SherpaCatalogInfo;
  /**
   * Present for a GGUF model of the built-in LLM engine (src/main/enhance/local-llm/llm-catalog.ts, joined to
   * the catalog by the app): one file from a Hugging Face repository, installed as llm/<file>.
   */
  readonly gguf?: GgufCatalogInfo;
}

/** What makes a catalog entry a GGUF model of the built-in LLM engine. */
export interface GgufCatalogInfo {
  readonly repo: string;
  readonly file: string;
  /** SHA-256 (hex), or null when no published checksum was found (size and GGUF header still checked). */
  readonly sha256: string | null;
}

const MiB = 1024 * 1024;

/** Whether a whisper model name is an English-only one (`base.en`, `small.en-q5_1`). */
export function isEnglishOnlyName(name: string): boolean {
  return /\.en(-|$)/.test(name);
}

function entry(name: string, mib: number, sha1: string): CatalogEntry {
  return { name, approxBytes: Math.round(mib * MiB), sha1, englishOnly: isEnglishOnlyName(name), quantized: /-q\d/.test(name) };
}

/** The whisper.cpp models, smallest family first. */
export const WHISPER_CATALOG: readonly CatalogEntry[] = [
  entry('tiny', 75, 'bd577a113a864445d4c299885e0cb97d4ba92b5f'),
  entry('tiny-q5_1', 31, '2827a03e495b1ed3048ef28a6a4620537db4ee51'),
  entry('tiny-q8_0', 42, '19e8118f6652a650569f5a949d962154e01571d9'),
  entry('tiny.en', 75, 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df'),
  entry('tiny.en-q5_1', 31, '3fb92ec865cbbc769f08137f22470d6b66e071b6'),
  entry('tiny.en-q8_0', 42, '802d6668e7d411123e672abe4cb6c18f12306abb'),
  entry('base', 142, '465707469ff3a37a2b9b8d8f89f2f99de7299dac'),
  entry('base-q5_1', 57, 'a3733eda680ef76256db5fc5dd9de8629e62c5e7'),
  entry('base-q8_0', 78, '7bb89bb49ed6955013b166f1b6a6c04584a20fbe'),
  entry('base.en', 142, '137c40403d78fd54d454da0f9bd998f78703390c'),
  entry('base.en-q5_1', 57, 'd26d7ce5a1b6e57bea5d0431b9c20ae49423c94a'),
  entry('base.en-q8_0', 78, 'bb1574182e9b924452bf0cd1510ac034d323e948'),
  entry('small', 466, '55356645c2b361a969dfd0ef2c5a50d530afd8d5'),
  entry('small-q5_1', 181, '6fe57ddcfdd1c6b07cdcc73aaf620810ce5fc771'),
  entry('small-q8_0', 252, 'bcad8a2083f4e53d648d586b7dbc0cd673d8afad'),
  entry('small.en', 466, 'db8a495a91d927739e50b3fc1cc4c6b8f6c2d022'),
  entry('small.en-q5_1', 181, '20f54878d608f94e4a8ee3ae56016571d47cba34'),
  entry('small.en-q8_0', 252, '9d75ff4ccfa0a8217870d7405cf8cef0a5579852'),
  entry('medium', 1536, 'fd9727b6e1217c2f614f9b698455c4ffd82463b4'),
  entry('medium-q5_0', 514, '7718d4c1ec62ca96998f058114db98236937490e'),
  entry('medium-q8_0', 785, 'e66645948aff4bebbec71b3485c576f3d63af5d6'),
  entry('medium.en', 1536, '8c30f0e44ce9560643ebd10bbe50cd20eafd3723'),
  entry('medium.en-q5_0', 514, 'bb3b5281bddd61605d6fc76bc5b92d8f20284c3b'),
  entry('medium.en-q8_0', 785, 'b1cf48c12c807e14881f634fb7b6c6ca867f6b38'),
  entry('large-v1', 2970, 'b1caaf735c4cc1429223d5a74f0f4d0b9b59a299'),
  entry('large-v2', 2970, '0f4c8e34f21cf1a914c59d8b3ce882345ad349d6'),
  entry('large-v2-q5_0', 1126, '00e39f2196344e901b3a2bd5814807a769bd1630'),
  entry('large-v2-q8_0', 1536, 'da97d6ca8f8ffbeeb5fd147f79010eeea194ba38'),
  entry('large-v3', 2970, 'ad82bf6a9043ceed055076d0fd39f5f186ff8062'),
  entry('large-v3-q5_0', 1126, 'e6e2ed78495d403bef4b7cff42ef4aaadcfea8de'),
  entry('large-v3-turbo', 1536, '4af2b29d7ec73d781377bfd1758ca957a807e941'),
  entry('large-v3-turbo-q5_0', 547, 'e050f7970618a659205450ad97eb95a18d69c9ee'),
  entry('large-v3-turbo-q8_0', 834, '01bf15bedffe9f39d65c1b6ff9b687ea91f59e0e'),
];

const MB = 1000 * 1000; // Hugging Face lists decimal sizes

function sherpaEntry(name: string, info: SherpaCatalogInfo): CatalogEntry {
  const approxBytes = info.files.reduce((n, f) => n + f.approxBytes, 0);
  return { name, approxBytes, sha1: null, englishOnly: false, quantized: info.modelFile.includes('int8'), sherpa: info };
}

/**
 * sherpa-onnx offline models, int8 variants. The k2-fsa/sherpa-onnx "asr-models" release publishes each as
 * one .tar.bz2 (e.g. sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17.tar.bz2, see
 * k2-fsa.github.io/sherpa/onnx/sense-voice/export.html), but the model manager downloads plain files
 * (resume and checksum per file, no unpacking), so the entries point at the same files in the
 * author's Hugging Face repositories (file names and sizes from their "Files" pages:
 * huggingface.co/csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17/tree/main,
 * huggingface.co/csukuangfj/sherpa-onnx-paraformer-zh-2023-09-14/tree/main,
 * huggingface.co/csukuangfj/sherpa-onnx-paraformer-zh-2024-03-09/tree/main). No checksum was found in a
 * source reachable here, so sha256 is null (accepted explicitly; see model-manager.ts).
 * paraformer-zh-int8 is the zh + en bilingual Paraformer-large (the sherpa docs list 2023-09-14 as
 * "Chinese + English"); paraformer-zh-small-int8 is the small Chinese one.
 */
export const SHERPA_CATALOG: readonly CatalogEntry[] = [
  sherpaEntry('sense-voice-small-int8', {
    family: 'sense-voice',
    repo: 'csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17',
    modelFile: 'model.int8.onnx',
    files: [
      { file: 'model.int8.onnx', approxBytes: 239 * MB, sha256: null },
      { file: 'tokens.txt', approxBytes: 316 * 1000, sha256: null },
    ],
    languages: ['zh', 'en', 'ja', 'ko', 'yue'],
  }),
  sherpaEntry('paraformer-zh-int8', {
    family: 'paraformer',
    repo: 'csukuangfj/sherpa-onnx-paraformer-zh-2023-09-14',
    modelFile: 'model.int8.onnx',
    files: [
      { file: 'model.int8.onnx', approxBytes: 243 * MB, sha256: null },
      { file: 'tokens.txt', approxBytes: 75.8 * 1000, sha256: null },
    ],
    languages: ['zh', 'en'],
  }),
  sherpaEntry('paraformer-zh-small-int8', {
    family: 'paraformer',
    repo: 'csukuangfj/sherpa-onnx-paraformer-zh-2024-03-09',
    modelFile: 'model.int8.onnx',
    files: [
      { file: 'model.int8.onnx', approxBytes: 227 * MB, sha256: null },
      { file: 'tokens.txt', approxBytes: 75.4 * 1000, sha256: null },
    ],
    languages: ['zh'],
  }),
];

/** Every model in the catalog: whisper first, then sherpa-onnx. */
export const MODEL_CATALOG: readonly CatalogEntry[] = [...WHISPER_CATALOG, ...SHERPA_CATALOG];

/** The catalog entry of `name`, or undefined. */
export function findModel(name: string, catalog: readonly CatalogEntry[] = MODEL_CATALOG): CatalogEntry | undefined {
  return catalog.find((e) => e.name === name);
}

/** Where an installed model's file sits under the models folder: ggml-<name>.bin, <name>/<model file> for sherpa, llm/<file> for GGUF. */
export function modelRelPath(name: string, catalog: readonly CatalogEntry[] = MODEL_CATALOG): string {
  const found = findModel(name, catalog);
  if (found?.gguf !== undefined) return `llm/${found.gguf.file}`;
  const sherpa = found?.sherpa;
  return sherpa !== undefined ? `${name}/${sherpa.modelFile}` : modelFileName(name);
}

/**
 * URL of one file of a sherpa model. The mirror setting names whisper.cpp's repository on a Hugging Face
 * host (or a mirror such as hf-mirror.com): its origin is kept, so a mirror applies to these files too.
 */
export function sherpaFileUrl(mirror: string, info: { readonly repo: string }, file: string): string {
  let origin = 'https://huggingface.co';
  try {
    origin = new URL(mirror).origin;
  } catch {
    // not a URL: the default host
  }
  return `${origin}/${info.repo}/resolve/main/${file}`;
}

/** File name whisper.cpp uses for a model. */
export function modelFileName(name: string): string {
  return `ggml-${name}.bin`;
}

/** Download URL of a model under a mirror base (Hugging Face's whisper.cpp repo by default). */
export function modelUrl(mirror: string, name: string): string {
  return `${mirror.replace(/\/+$/, '')}/${modelFileName(name)}`;
}

/** A UI language the recommendation is made for. */
export type RecommendLanguage = 'zh' | 'en';

/** The recommendation lists: one per UI language, and `multi` for someone who speaks other languages too. */
export type RecommendList = RecommendLanguage | 'multi';

/**
 * The models offered first, best first: per UI language (what a new install's config names and the setup
 * guide offers first) and for several languages (the guide's "multilingual" choice). Settings shows these
 * as cards and groups the rest of the catalog. Chinese: SenseVoice-Small first (published Chinese CER well
 * below whisper small at a fraction of the compute: one non-autoregressive pass, and it handles zh + en
 * mixed speech), Paraformer (zh + en) next, then whisper small (quantized, the smallest whisper that writes
 * usable Chinese). English users get the English-only whisper models, which are more accurate at the same
 * size. Multilingual: whisper's own (~99 languages), small before base for accuracy, then SenseVoice
 * (zh, en, ja, ko, yue).
 */
export const RECOMMENDED_MODELS: Readonly<Record<RecommendList, readonly string[]>> = {
  zh: ['sense-voice-small-int8', 'paraformer-zh-int8', 'small-q5_1'],
  en: ['base.en', 'small.en-q5_1', 'tiny.en'],
  multi: ['small-q5_1', 'base', 'sense-voice-small-int8'],
};

/** The speech model a new install starts with: the first one the setup guide recommends for the UI language. */
export function defaultSpeechModel(lang: RecommendLanguage): string {
  return RECOMMENDED_MODELS[lang][0] ?? 'base';
}

/** Where a model sits in the catalog view: Chinese, English-only, multilingual, large (slow, best accuracy), or an LLM (GGUF). */
export type ModelGroup = 'chinese' | 'english' | 'multilingual' | 'large' | 'llm';

/** The group of a model, from its catalog entry (or its name when it is not in the catalog). */
export function modelGroup(name: string, entry: CatalogEntry | undefined = findModel(name)): ModelGroup {
  if (entry?.gguf !== undefined) return 'llm';
  if (entry?.sherpa !== undefined) return entry.sherpa.languages.includes('zh') ? 'chinese' : 'multilingual';
  if (/^(medium|large)/.test(name)) return 'large';
  return (entry?.englishOnly ?? isEnglishOnlyName(name)) ? 'english' : 'multilingual';
}

/**
 * How fast a model transcribes on a typical laptop CPU, 1 (slowest) … 5 (fastest), from its family: each
 * whisper size step is roughly 2–3× slower; turbo has large's encoder but a 4-layer decoder.
 */
export function modelSpeed(name: string): number {
  if (name.startsWith('sense-voice')) return 5; // one encoder pass + CTC, ~ whisper base's cost
  if (name.startsWith('paraformer')) return 4; // encoder + one non-autoregressive decoder pass
  if (name.startsWith('tiny')) return 5;
  if (name.startsWith('base')) return 4;
  if (name.startsWith('small')) return 3;
  if (name.includes('turbo') || name.startsWith('medium')) return 2;
  if (name.startsWith('large')) return 1;
  return 3;
}
