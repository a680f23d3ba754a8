import { afterEach, describe, expect, it } from 'vitest';
import OpenAI, { toFile } from 'openai';
import { openAiCachedTokens, startOpenAiTestServer } from '../../../helpers/openai-test-server.ts';
import type { OpenAiTestServer } from '../../../helpers/openai-test-server.ts';

let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(s: OpenAiTestServer): OpenAI {
  return new OpenAI({ baseURL: s.baseURL, apiKey: 'sk-test-key', maxRetries: 0, timeout: 5000 });
}

describe('openai test server', () => {
  it('rounds cached tokens the OpenAI way', () => {
    expect(openAiCachedTokens(1023)).toBe(0);
    expect(openAiCachedTokens(1024)).toBe(1024);
    expect(openAiCachedTokens(1151)).toBe(1024);
    expect(openAiCachedTokens(1152)).toBe(1152);
  });

  it('answers plain and streamed chat, counting cached prefix tokens from the second request on', async () => {
    server = await startOpenAiTestServer({ chat: () => ({ kind: 'text', content: '好的,done.' }) });
    const c = client(server);
    const system = '这是一个很长的系统提示,用来测试前缀缓存。The quick brown fox jumps. '.repeat(60);
    const a = await c.chat.completions.create({ model: 'm', messages: [{ role: 'system', content: system }, { role: 'user', content: 'one' }] });
    expect(a.choices[0]?.message.content).toBe('好的,done.');
    expect(a.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const stream = await c.chat.completions.create({
      model: 'm', stream: true, stream_options: { include_usage: true },
      messages: [{ role: 'system', content: system }, { role: 'user', content: 'two' }],
    });
    let text = '';
    let cached = -1;
    let prompt = 0;
    for await (const ch of stream) {
      text += ch.choices[0]?.delta.content ?? '';
      if (ch.usage) {
        cached = ch.usage.prompt_tokens_details?.cached_tokens ?? -1;
        prompt = ch.usage.prompt_tokens;
      }
    }
    expect(text).toBe('好的,done.');
    expect(prompt).toBeGreaterThan(1024);
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect(cached % 128).toBe(0);
    expect(cached).toBeLessThanOrEqual(prompt);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test-key');
  });

  it('reports DeepSeek hit/miss fields in the deepseek flavour', async () => {
    server = await startOpenAiTestServer({ flavour: 'deepseek' });
    const c = client(server);
    const system = 'stable prefix text '.repeat(50);
    await c.chat.completions.create({ model: 'd', messages: [{ role: 'system', content: system }, { role: 'user', content: 'a' }] });
    const b = await c.chat.completions.create({ model: 'd', messages: [{ role: 'system', content: system }, { role: 'user', content: 'b' }] });
    const u = b.usage as unknown as { prompt_cache_hit_tokens: number; prompt_cache_miss_tokens: number; prompt_tokens: number };
    expect(u.prompt_cache_hit_tokens).toBeGreaterThan(0);
    expect(u.prompt_cache_hit_tokens + u.prompt_cache_miss_tokens).toBe(u.prompt_tokens);
  });

  it('answers multipart transcriptions in json, text and verbose_json', async () => {
    server = await startOpenAiTestServer({ transcription: () => ({ kind: 'text', text: 'hello 世界', language: 'zh', duration: 1.5 }) });
    const c = client(server);
    const file = await toFile(Buffer.alloc(3200), 'a.wav', { type: 'audio/wav' });
    const j = await c.audio.transcriptions.create({ model: 'whisper-1', file, language: 'zh', prompt: 'WenZi' });
    expect(j.text).toBe('hello 世界');
    const v = await c.audio.transcriptions.create({ model: 'whisper-1', file, response_format: 'verbose_json' });
    expect(v.language).toBe('zh');
    const t = await c.audio.transcriptions.create({ model: 'whisper-1', file, response_format: 'text' });
    expect(String(t)).toBe('hello 世界');
    expect(server.requests[0]?.fields?.prompt).toBe('WenZi');
    expect(server.requests[0]?.files?.[0]?.size).toBe(3200);
  });

  it('plays HTTP faults and a 429 with retry-after', async () => {
    const faults = [401, 413, 500] as const;
    let i = 0;
    server = await startOpenAiTestServer({
      chat: () => (i < faults.length ? { kind: 'fault', fault: { kind: 'http', status: faults[i++] ?? 500 } } : { kind: 'fault', fault: { kind: 'rate-limited', retryAfterSeconds: 7 } }),
    });
    const c = client(server);
    for (const status of [401, 413, 500, 429]) {
      const err = await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      expect((err as { status?: number }).status).toBe(status);
    }
    const models = await c.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['test-model']);
  });

  it('close() ends a stalled request', async () => {
    server = await startOpenAiTestServer({ chat: () => ({ kind: 'fault', fault: { kind: 'stall-before-headers' } }) });
    const c = client(server);
    const pending = c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await server.close();
    server = undefined;
    expect(await pending).toBeInstanceOf(Error);
  });
});
