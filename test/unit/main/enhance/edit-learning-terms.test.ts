import { afterEach, describe, expect, it } from 'vitest';
import { makeFixture, type Fixture } from './enhance-fixture.ts';

/**
 * English terms of a Chinese dictation through the real enhancer (real prompt, real vocabulary database,
 * the local OpenAI-compatible server as the model): a model that turns "Claude" into "Cloud" or translates
 * "powerful" is guarded — the recognized text is what gets delivered, and the reason names the term — while
 * a change the user's vocabulary asks for (cloud → Claude) goes through.
 */

// The fixture's 600 ms deadline is for fault tests; a first call on a loaded machine can take longer.
const SLOW_MACHINE = { timeoutMs: 10_000, connectTimeoutMs: 5000 };

let f: Fixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

describe('enhancer: English terms survive enhancement', () => {
  it('a dropped or translated term falls back to the recognized text and is named', async () => {
    f = await makeFixture({ chat: () => ({ kind: 'text', content: '我们用 Cloud 写代码，这个模型很强大。' }) }, SLOW_MACHINE);
    const r = await f.enhancer.enhance({ text: '我们用 Claude 写代码 这个模型很 powerful' });
    expect(r.status).toBe('guarded');
    expect(r.text).toBe('我们用 Claude 写代码 这个模型很 powerful');
    expect(r.suggestion).toBe('我们用 Cloud 写代码，这个模型很强大。');
    expect(r.reason?.message).toBe('the output dropped or translated "Claude", "powerful"');
  });

  it('a vocabulary pair accounts for the change it asks for', async () => {
    f = await makeFixture({ chat: () => ({ kind: 'text', content: '我们用 Claude 写代码。' }) }, SLOW_MACHINE);
    // Without the pair the same answer is a term the model changed on its own.
    expect((await f.enhancer.enhance({ text: '我们用 cloud 写代码' })).status).toBe('guarded');
    f.vocabulary.add({ wrong: 'cloud', right: 'Claude' });
    const r = await f.enhancer.enhance({ text: '我们用 cloud 写代码' });
    expect(r.status).toBe('enhanced');
    expect(r.text).toBe('我们用 Claude 写代码。');
  });
});
