import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../../src/cli/main.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../helpers/openai-test-server.ts';

let dir: string | undefined;
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  server = undefined;
});

function io(env: NodeJS.ProcessEnv = {}): { out: string[]; err: string[]; io: Parameters<typeof main>[1] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env } };
}

describe('tingxie enhance', () => {
  it('dry-run prints the exact request body; run sends it and never prints the key', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    server = await startOpenAiTestServer({ chat: () => ({ kind: 'text', content: 'Hello world.' }) });
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ ai_enhance: { providers: { t: { base_url: server.baseURL, models: ['m'] } }, default_provider: 't', default_model: 'm' } }));
    const a = io();
    expect(await main(['enhance', '--dry-run', '平平你好', '--mode', 'translate_en', '--data-dir', dir], a.io)).toBe(0);
    const body = JSON.parse(a.out.join('')) as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe('m');
    expect(body.messages[0]?.content).toContain('翻译');
    expect(body.messages[1]?.content).toBe('平平你好');
    const b = io({ TINGXIE_API_KEY: 'sk-cli-secret-key-123456789' });
    expect(await main(['enhance', 'hello world', '--mode=translate_en', '--data-dir', dir], b.io)).toBe(0);
    expect(b.out.join('')).toBe('Hello world.\n');
    expect(server.requests[0]?.bodyText).toBe(JSON.stringify(body).replace('平平你好', 'hello world'));
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-cli-secret-key-123456789');
    expect([...b.out, ...b.err].join('')).not.toContain('sk-cli-secret');
  });
});
