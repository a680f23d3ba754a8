import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioJournal } from '../../../../src/main/audio/journal.ts';
import { AsrService } from '../../../../src/main/asr/asr-service.ts';
import { transcribeJournaled } from '../../../../src/main/asr/journaled.ts';
import { RemoteAsrEngine } from '../../../../src/main/asr/remote-engine.ts';
import { AsrError } from '../../../../src/main/asr/types.ts';
import { defaultConfig } from '../../../../src/shared/config/config-schema.ts';

/*
 * API keys stay out of what is written: a server that echoes the API key back in its error (as some do:
 * "invalid key sk-…", or the request URL) must not get it into the notice text or `journal/<id>.json`.
 */

const KEY = 'my-remote-key-0123456789-abcdef'; // no known key shape: only the configured-key redaction catches it
let server: http.Server;
let baseURL: string;
let status = 400;
let dir: string;
const speech = new Float32Array(16000).map((_, i) => 0.3 * Math.sin(i / 9));

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const auth = String(req.headers.authorization ?? '');
      const key = auth.replace(/^Bearer\s+/i, '');
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Invalid key '${key}' (sent as "${auth}", tail ${key.slice(-8)})`, type: 'invalid_request_error' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-redact-'));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('remote ASR: a key the server echoes back is redacted', () => {
  for (const code of [400, 500, 404]) {
    it(`HTTP ${code}: the error message and the journal entry hold no key`, async () => {
      status = code;
      const journal = new AudioJournal(dir);
      const id = `echo-${code}`;
      const engine = new RemoteAsrEngine({ baseURL, apiKey: KEY, model: 'whisper-1', timeoutMs: 3000 });
      const err = await transcribeJournaled(journal, id, speech, engine).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AsrError);
      const message = (err as AsrError).message;
      expect(message).toMatch(/Invalid key/); // the server's words still reach the user…
      expect(message).not.toContain(KEY); // …without the key
      expect(message).not.toContain(KEY.slice(-8));
      const onDisk = fs.readFileSync(path.join(dir, 'journal', `${id}.json`), 'utf8');
      expect(JSON.parse(onDisk).status).toBe('failed');
      expect(onDisk).not.toContain(KEY);
      expect(onDisk).not.toContain(KEY.slice(-8));
    });
  }

  it('the journal redacts a key-shaped value even from an error it was handed raw', () => {
    const journal = new AudioJournal(dir);
    journal.write('raw', speech, 16000);
    const e = journal.markFailed('raw', 'server said: Authorization: Bearer sk-abcdefghijklmnopqrstuv');
    expect(e.error).toBe('server said: Authorization: Bearer ***');
  });
});

describe('remote ASR: a key entered for another server is not sent', () => {
  it('AsrService refuses with a clear message, without any request', async () => {
    let requests = 0;
    const counting = http.createServer((req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(counting.address() as { port: number }).port}/v1`;
      const config = { ...defaultConfig(), asr: { ...defaultConfig().asr, engine: 'remote' as const, remote: { base_url: url, model: 'whisper-1' } } };
      const service = new AsrService({
        dataDir: dir,
        journal: new AudioJournal(dir),
        remoteApiKey: () => undefined,
        remoteKeyMismatch: () => ({ savedFor: 'https://api.openai.com', now: new URL(url).origin }),
      });
      const err = await service.transcribe(config, { pcm: speech, sessionId: 'moved' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AsrError);
      expect((err as AsrError).code).toBe('auth');
      expect((err as AsrError).message).toMatch(/entered for https:\/\/api\.openai\.com.*enter it again in Settings/);
      expect(requests).toBe(0);
    } finally {
      await new Promise((r) => counting.close(r));
    }
  });
});
