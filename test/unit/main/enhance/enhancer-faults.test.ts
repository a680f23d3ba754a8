import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS, settingsFromConfig } from '../../../../src/main/enhance/enhancer.ts';
import { defaultConfig } from '../../../../src/shared/config/config-schema.ts';
import type { ChatReply, Fault } from '../../../helpers/openai-test-server.ts';
import { makeFixture, SECRET_KEY, type Fixture } from './enhance-fixture.ts';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const RAW = '果果今天在公园里遇到了平平';
const GOOD = '果果今天在公园里遇到了萍萍。';
const DEADLINE = 600;

const FAULTS: readonly (readonly [string, Fault | 'empty' | 'blank'])[] = [
  ['stall before headers', { kind: 'stall-before-headers' }],
  ['stalled stream', { kind: 'stall-mid-stream', afterChunks: 2 }],
  ['401', { kind: 'http', status: 401 }],
  ['413', { kind: 'http', status: 413 }],
  ['429 with a retry-after beyond the deadline', { kind: 'rate-limited', retryAfterSeconds: 30 }],
  ['500 on every attempt', { kind: 'http', status: 500 }],
  ['malformed JSON', { kind: 'malformed-json' }],
  ['truncated stream', { kind: 'truncated-stream', afterChunks: 2 }],
  ['connection reset', { kind: 'connection-reset', afterChunks: 2 }],
  ['empty content', 'empty'],
  ['whitespace content', 'blank'],
];

describe('enhancer faults', () => {
  it.each(FAULTS)('%s → raw text inside the deadline, no double output, next call works', async (_name, fault) => {
    let failing = true;
    fx = await makeFixture({
      chat: (): ChatReply => {
        if (!failing) return { kind: 'text', content: GOOD };
        if (fault === 'empty') return { kind: 'text', content: '' };
        if (fault === 'blank') return { kind: 'text', content: '  \n ' };
        return { kind: 'fault', fault };
      },
    });
    const answers: string[] = [];
    const started = Date.now();
    const r = await fx.enhancer.enhance({ text: RAW, onEvent: (e) => void (e.type === 'answer' ? answers.push(e.text) : e.type === 'reset' ? answers.push('<reset>') : undefined) });
    const elapsed = Date.now() - started;
    expect(r.status).toBe('fallback');
    expect(r.text).toBe(RAW);
    expect(r.enhanced).toBeNull();
    expect(r.reason?.message.length).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(DEADLINE + 400);
    const eventsAtReturn = answers.length;
    await new Promise((res) => setTimeout(res, 150));
    expect(answers.length).toBe(eventsAtReturn); // nothing arrives after the result
    failing = false;
    const next = await fx.enhancer.enhance({ text: RAW });
    expect(next.status).toBe('enhanced');
    expect(next.text).toBe(GOOD);
  });

  it('retries a 500 and a 429 with a short retry-after inside the deadline', async () => {
    let n = 0;
    fx = await makeFixture({
      chat: (): ChatReply => {
        n++;
        if (n === 1) return { kind: 'fault', fault: { kind: 'http', status: 500 } };
        if (n === 2) return { kind: 'fault', fault: { kind: 'rate-limited', retryAfterSeconds: 0 } };
        return { kind: 'text', content: GOOD };
      },
    }, { timeoutMs: 3000 });
    const r = await fx.enhancer.enhance({ text: RAW });
    expect(r.status).toBe('enhanced');
    expect(n).toBe(3);
  });

  it('cancels through an AbortSignal', async () => {
    fx = await makeFixture({ chat: () => ({ kind: 'fault', fault: { kind: 'stall-before-headers' } }) }, { timeoutMs: 5000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    const r = await fx.enhancer.enhance({ text: RAW, signal: ac.signal });
    expect(r.reason?.code).toBe('cancelled');
    expect(r.text).toBe(RAW);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('separates <think> blocks and reasoning_content from the answer', async () => {
    fx = await makeFixture({ chat: () => ({ kind: 'text', content: GOOD, thinkTag: '平平应为萍萍', reasoningContent: 'r1' }) });
    const shown: string[] = [];
    const r = await fx.enhancer.enhance({ text: RAW, onEvent: (e) => void (e.type === 'answer' && shown.push(e.text)) });
    expect(r.text).toBe(GOOD);
    expect(r.thinking).toContain('平平应为萍萍');
    expect(r.thinking).toContain('r1');
    expect(shown.join('')).toBe(GOOD);
  });

  it('the default deadline is the seed 10 s and comes from the config', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
    const s = settingsFromConfig(defaultConfig(), 'zh');
    expect(s.timeoutMs).toBe(10_000);
    expect(s.connectTimeoutMs).toBe(10_000);
    expect(s.maxRetries).toBe(2);
  });
});

describe('API keys never leak', () => {
  it('not in bodies, logs, results, error messages or history records', async () => {
    let n = 0;
    fx = await makeFixture({
      chat: (): ChatReply => {
        n++;
        // A server that echoes the key in its error text: the reason must still be clean.
        if (n === 1) return { kind: 'fault', fault: { kind: 'http', status: 401, message: `Incorrect API key provided: ${SECRET_KEY}` } };
        if (n === 2) return { kind: 'fault', fault: { kind: 'http', status: 400 as 401, message: `bad key ${SECRET_KEY.slice(-8)}` } };
        return { kind: 'text', content: GOOD };
      },
    });
    const r1 = await fx.enhancer.enhance({ text: RAW });
    const r2 = await fx.enhancer.enhance({ text: RAW });
    const r3 = await fx.enhancer.enhance({ text: RAW });
    expect(r1.reason?.code).toBe('auth');
    await fx.history.log({
      asr_text: r3.raw, enhanced_text: r3.enhanced, final_text: r3.text, enhance_mode: r3.historyMode ?? 'x', preview_enabled: true, stt_model: 's',
      llm_model: r3.model, user_corrected: false, audio_duration: 1, language: 'zh', source: 'voice', ...(r3.usage ? { usage: r3.usage } : {}),
    });
    const everything = [
      JSON.stringify([r1, r2, r3]),
      fx.logs.join('\n'),
      ...fx.server.requests.map((q) => q.bodyText),
      fs.readFileSync(path.join(fx.dir, 'conversation_history.jsonl'), 'utf8'),
    ].join('\n');
    expect(everything).not.toContain(SECRET_KEY);
    expect(everything).not.toContain(SECRET_KEY.slice(-8));
    // It does travel where it must: the Authorization header.
    expect(fx.server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
  });
});
