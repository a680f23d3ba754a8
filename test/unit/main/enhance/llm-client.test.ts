import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamChat, type ChatOutcome } from '../../../../src/main/enhance/llm-client.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../helpers/openai-test-server.ts';

/*
 * A provider's error body is text a server chose: it can be megabytes, and it is read, redacted and shown
 * while the user waits for a dictation. Through the real `openai` SDK against a local server: a huge body
 * must fall back to the raw text within the enhancement's deadline, cut to a notice's length, with the key
 * the server echoed back masked. (Where a cut runs through a key: test/unit/shared/redact.test.ts, redactCut.)
 */

const KEY = 'Q7vZ-xW3mRtY8uP2k-NO-KNOWN-SHAPE'; // no key shape: only the given-key redaction catches it
const DEADLINE_MS = 10_000;
let server: OpenAiTestServer;
let body = '';

beforeAll(async () => {
  server = await startOpenAiTestServer({ chat: () => ({ kind: 'fault', fault: { kind: 'http', status: 500, message: body } }) });
});
afterAll(() => server.close());

/** One non-retried chat call answered by the scripted error body; the outcome and how long it took. */
async function callWith(errorBody: string): Promise<{ out: ChatOutcome; ms: number }> {
  body = errorBody;
  const provider = { id: 'test', baseURL: server.baseURL, apiKey: KEY };
  const t = performance.now();
  const out = await streamChat({ provider, body: { model: 'test-model', messages: [{ role: 'user', content: 'hi' }], stream: true }, deadlineAt: Date.now() + DEADLINE_MS, connectTimeoutMs: DEADLINE_MS, maxRetries: 0 });
  return { out, ms: performance.now() - t };
}

/** The reason of a failed outcome (the test fails when the call succeeded). */
function reasonOf(out: ChatOutcome): { code: string; message: string; detail?: string } {
  if (out.ok) throw new Error('expected a failure');
  return out.reason;
}

describe('streamChat: a huge provider error body', () => {
  it.each([
    ['40,000 characters of one run (the n² case for the old patterns)', 40_000],
    ['4,000,000 characters', 4_000_000],
  ])('%s: falls back within the deadline, cut and redacted', async (_label, size) => {
    const { out, ms } = await callWith(`Invalid key ${KEY}: ${'a'.repeat(size)}`);
    const reason = reasonOf(out);
    expect(reason.code).toBe('server');
    // The server answers at once; everything after is this client's work on the body.
    expect(ms).toBeLessThan(DEADLINE_MS);
    expect(ms).toBeLessThan(2000);
    expect(reason.message.length).toBeLessThanOrEqual(300);
    expect(reason.detail?.length ?? 0).toBeLessThanOrEqual(2100);
    for (const text of [reason.message, reason.detail ?? '']) expect(text).not.toContain('Q7vZ');
  }, 60_000);
});
