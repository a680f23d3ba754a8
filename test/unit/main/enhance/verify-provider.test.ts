import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyProvider } from '../../../../src/main/enhance/llm-client.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../helpers/openai-test-server.ts';
import { SECRET_KEY } from './enhance-fixture.ts';

/**
 * Provider verification (Settings "Verify") against real local servers: the OpenAI-compatible test
 * server for the good case, and two minimal servers for what it cannot play on GET /v1/models (a 401
 * that echoes the key the way OpenAI's "Incorrect API key provided: sk-…" does, and a server that
 * accepts the connection and never answers).
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function listen(server: Server | NetServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

const provider = (baseURL: string) => ({ id: 'p', baseURL, apiKey: SECRET_KEY });
const leaks = (text: string): boolean => text.includes(SECRET_KEY) || text.includes(SECRET_KEY.slice(-8));

describe('verifyProvider', () => {
  it('is ok when the model is listed, and says so when it is not', async () => {
    const server: OpenAiTestServer = await startOpenAiTestServer({ models: ['test-model', 'other-model'] });
    cleanups.push(() => server.close());
    const ok = await verifyProvider(provider(server.baseURL), 'test-model', 2000);
    expect(ok).toEqual({ ok: true, code: 'ok', models: ['test-model', 'other-model'], message: 'ok: 2 models' });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    const missing = await verifyProvider(provider(server.baseURL), 'gpt-nope', 2000);
    expect(missing).toMatchObject({ ok: false, code: 'model-missing', models: ['test-model', 'other-model'] });
    expect(missing.message).toContain('gpt-nope');
  });

  it('401 → "the API key was rejected", without the key even when the server echoes it', async () => {
    const server = createHttpServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization ?? ''}`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
    });
    const port = await listen(server);
    cleanups.push(() => new Promise((r) => server.close(() => r())));
    const r = await verifyProvider(provider(`http://127.0.0.1:${port}/v1`), 'test-model', 2000);
    expect(r).toMatchObject({ ok: false, code: 'auth', models: [] });
    expect(r.message).toMatch(/API key was rejected \(401\)/);
    expect(leaks(JSON.stringify(r))).toBe(false);
  });

  it('an unreachable port → "cannot reach host:port"', async () => {
    const probe = createNetServer();
    const port = await listen(probe);
    await new Promise<void>((r) => probe.close(() => r())); // the port is now closed: connection refused
    const t = performance.now();
    const r = await verifyProvider(provider(`http://127.0.0.1:${port}/v1`), 'test-model', 2000);
    expect(r).toMatchObject({ ok: false, code: 'unreachable' });
    expect(r.message).toContain(`cannot reach 127.0.0.1:${port}`);
    expect(r.message).toMatch(/ECONNREFUSED|refused|Connection error/i);
    expect(performance.now() - t).toBeLessThan(2000);
    expect(leaks(r.message)).toBe(false);
  });

  it('a server that never answers → a timeout within the limit', async () => {
    const sockets = new Set<Socket>();
    const server = createNetServer((s) => sockets.add(s)); // accepts, reads nothing, answers nothing
    const port = await listen(server);
    cleanups.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    });
    const t = performance.now();
    const r = await verifyProvider(provider(`http://127.0.0.1:${port}/v1`), 'test-model', 400);
    const elapsed = performance.now() - t;
    expect(r).toMatchObject({ ok: false, code: 'timeout' });
    expect(r.message).toBe('the server did not answer within 0.4 s');
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(1500);
    expect(leaks(r.message)).toBe(false);
  });
});
