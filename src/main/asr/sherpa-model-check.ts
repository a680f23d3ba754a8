import fs from 'node:fs';
import { OnnxFormatError, readOnnxInfo, type OnnxInfo } from './onnx-info.ts';
import { AsrError } from './types.ts';

/*
 * Checks a sherpa-onnx model before sherpa-onnx sees it: the inputs, outputs and metadata keys it reads,
 * so a missing, corrupt or mismatched file becomes an AsrError instead of exit(-1) or std::terminate in
 * native code (see onnx-info.ts). One table per model family, taken from the sherpa-onnx sources cited.
 */

/** A family of models sherpa-onnx runs through one recognizer implementation. */
export interface SherpaModelSpec {
  readonly family: string;
  /** Graph inputs the recognizer feeds by position; the exporter's names, which must all exist. */
  readonly inputs: readonly string[];
  /** Metadata keys read with SHERPA_ONNX_READ_META_DATA (no default: missing means exit(-1)). */
  readonly requiredMetadata: readonly string[];
  /** Checks on the values (numbers that must parse, vectors of the right length). Returns a problem or undefined. */
  readonly checkValues?: (meta: ReadonlyMap<string, string>) => string | undefined;
  /** Symbols the recognizer looks up by name at load (a missing one throws std::out_of_range: abort). */
  readonly requiredTokens?: readonly string[];
  /**
   * The input the features go in: its declared last dimension must be the feature size the metadata
   * implies (80 × lfr_window_size). onnxruntime would reject every call with a shape error otherwise,
   * which sherpa-onnx reports as empty text rather than an error.
   */
  readonly featureInput?: string;
}

function intOf(meta: ReadonlyMap<string, string>, key: string): number | undefined {
  const v = meta.get(key);
  return v !== undefined && /^-?\d+$/.test(v.trim()) ? Number(v) : undefined;
}

function floatsOf(meta: ReadonlyMap<string, string>, key: string): number[] | undefined {
  const v = meta.get(key);
  if (v === undefined) return undefined;
  const xs = v.split(',').map(Number);
  return xs.every(Number.isFinite) ? xs : undefined;
}

/**
 * SenseVoice: inputs from scripts/sense-voice/export-onnx.py (x, x_length, language, text_norm); metadata
 * from sherpa-onnx/csrc/offline-sense-voice-model.cc (the non-"Nano" branch). neg_mean and inv_stddev
 * must have 80 × lfr_window_size values: ApplyCMVN in offline-recognizer-sense-voice-impl.h maps the
 * features with their length, so a shorter vector would misread memory.
 */
export const SENSE_VOICE_SPEC: SherpaModelSpec = {
  family: 'SenseVoice',
  inputs: ['x', 'x_length', 'language', 'text_norm'],
  featureInput: 'x',
  requiredMetadata: [
    'vocab_size',
    'lfr_window_size',
    'lfr_window_shift',
    'normalize_samples',
    'with_itn',
    'without_itn',
    'lang_auto',
    'lang_zh',
    'lang_en',
    'lang_ja',
    'lang_ko',
    'lang_yue',
    'neg_mean',
    'inv_stddev',
  ],
  checkValues(meta) {
    const problem = checkLfrCmvn(meta, ['vocab_size', 'lfr_window_size', 'lfr_window_shift', 'normalize_samples', 'with_itn', 'without_itn']);
    if (problem !== undefined) return problem;
    if ((meta.get('comment') ?? '').includes('Nano')) return 'a FunASR-Nano model, not SenseVoice';
    return undefined;
  },
};

/** The 80-dim fbank × lfr_window_size: the length CMVN expects of neg_mean and inv_stddev. */
function checkLfrCmvn(meta: ReadonlyMap<string, string>, ints: readonly string[]): string | undefined {
  const bad = ints.find((k) => intOf(meta, k) === undefined);
  if (bad !== undefined) return `metadata ${bad} is not an integer`;
  if ((intOf(meta, 'lfr_window_size') ?? 0) < 1 || (intOf(meta, 'lfr_window_shift') ?? 0) < 1) return 'metadata lfr window is not positive';
  const dim = 80 * (intOf(meta, 'lfr_window_size') ?? 0);
  for (const k of ['neg_mean', 'inv_stddev']) {
    if (floatsOf(meta, k)?.length !== dim) return `metadata ${k} does not have ${dim} numbers`;
  }
  return undefined;
}

