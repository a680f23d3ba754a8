import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AudioJournal } from '../../../../src/main/audio/journal.ts';
import { decodeWav } from '../../../../src/main/audio/wav.ts';
import { transcribeJournaled } from '../../../../src/main/asr/journaled.ts';
import { RemoteAsrEngine } from '../../../../src/main/asr/remote-engine.ts';
import type { AsrErrorCode } from '../../../../src/main/asr/types.ts';
import { startOpenAiTestServer, type Fault, type OpenAiTestServer } from '../../../helpers/openai-test-server.ts';

let server: OpenAiTestServer;
let dir: string;
const speechLike = new Float32Array(16000 * 2).map((_, i) => 0.3 * Math.sin(i / 9) * Math.sin(i / 2000));

beforeAll(async () => {
  server = await startOpenAiTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(() => server.reset());

function engine(extra: Partial<ConstructorParameters<typeof RemoteAsrEngine>[0]> = {}): RemoteAsrEngine {
  return new RemoteAsrEngine({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'whisper-1', timeoutMs: 2000, ...extra });
}

describe('remote engine against the local OpenAI-compatible server', () => {
  it('uploads a WAV with model, language, prompt and temperature; returns the text', async () => {
    server.setTranscription(() => ({ kind: 'text', text: 'hello world' }));
    const r = await engine().transcribe(speechLike, { language: 'zh-TW', prompt: 'Tingxie, WenZi', temperature: 0.2 });
    expect(r).toMatchObject({ text: 'hello world', engine: 'remote', language: 'zh' });
    const req = server.requests[0];
    expect(req?.path).toBe('/v1/audio/transcriptions');
    expect(req?.headers.authorization).toBe('Bearer sk-test');
    expect(req?.fields).toMatchObject({ model: 'whisper-1', language: 'zh', prompt: 'Tingxie, WenZi', temperature: '0.2' });
    expect(req?.files?.[0]).toMatchObject({ filename: 'audio.wav', size: 44 + speechLike.length * 2 });
  });

  it('reads segments and language from verbose_json', async () => {
    server.setTranscription(() => ({ kind: 'text', text: 'a b', language: 'english', segments: [{ start: 0, end: 0.5, text: ' a' }, { start: 0.5, end: 1.2, text: ' b' }] }));
    const r = await engine({ responseFormat: 'verbose_json' }).transcribe(speechLike, {});
    expect(r.segments.map((s) => [s.startMs, s.endMs, s.text])).toEqual([[0, 500, ' a'], [500, 1200, ' b']]);
    expect(r.language).toBe('english');
    expect(server.requests[0]?.fields?.language).toBeUndefined(); // auto = not sent
  });

  it('splits audio above the upload limit at pauses and joins the pieces in order', async () => {
    const audio = new Float32Array(16000 * 10).fill(0.3);
    audio.fill(0, 16000 * 4, 16000 * 4 + 3200); // pause at 4 s
    let n = 0;
    server.setTranscription(() => ({ kind: 'text', text: `part${++n}` }));
    const r = await engine({ maxUploadBytes: 44 + 16000 * 2 * 6 }).transcribe(audio);
    expect(server.requests.length).toBe(2);
    expect(r.text).toBe('part1 part2');
    const first = server.requests[0]?.files?.[0]?.size ?? 0;
    expect((first - 44) / 2 / 16000).toBeGreaterThanOrEqual(4);
    expect((first - 44) / 2 / 16000).toBeLessThanOrEqual(4.2);
    expect(r.segments[1]?.startMs).toBeCloseTo(((first - 44) / 2 / 16000) * 1000, 0);
  });

  const faults: [string, Fault, AsrErrorCode, RegExp][] = [
    ['timeout', { kind: 'stall-before-headers' }, 'timeout', /did not answer within 0.5 s/],
    ['401', { kind: 'http', status: 401 }, 'auth', /API key/],
    ['413', { kind: 'http', status: 413 }, 'too-large', /larger than the service accepts/],
    ['429', { kind: 'rate-limited', retryAfterSeconds: 7 }, 'rate-limited', /retry after 7 s/],
    ['500', { kind: 'http', status: 500 }, 'server', /HTTP 500/],
    ['malformed body', { kind: 'malformed-json' }, 'bad-response', /not a transcription/],
    ['connection reset', { kind: 'connection-reset' }, 'network', /cannot reach/],
  ];
  it.each(faults)('%s → clear error, journaled audio still on disk', async (name, fault, code, message) => {
    server.setTranscription(() => ({ kind: 'fault', fault }));
    const journal = new AudioJournal(dir);
    const id = `fault-${name.replace(/\W+/g, '-')}`;
    const eng = engine(code === 'timeout' ? { timeoutMs: 500 } : {});
    const err = await transcribeJournaled(journal, id, speechLike, eng, { language: 'en' }).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ name: 'AsrError', code });
    expect((err as Error).message).toMatch(message);
    expect(journal.get(id)).toMatchObject({ status: 'failed' });
    expect(journal.get(id)?.error).toContain(code);
    const wav = decodeWav(fs.readFileSync(path.join(dir, 'journal', `${id}.wav`)));
    expect(wav.samples.length).toBe(speechLike.length);
  });

  it('a reply without text is a bad response', async () => {
    server.setTranscription(() => ({ kind: 'text', text: undefined as unknown as string }));
    await expect(engine().transcribe(speechLike)).rejects.toMatchObject({ code: 'bad-response' });
  });

  it('a retry from the journal succeeds once the server is back', async () => {
    const journal = new AudioJournal(dir);
    server.setTranscription(() => ({ kind: 'fault', fault: { kind: 'http', status: 503 } }));
    await expect(transcribeJournaled(journal, 'retry-me', speechLike, engine())).rejects.toMatchObject({ code: 'server' });
    server.setTranscription(() => ({ kind: 'text', text: 'back again' }));
    const { retryJournaled } = await import('../../../../src/main/asr/journaled.ts');
    expect((await retryJournaled(journal, 'retry-me', engine())).text).toBe('back again');
  });
});
