import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAsrEngine, resolveModelPath } from '../../../../src/main/asr/engine-factory.ts';
import { LocalWhisperEngine } from '../../../../src/main/asr/local-engine.ts';
import { MODEL_CATALOG, RECOMMENDED_MODELS, SHERPA_CATALOG, findModel, modelRelPath, modelSpeed, sherpaFileUrl, type CatalogEntry } from '../../../../src/main/asr/model-catalog.ts';
import { ModelDownloadError, ModelManager, type DownloadProgress } from '../../../../src/main/asr/model-manager.ts';
import { sttModelName } from '../../../../src/main/dictation/service-graph.ts';
import { configSchema } from '../../../../src/shared/config/config-schema.ts';
import { speechModelName } from '../../../../src/shared/speech-model-name.ts';
import { ensureRandomSenseVoiceModel } from '../../../helpers/sense-voice-model.ts';

/*
 * The sherpa-onnx models in the catalog, the recommendation, the factory's choice of engine by model, and
 * the model manager installing a model folder (files fetched one by one from a local HTTP server with
 * Range support, checked, renamed into place).
 */

describe('the sherpa-onnx catalog entries', () => {
  it('lists SenseVoice-Small and Paraformer int8 as folders of model.int8.onnx + tokens.txt, checksums explicitly unknown', () => {
    for (const name of ['sense-voice-small-int8', 'paraformer-zh-int8', 'paraformer-zh-small-int8']) {
      const e = findModel(name);
      expect(e?.sherpa?.files.map((f) => f.file)).toEqual(['model.int8.onnx', 'tokens.txt']);
      expect(e?.sha1).toBeNull();
      expect(e?.sherpa?.files.every((f) => f.sha256 === null)).toBe(true);
      expect(e?.approxBytes).toBeGreaterThan(200e6);
      expect(modelRelPath(name)).toBe(`${name}/model.int8.onnx`);
      expect(configSchema.shape.asr.parse({ local: { model: name } }).local.model).toBe(name);
    }
    expect(findModel('sense-voice-small-int8')?.sherpa).toMatchObject({ family: 'sense-voice', languages: ['zh', 'en', 'ja', 'ko', 'yue'] });
    expect(findModel('paraformer-zh-int8')?.sherpa?.family).toBe('paraformer');
    expect(modelRelPath('base')).toBe('ggml-base.bin');
    expect(modelSpeed('sense-voice-small-int8')).toBe(5);
  });

  it('recommends SenseVoice-Small first for a Chinese UI and base.en for an English one; every recommendation is in the catalog', () => {
    expect(RECOMMENDED_MODELS.zh[0]).toBe('sense-voice-small-int8');
    expect(RECOMMENDED_MODELS.en[0]).toBe('base.en');
    for (const n of [...RECOMMENDED_MODELS.zh, ...RECOMMENDED_MODELS.en]) expect(findModel(n)).toBeDefined();
    // What the cards and the setup guide read: the manager's listing with the default catalog.
    const listing = new ModelManager({ dataDir: path.join(os.tmpdir(), 'tingxie-no-such-dir'), mirror: 'https://huggingface.co/x' }).list();
    expect(listing.find((m) => m.name === 'sense-voice-small-int8')).toMatchObject({ installed: false, partialBytes: 0, recommended: { zh: 0 } });
    expect(listing.find((m) => m.name === 'base.en')?.recommended).toEqual({ en: 0 });
  });

  it('fetches files from the mirror host (hf-mirror style) and the model repository', () => {
    const info = SHERPA_CATALOG[0]?.sherpa;
    if (info === undefined) throw new Error('no sherpa entry');
    expect(sherpaFileUrl('https://hf-mirror.com/ggerganov/whisper.cpp/resolve/main', info, 'tokens.txt')).toBe(`https://hf-mirror.com/${info.repo}/resolve/main/tokens.txt`);
    expect(sherpaFileUrl('not a url', info, 'x')).toBe(`https://huggingface.co/${info.repo}/resolve/main/x`);
  });

  it('names the model in records and the UI; builds the local engine in sherpa mode for it', () => {
    const config = configSchema.parse({ asr: { local: { model: 'sense-voice-small-int8' } } });
    expect(sttModelName(config)).toBe('sense-voice-small-int8');
    expect(sttModelName(configSchema.parse({ asr: { local: { model: 'base' } } }))).toBe('whisper-base');
    expect(speechModelName('sense-voice-small-int8', 'en')).toBe('SenseVoice-Small (int8)');
    expect(resolveModelPath('/d', 'sense-voice-small-int8')).toBe(path.join('/d', 'models', 'sense-voice-small-int8', 'model.int8.onnx'));
    const engine = createAsrEngine({ dataDir: '/d', config });
    expect(engine).toBeInstanceOf(LocalWhisperEngine);
    expect((engine as unknown as { opts: { sherpa?: unknown } }).opts.sherpa).toEqual({ family: 'sense-voice' });
    const whisper = createAsrEngine({ dataDir: '/d', config: configSchema.parse({}) });
    expect((whisper as unknown as { opts: { sherpa?: unknown } }).opts.sherpa).toBeUndefined();
  });
});

