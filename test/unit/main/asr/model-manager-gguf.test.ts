import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../../src/main/asr/model-catalog.ts';
import { ModelDownloadError, ModelManager } from '../../../../src/main/asr/model-manager.ts';
import { APP_MODEL_CATALOG, llmModelInstalled } from '../../../../src/main/app/llm-models.ts';
import { LLM_CATALOG, llmCardInfo, recommendLlmModels } from '../../../../src/main/enhance/local-llm/llm-catalog.ts';
import { localModelPath } from '../../../../src/main/enhance/local-llm/local-provider.ts';
import { ConfigStore } from '../../../../src/main/settings/config-store.ts';
import { ensureRandomQwenGguf } from '../../../helpers/gguf-writer.ts';

/*
 * GGUF models of the built-in LLM engine through the model manager: a real HTTP server serving a generated
 * GGUF at Hugging Face's /<repo>/resolve/main/<file> path under the mirror's host, a cut connection resumed
 * with Range, the SHA-256 check, the GGUF header check, and the config a finished download changes.
 */

interface Served {
  readonly origin: string;
  readonly requests: { path: string; range: string | undefined }[];
  cutNextAfter: number | undefined;
  close(): Promise<void>;
}

async function serve(files: Record<string, Buffer>): Promise<Served> {
  const state: Served = { origin: '', requests: [], cutNextAfter: undefined, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const p = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
    state.requests.push({ path: p, range: req.headers.range });
    const body = files[p];
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    if (m) res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
    else res.writeHead(200, { 'content-length': body.length });
    const cut = state.cutNextAfter;
    if (cut !== undefined) {
      state.cutNextAfter = undefined;
      res.write(body.subarray(start, start + cut), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(body.subarray(start));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return Object.assign(state, { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

let gguf: Buffer;
let server: Served;
let dir: string;
let good: CatalogEntry;

beforeAll(async () => {
  gguf = fs.readFileSync(ensureRandomQwenGguf());
  const sha256 = createHash('sha256').update(gguf).digest('hex');
  good = { name: 'tiny-llm', approxBytes: gguf.length, sha1: null, englishOnly: false, quantized: true, gguf: { repo: 'test/Tiny-GGUF', file: 'tiny.gguf', sha256 } };
  server = await serve({
    '/test/Tiny-GGUF/resolve/main/tiny.gguf': gguf,
    '/test/Tiny-GGUF/resolve/main/not-gguf.gguf': Buffer.alloc(4096, 7),
  });
});
afterAll(() => server.close());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-gguf-'));
  server.requests.length = 0;
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

function manager(catalog: CatalogEntry[]): ModelManager {
  // The mirror names whisper.cpp's repository; only its origin is used for other repositories' files.
  return new ModelManager({ dataDir: dir, mirror: `${server.origin}/ggerganov/whisper.cpp/resolve/main`, catalog, freeBytes: () => 1e12 });
}

describe('GGUF models in the model manager', () => {
  it('downloads from the mirror host, resumes a cut download with Range, checks SHA-256, installs as models/llm/<file>', async () => {
    const m = manager([good]);
    server.cutNextAfter = 100_000;
    await expect(m.download('tiny-llm')).rejects.toMatchObject({ code: 'network' });
    expect(m.list()[0]?.partialBytes).toBe(100_000);
    const installed = await m.download('tiny-llm');
    expect(installed).toBe(path.join(dir, 'models', 'llm', 'tiny.gguf'));
    // The local provider finds a bare file name in the same folder.
    expect(localModelPath(dir, 'tiny.gguf')).toBe(installed);
    expect(fs.readFileSync(installed).equals(gguf)).toBe(true);
    expect(server.requests.map((r) => [r.path, r.range])).toEqual([
      ['/test/Tiny-GGUF/resolve/main/tiny.gguf', undefined],
      ['/test/Tiny-GGUF/resolve/main/tiny.gguf', 'bytes=100000-'],
    ]);
    expect(m.list()[0]).toMatchObject({ installed: true, bytes: gguf.length, partialBytes: 0 });
  });

  it('discards a file whose SHA-256 does not match', async () => {
    const wrong: CatalogEntry = { ...good, gguf: { repo: 'test/Tiny-GGUF', file: 'tiny.gguf', sha256: '0'.repeat(64) } };
    const err = await manager([wrong]).download('tiny-llm').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect((err as ModelDownloadError).code).toBe('checksum');
    expect(fs.existsSync(path.join(dir, 'models', 'llm', 'tiny.gguf'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'models', 'llm', 'tiny.gguf.part'))).toBe(false);
  });

  it('without a published checksum, refuses a file that is not GGUF', async () => {
    const notGguf: CatalogEntry = { ...good, name: 'not-gguf', gguf: { repo: 'test/Tiny-GGUF', file: 'not-gguf.gguf', sha256: null } };
    await expect(manager([notGguf]).download('not-gguf')).rejects.toMatchObject({ code: 'invalid-file' });
    expect(fs.readdirSync(path.join(dir, 'models', 'llm'))).toEqual([]);
  });
});

describe('the LLM catalog', () => {
  it('has the seven Q4_K_M models, joined to the app catalog as GGUF entries; only real checksums', () => {
    expect(LLM_CATALOG.map((e) => e.name)).toEqual([
      'qwen2.5-0.5b-instruct-q4_k_m', 'qwen2.5-1.5b-instruct-q4_k_m', 'qwen2.5-3b-instruct-q4_k_m', 'qwen2.5-7b-instruct-q4_k_m',
      'qwen3-0.6b-q4_k_m', 'qwen3-1.7b-q4_k_m', 'qwen3-4b-q4_k_m',
    ]);
    for (const e of LLM_CATALOG) {
      expect(e.file).toMatch(/q4_k_m\.gguf$/i);
      expect(e.sha256 === null || /^[0-9a-f]{64}$/.test(e.sha256)).toBe(true);
      expect(APP_MODEL_CATALOG.find((c) => c.name === e.name)?.gguf).toEqual({ repo: e.repo, file: e.file, sha256: e.sha256 });
    }
  });

  it('recommends by memory, Apple silicon and UI language', () => {
    const GiB = 1024 ** 3;
    expect(recommendLlmModels({ totalMemBytes: 4 * GiB, appleSilicon: false, lang: 'zh' })[0]).toBe('qwen2.5-0.5b-instruct-q4_k_m');
    expect(recommendLlmModels({ totalMemBytes: 8 * GiB, appleSilicon: false, lang: 'zh' })[0]).toBe('qwen2.5-1.5b-instruct-q4_k_m');
    expect(recommendLlmModels({ totalMemBytes: 8 * GiB, appleSilicon: false, lang: 'en' })[0]).toBe('qwen3-1.7b-q4_k_m');
    expect(recommendLlmModels({ totalMemBytes: 16 * GiB, appleSilicon: false, lang: 'zh' })[0]).toBe('qwen2.5-3b-instruct-q4_k_m');
    expect(recommendLlmModels({ totalMemBytes: 16 * GiB, appleSilicon: true, lang: 'zh' })[0]).toBe('qwen2.5-7b-instruct-q4_k_m');
    expect(recommendLlmModels({ totalMemBytes: 32 * GiB, appleSilicon: true, lang: 'en' })[0]).toBe('qwen3-4b-q4_k_m');
    // Never a 7B on a CPU-only machine.
    expect(recommendLlmModels({ totalMemBytes: 64 * GiB, appleSilicon: false, lang: 'zh' })).not.toContain('qwen2.5-7b-instruct-q4_k_m');
    expect(llmCardInfo('qwen2.5-1.5b-instruct-q4_k_m', 8 * GiB, 'linux', 'x64')).toMatchObject({ params: 1.5, rank: { zh: 0, en: 1 } });
    expect(llmCardInfo('base', 8 * GiB, 'linux', 'x64')).toBeUndefined();
  });
});

describe('a finished LLM download', () => {
  it('becomes the local provider model; the default model only when local is the default provider', async () => {
    const store = await ConfigStore.open({ dataDir: dir });
    expect(await llmModelInstalled(store, 'base')).toBe(false);
    expect(await llmModelInstalled(store, 'qwen2.5-1.5b-instruct-q4_k_m')).toBe(true);
    let a = store.get().ai_enhance;
    expect(a.providers.local).toMatchObject({ kind: 'local', models: ['qwen2.5-1.5b-instruct-q4_k_m.gguf'] });
    expect(a.default_provider).toBe('ollama');
    expect(a.default_model).toBe('qwen2.5:7b');
    await store.set('ai_enhance.default_provider', 'local');
    await llmModelInstalled(store, 'qwen3-0.6b-q4_k_m');
    a = store.get().ai_enhance;
    expect(a.providers.local?.models).toEqual(['Qwen3-0.6B-Q4_K_M.gguf', 'qwen2.5-1.5b-instruct-q4_k_m.gguf']);
    expect(a.default_model).toBe('Qwen3-0.6B-Q4_K_M.gguf');
  });
});