/**
 * Paraformer: metadata from sherpa-onnx/csrc/offline-paraformer-model.cc; inputs are fed by position, the
 * names are FunASR's export (speech, speech_lengths); offline-recognizer-paraformer-impl.h looks up "</s>"
 * in tokens.txt at load (the eos id of the greedy search).
 */
export const PARAFORMER_SPEC: SherpaModelSpec = {
  family: 'Paraformer',
  inputs: ['speech', 'speech_lengths'],
  featureInput: 'speech',
  requiredMetadata: ['vocab_size', 'lfr_window_size', 'lfr_window_shift', 'neg_mean', 'inv_stddev'],
  checkValues: (meta) => checkLfrCmvn(meta, ['vocab_size', 'lfr_window_size', 'lfr_window_shift']),
  requiredTokens: ['</s>'],
};

/** Validates `model` (+ `tokens`) against `spec`; throws AsrError model-missing / model-invalid. */
export function checkSherpaModel(spec: SherpaModelSpec, model: string, tokens: string): OnnxInfo {
  for (const file of [model, tokens]) {
    if (!fs.existsSync(file)) throw new AsrError('model-missing', `${spec.family} model file not found: ${file}`);
  }
  let info: OnnxInfo;
  try {
    info = readOnnxInfo(model);
  } catch (err) {
    if (err instanceof OnnxFormatError) throw new AsrError('model-invalid', `${model} is not a valid ONNX model (${err.message})`, { cause: err });
    throw new AsrError('model-invalid', `cannot read ${model}: ${(err as Error).message}`, { cause: err });
  }
  const missingInputs = spec.inputs.filter((n) => !info.inputs.includes(n));
  if (missingInputs.length > 0) {
    throw new AsrError('model-invalid', `${model} is not a ${spec.family} model: it has no input ${missingInputs.join(', ')} (inputs: ${info.inputs.join(', ')})`);
  }
  const missingMeta = spec.requiredMetadata.filter((k) => !info.metadata.has(k));
  if (missingMeta.length > 0) {
    throw new AsrError('model-invalid', `${model} lacks the ${spec.family} metadata ${missingMeta.join(', ')} (not exported for sherpa-onnx?)`);
  }
  const problem = spec.checkValues?.(info.metadata) ?? featureSizeProblem(spec, info);
  if (problem !== undefined) throw new AsrError('model-invalid', `${model}: ${problem}`);
  checkTokens(spec, tokens, intOf(info.metadata, 'vocab_size'));
  return info;
}

/** A feature input whose declared size is not 80 × lfr_window_size (a symbolic or undeclared size passes). */
function featureSizeProblem(spec: SherpaModelSpec, info: OnnxInfo): string | undefined {
  if (spec.featureInput === undefined) return undefined;
  const last = info.inputShapes.get(spec.featureInput)?.at(-1);
  const want = 80 * (intOf(info.metadata, 'lfr_window_size') ?? 0);
  if (typeof last !== 'number' || last === want) return undefined;
  return `input ${spec.featureInput} takes ${last} features per frame but its metadata (lfr_window_size) gives ${want}: the model and its metadata do not match`;
}

/** tokens.txt: "symbol id" per line (sherpa-onnx/csrc/symbol-table.cc), at least vocab_size of them. */
function checkTokens(spec: SherpaModelSpec, tokens: string, vocabSize: number | undefined): void {
  const lines = fs.readFileSync(tokens, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const malformed = lines.findIndex((l) => !/\s-?\d+\s*$/.test(l));
  if (lines.length === 0 || malformed >= 0) {
    throw new AsrError('model-invalid', `${tokens} is not a sherpa-onnx tokens file${malformed >= 0 ? ` (line ${malformed + 1})` : ''}`);
  }
  const symbols = new Set(lines.map((l) => l.replace(/\s+-?\d+\s*$/, '')));
  const absent = (spec.requiredTokens ?? []).filter((t) => !symbols.has(t));
  if (absent.length > 0) throw new AsrError('model-invalid', `${tokens} has no ${absent.join(', ')} token: not a ${spec.family} tokens file`);
  // Fewer symbols than the model's vocabulary would make an id→symbol lookup throw in native code (abort);
  // more is harmless, so only that direction is refused.
  if (vocabSize !== undefined && lines.length < vocabSize) {
    throw new AsrError('model-invalid', `${tokens} has ${lines.length} tokens but the ${spec.family} model has ${vocabSize}: they belong to different models`);
  }
}