describe('ModelManager with a sherpa model folder', () => {
  let files: Record<string, Buffer>;
  let server: Server;
  let base: string;
  let dataDir: string;
  let cutNextAfter: number | undefined;
  const requests: { path: string; range: string | undefined }[] = [];
  const repo = 'test/sense-voice';
  const entryWith = (sha256: string | null = null): CatalogEntry => ({
    name: 'sv-test',
    approxBytes: (files['model.int8.onnx']?.length ?? 0) + (files['tokens.txt']?.length ?? 0),
    sha1: null,
    englishOnly: false,
    quantized: true,
    sherpa: {
      family: 'sense-voice',
      repo,
      modelFile: 'model.int8.onnx',
      files: [
        { file: 'model.int8.onnx', approxBytes: files['model.int8.onnx']?.length ?? 0, sha256 },
        { file: 'tokens.txt', approxBytes: files['tokens.txt']?.length ?? 0, sha256: null },
      ],
      languages: ['zh', 'en'],
    },
  });
  const manager = (entry: CatalogEntry): ModelManager =>
    new ModelManager({ dataDir, mirror: `${base}/ggerganov/whisper.cpp/resolve/main`, catalog: [entry], recommended: { zh: [entry.name], en: [] }, freeBytes: () => 1e12 });

  beforeAll(async () => {
    const m = ensureRandomSenseVoiceModel();
    files = { 'model.int8.onnx': fs.readFileSync(m.model), 'tokens.txt': fs.readFileSync(m.tokens) };
    server = createServer((req, res) => {
      const p = req.url ?? '';
      requests.push({ path: p, range: req.headers.range });
      const body = files[p.slice(`/${repo}/resolve/main/`.length)];
      if (!p.startsWith(`/${repo}/resolve/main/`) || body === undefined) return void res.writeHead(404).end();
      const start = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
      if (start > 0) res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
      else res.writeHead(200, { 'content-length': body.length });
      const cut = cutNextAfter;
      if (cut !== undefined) {
        cutNextAfter = undefined;
        res.write(body.subarray(start, start + cut), () => setTimeout(() => res.socket?.destroy(), 20));
        return;
      }
      res.end(body.subarray(start));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-sherpa-mm-'));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('downloads each file, resumes a cut one, checks the folder and installs it where the engine looks', async () => {
    const mm = manager(entryWith());
    cutNextAfter = 4096;
    const err = await mm.download('sv-test').then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect(mm.list()[0]).toMatchObject({ installed: false, partialBytes: 4096 });
    const progress: DownloadProgress[] = [];
    const installed = await mm.download('sv-test', { onProgress: (p) => progress.push(p) });
    expect(installed).toBe(path.join(dataDir, 'models', 'sv-test', 'model.int8.onnx'));
    expect(fs.readFileSync(path.join(dataDir, 'models', 'sv-test', 'tokens.txt'))).toEqual(files['tokens.txt']);
    expect(requests.filter((r) => r.path.endsWith('model.int8.onnx')).map((r) => r.range)).toEqual([undefined, 'bytes=4096-']);
    expect(progress.at(-1)?.received).toBe(entryWith().approxBytes);
    expect(mm.list()[0]).toMatchObject({ name: 'sv-test', installed: true, partialBytes: 0, recommended: { zh: 0 } });
    expect(fs.existsSync(path.join(dataDir, 'models', 'sv-test.partdir'))).toBe(false);
    expect(mm.delete('sv-test')).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'models', 'sv-test'))).toBe(false);
  });

  it('refuses a file whose published checksum does not match, and a folder sherpa-onnx could not load', async () => {
    const bad = await manager(entryWith('0'.repeat(64))).download('sv-test').then(() => undefined, (e: unknown) => e);
    expect(bad).toMatchObject({ code: 'checksum' });
    const real = files['model.int8.onnx'];
    files['model.int8.onnx'] = Buffer.from('not an onnx model');
    try {
      const invalid = await manager(entryWith()).download('sv-test').then(() => undefined, (e: unknown) => e);
      expect(invalid).toMatchObject({ code: 'invalid-file' });
    } finally {
      if (real !== undefined) files['model.int8.onnx'] = real;
    }
    expect(fs.existsSync(path.join(dataDir, 'models', 'sv-test'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'models', 'sv-test.partdir'))).toBe(false);
  });

  it('keeps the whisper catalog as it was', () => {
    expect(MODEL_CATALOG.filter((e) => e.sherpa === undefined).every((e) => typeof e.sha1 === 'string')).toBe(true);
  });
});

describe('one model story: the default follows the UI language, the catalog is grouped', () => {
  it('a new install starts with the model the guide recommends first', async () => {
    const { defaultSpeechModel } = await import('../../../../src/main/asr/model-catalog.ts');
    expect(defaultSpeechModel('zh')).toBe(RECOMMENDED_MODELS.zh[0]);
    expect(defaultSpeechModel('en')).toBe(RECOMMENDED_MODELS.en[0]);
    for (const n of RECOMMENDED_MODELS.multi) expect(findModel(n)?.englishOnly).toBe(false);
  });

  it('every catalog model is in one group: Chinese, English only, multilingual or large', async () => {
    const { modelGroup } = await import('../../../../src/main/asr/model-catalog.ts');
    const groups = new Map<string, string[]>();
    for (const m of MODEL_CATALOG) groups.set(modelGroup(m.name), [...(groups.get(modelGroup(m.name)) ?? []), m.name]);
    expect(groups.get('chinese')).toEqual(['sense-voice-small-int8', 'paraformer-zh-int8', 'paraformer-zh-small-int8']);
    expect(groups.get('english')).toEqual(['tiny.en', 'tiny.en-q5_1', 'tiny.en-q8_0', 'base.en', 'base.en-q5_1', 'base.en-q8_0', 'small.en', 'small.en-q5_1', 'small.en-q8_0']);
    expect(groups.get('multilingual')).toContain('small-q5_1');
    expect(groups.get('large')).toContain('medium.en');
    expect(groups.get('large')).toContain('large-v3-turbo-q5_0');
    expect([...groups.values()].reduce((n, g) => n + g.length, 0)).toBe(MODEL_CATALOG.length);
  });
});
