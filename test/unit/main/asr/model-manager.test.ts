import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../../src/main/asr/model-catalog.ts';
import { ModelDownloadError, ModelManager, type DownloadProgress } from '../../../../src/main/asr/model-manager.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';

/** A real HTTP server on 127.0.0.1 serving the generated model, with Range support and a scripted cut. */
interface FileServer {
  readonly url: string;
  readonly requests: { path: string; range: string | undefined }[];
  /** Bytes after which the next response is cut (socket destroyed), once. */
  cutNextAfter: number | undefined;
  close(): Promise<void>;
}

async function serveFile(files: Record<string, Buffer>): Promise<FileServer> {
  const state: FileServer = { url: '', requests: [], cutNextAfter: undefined, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const p = (req.url ?? '').split('?')[0] ?? '';
    state.requests.push({ path: p, range: req.headers.range });
    const name = p.slice('/mirror/'.length);
    const body = files[name];
    if (!p.startsWith('/mirror/') || body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    let start = 0;
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m) {
      start = Number(m[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
    } else {
      res.writeHead(200, { 'content-length': body.length });
    }
    const slice = body.subarray(start);
    const cut = state.cutNextAfter;
    if (cut !== undefined) {
      state.cutNextAfter = undefined;
      res.write(slice.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(slice);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mirror` });
}

let modelBytes: Buffer;
let entry: CatalogEntry;
let server: FileServer;
let dir: string;

beforeAll(async () => {
  modelBytes = fs.readFileSync(ensureRandomWhisperModel());
  const sha1 = createHash('sha1').update(modelBytes).digest('hex');
  entry = { name: 'random-test', approxBytes: modelBytes.length, sha1, englishOnly: false, quantized: false };
  server = await serveFile({ 'ggml-random-test.bin': modelBytes, 'ggml-wrong-sum.bin': modelBytes });
});
afterAll(() => server.close());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  server.requests.length = 0;
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

function manager(extra: Partial<ConstructorParameters<typeof ModelManager>[0]> = {}): ModelManager {
  return new ModelManager({
    dataDir: dir,
    mirror: server.url,
    catalog: [entry, { ...entry, name: 'wrong-sum', sha1: '0'.repeat(40) }],
    reserveBytes: 0,
    ...extra,
  });
}

describe('model manager', () => {
  it('downloads from the configured mirror with progress, verifies and installs atomically', async () => {
    const m = manager();
    const progress: DownloadProgress[] = [];
    const installed = await m.download('random-test', { onProgress: (p) => progress.push(p) });
    expect(installed).toBe(path.join(dir, 'models', 'ggml-random-test.bin'));
    expect(fs.readFileSync(installed).equals(modelBytes)).toBe(true);
    expect(fs.existsSync(`${installed}.part`)).toBe(false);
    expect(server.requests[0]?.path).toBe('/mirror/ggml-random-test.bin');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toMatchObject({ received: modelBytes.length, total: modelBytes.length, resumedFrom: 0 });
    for (let i = 1; i < progress.length; i++) expect((progress[i] as DownloadProgress).received).toBeGreaterThanOrEqual((progress[i - 1] as DownloadProgress).received);
    expect(m.list().find((l) => l.name === 'random-test')).toMatchObject({ installed: true, bytes: modelBytes.length });
    expect(m.delete('random-test')).toBe(true);
    expect(m.list().find((l) => l.name === 'random-test')?.installed).toBe(false);
  });

  it('an interrupted download resumes with a Range request', async () => {
    const m = manager();
    server.cutNextAfter = 3_000_000;
    const err = await m.download('random-test').then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect((err as ModelDownloadError).code).toBe('network');
    const part = path.join(dir, 'models', 'ggml-random-test.bin.part');
    const partial = fs.statSync(part).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(modelBytes.length);
    expect(fs.existsSync(path.join(dir, 'models', 'ggml-random-test.bin'))).toBe(false);
    expect(m.list().find((l) => l.name === 'random-test')?.partialBytes).toBe(partial);

    const progress: DownloadProgress[] = [];
    const installed = await m.download('random-test', { onProgress: (p) => progress.push(p) });
    expect(server.requests.at(-1)?.range).toBe(`bytes=${partial}-`);
    expect(progress[0]?.resumedFrom).toBe(partial);
    expect(fs.readFileSync(installed).equals(modelBytes)).toBe(true);
  });

  it('a wrong checksum is rejected and nothing is installed', async () => {
    const m = manager();
    await expect(m.download('wrong-sum')).rejects.toMatchObject({ code: 'checksum' });
    const files = fs.readdirSync(path.join(dir, 'models'));
    expect(files).toEqual([]);
  });

  it('checks disk space before writing anything', async () => {
    const m = manager({ freeBytes: () => 1000 });
    await expect(m.download('random-test')).rejects.toMatchObject({ code: 'disk-space' });
    expect(server.requests).toHaveLength(0);
    expect(fs.readdirSync(path.join(dir, 'models'))).toEqual([]);
  });

  it('unknown models and HTTP errors are clear', async () => {
    await expect(manager().download('nope')).rejects.toMatchObject({ code: 'unknown-model' });
    const m = manager({ mirror: `${server.url}/missing` });
    await expect(m.download('random-test')).rejects.toMatchObject({ code: 'http', message: expect.stringMatching(/HTTP 404/) });
    await expect(manager({ mirror: 'http://127.0.0.1:1' }).download('random-test')).rejects.toMatchObject({ code: 'network' });
  });

  it('a cancelled download keeps its part for later', async () => {
    const m = manager();
    const ac = new AbortController();
    const p = m.download('random-test', { signal: ac.signal, onProgress: () => ac.abort() });
    await expect(p).rejects.toMatchObject({ code: 'cancelled' });
    expect(fs.existsSync(path.join(dir, 'models', 'ggml-random-test.bin.part'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'models', 'ggml-random-test.bin'))).toBe(false);
  });
});
