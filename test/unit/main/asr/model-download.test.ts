import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../../src/main/asr/model-catalog.ts';
import { downloadCap, parseContentRange, planResponse, sizeMargin, UNKNOWN_SIZE_CAP } from '../../../../src/main/asr/model-download.ts';
import { ModelDownloadError, ModelManager } from '../../../../src/main/asr/model-manager.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';

/*
 * A mirror is a server the user chose: it may send an endless body, or answer a resume with the wrong bytes.
 * Against a real HTTP server on 127.0.0.1, the part file must never grow past the model's size (+ margin),
 * and a resumed part must only ever be continued by the bytes that follow it.
 */

/** How the server answers a request (given its Range start, or undefined without one). */
type Behaviour = 'honest' | 'endless' | 'range-from-zero' | 'ignore-range';

let modelBytes: Buffer;
let entry: CatalogEntry;
let server: Server;
let url = '';
let behaviour: Behaviour = 'honest';
const ranges: (string | undefined)[] = [];
let dir: string;

function answer(res: ServerResponse, rangeHeader: string | undefined): void {
  const asked = Number(/^bytes=(\d+)-$/.exec(rangeHeader ?? '')?.[1] ?? 0);
  const n = modelBytes.length;
  switch (behaviour) {
    case 'endless': {
      res.writeHead(200); // no Content-Length: chunked, forever
      const chunk = Buffer.alloc(256 * 1024, 7);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    case 'range-from-zero':
      // A broken cache: 206 to a resume, but the whole file from byte 0.
      res.writeHead(206, { 'content-length': n, 'content-range': `bytes 0-${n - 1}/${n}` }).end(modelBytes);
      return;
    case 'ignore-range':
      res.writeHead(200, { 'content-length': n }).end(modelBytes);
      return;
    case 'honest':
      if (rangeHeader === undefined) res.writeHead(200, { 'content-length': n }).end(modelBytes);
      else res.writeHead(206, { 'content-length': n - asked, 'content-range': `bytes ${asked}-${n - 1}/${n}` }).end(modelBytes.subarray(asked));
      return;
  }
}

beforeAll(async () => {
  modelBytes = fs.readFileSync(ensureRandomWhisperModel());
  entry = { name: 'random-test', approxBytes: modelBytes.length, sha1: createHash('sha1').update(modelBytes).digest('hex'), englishOnly: false, quantized: false };
  server = createServer((req, res) => {
    ranges.push(req.headers.range);
    answer(res, req.headers.range);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mirror`;
});
afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-dl-'));
  ranges.length = 0;
  behaviour = 'honest';
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

const partPath = (): string => path.join(dir, 'models', 'ggml-random-test.bin.part');
const finalPath = (): string => path.join(dir, 'models', 'ggml-random-test.bin');
const manager = (): ModelManager => new ModelManager({ dataDir: dir, mirror: url, catalog: [entry], reserveBytes: 0 });

/** Leaves the first `bytes` of the model in the part file, as an interrupted download would. */
function partialPart(bytes: number): void {
  fs.mkdirSync(path.join(dir, 'models'), { recursive: true });
  fs.writeFileSync(partPath(), modelBytes.subarray(0, bytes));
}

describe('model download against a misbehaving mirror', () => {
  it('an endless body stops at the catalog size + margin and names the reason', async () => {
    behaviour = 'endless';
    const sizes: number[] = [];
    const onProgress = (p: { received: number }): void => {
      sizes.push(p.received, fs.existsSync(partPath()) ? fs.statSync(partPath()).size : 0);
    };
    const err = await manager().download('random-test', { onProgress }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect((err as ModelDownloadError).code).toBe('http');
    expect((err as Error).message).toMatch(/sent more than \d+ bytes/);
    const cap = entry.approxBytes + sizeMargin(entry.approxBytes);
    expect(Math.max(0, ...sizes)).toBeLessThanOrEqual(cap);
    // Not this model: discarded, so nothing resumes from it and nothing is installed.
    expect(fs.existsSync(partPath())).toBe(false);
    expect(fs.existsSync(finalPath())).toBe(false);
  }, 60_000);

  it('a 206 from byte 0 to a resume is refused, not appended', async () => {
    const half = Math.floor(modelBytes.length / 2);
    partialPart(half);
    behaviour = 'range-from-zero';
    await expect(manager().download('random-test')).rejects.toMatchObject({ code: 'http', message: expect.stringMatching(/206 from byte 0, but the download asked for the bytes from \d+ on/) });
    expect(ranges).toEqual([`bytes=${half}-`]);
    expect(fs.statSync(partPath()).size).toBe(half); // untouched: a good mirror can still resume it
    expect(fs.existsSync(finalPath())).toBe(false);
  });

  it('a 206 with the range asked for resumes, and the checksum passes', async () => {
    const third = Math.floor(modelBytes.length / 3);
    partialPart(third);
    const installed = await manager().download('random-test');
    expect(ranges).toEqual([`bytes=${third}-`]);
    expect(fs.readFileSync(installed).equals(modelBytes)).toBe(true);
  });

  it('a 200 to a Range request starts the part over instead of appending', async () => {
    partialPart(Math.floor(modelBytes.length / 2));
    behaviour = 'ignore-range';
    const installed = await manager().download('random-test');
    expect(ranges).toHaveLength(1);
    expect(ranges[0]).toMatch(/^bytes=\d+-$/);
    expect(fs.readFileSync(installed).equals(modelBytes)).toBe(true);
  });
});

describe('download decisions (model-download.ts)', () => {
  it('the cap is the catalog size + max(1 %, 1 MiB), else the announced size, else the generous cap', () => {
    expect(downloadCap(10_000, undefined)).toBe(10_000 + 1024 * 1024);
    expect(downloadCap(500_000_000, 1)).toBe(505_000_000);
    expect(downloadCap(undefined, 2_000_000)).toBe(2_000_000 + 1024 * 1024);
    expect(downloadCap(0, undefined)).toBe(UNKNOWN_SIZE_CAP);
  });

  it('reads Content-Range (RFC 9110 §14.4) and refuses what it cannot trust', () => {
    expect(parseContentRange('bytes 100-199/200')).toEqual({ first: 100, last: 199, complete: 200 });
    expect(parseContentRange('bytes 100-199/*')).toEqual({ first: 100, last: 199, complete: undefined });
    for (const bad of [null, '', 'bytes */200', 'bytes 5-4/10', 'bytes 0-10/10', 'items 0-1/2']) expect(parseContentRange(bad), String(bad)).toBeNull();
    const r = (status: number, contentRange: string | null, contentLength: string | null = null) => ({ status, contentRange, contentLength });
    expect(planResponse(r(206, 'bytes 100-199/200'), 100, 200)).toEqual({ kind: 'write', offset: 100, total: 200 });
    expect(planResponse(r(206, 'bytes 100-199/*', '100'), 100, undefined)).toEqual({ kind: 'write', offset: 100, total: 200 });
    expect(planResponse(r(200, null, '200'), 100, 200)).toEqual({ kind: 'write', offset: 0, total: 200 });
    expect(planResponse(r(206, 'bytes 0-199/200'), 100, 200).kind).toBe('refuse');
    expect(planResponse(r(206, null), 100, 200).kind).toBe('refuse');
    expect(planResponse(r(206, 'bytes 100-9999999/10000000'), 100, 200).kind).toBe('refuse');
    expect(planResponse(r(404, null), 0, 200)).toEqual({ kind: 'refuse', reason: 'HTTP 404' });
  });
});
