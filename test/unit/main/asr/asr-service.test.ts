import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioJournal } from '../../../../src/main/audio/journal.ts';
import { AsrService } from '../../../../src/main/asr/asr-service.ts';
import { initialPromptFor } from '../../../../src/main/asr/initial-prompt.ts';
import type { LocalWhisperEngine } from '../../../../src/main/asr/local-engine.ts';
import { isEngineBuilt } from '../../../../src/main/asr/whisper-addon.ts';
import { configSchema } from '../../../../src/main/settings/config-schema.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../helpers/openai-test-server.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';

let dir: string;
let server: OpenAiTestServer;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  server = await startOpenAiTestServer({ transcription: () => ({ kind: 'text', text: 'remote text' }) });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const tone = new Float32Array(16000).map((_, i) => 0.2 * Math.sin(i / 7));

describe('ASR service', () => {
  it('sends hotwords as the prompt (per vocabulary settings), journals first, keeps the engine until settings change', async () => {
    let key = 'k1';
    const journal = new AudioJournal(dir);
    const svc = new AsrService({ dataDir: dir, journal, remoteApiKey: () => key });
    const config = configSchema.parse({ asr: { engine: 'remote', language: 'zh', remote: { base_url: server.baseURL } } });
    const r = await svc.transcribe(config, { pcm: tone, sessionId: 's1', hotwords: ['Tingxie', 'WenZi', 'tingxie'] });
    expect(r.text).toBe('remote text');
    expect(server.requests[0]?.fields).toMatchObject({ prompt: 'Tingxie, WenZi', language: 'zh' });
    expect(journal.get('s1')).toMatchObject({ status: 'pending' });
    const e1 = svc.engineFor(config);
    expect(svc.engineFor(config)).toBe(e1);
    key = 'k2';
    expect(svc.engineFor(config)).not.toBe(e1); // a new key means a new client
    const off = configSchema.parse({ ...config, ai_enhance: { vocabulary: { enabled: false } } });
    await svc.transcribe(off, { pcm: tone, sessionId: 's2', hotwords: ['Tingxie'] });
    expect(server.requests[1]?.fields?.prompt).toBeUndefined();
    expect(server.requests[1]?.headers.authorization).toBe('Bearer k2');
    await svc.dispose();
  });

  it('initialPromptFor honours the configured caps', () => {
    expect(initialPromptFor(['a', 'b', 'c'], { enabled: true, max_dynamic_hotwords: 2, max_hotword_chars: 200 })).toBe('a, b');
    expect(initialPromptFor(['abc', 'de'], { enabled: true, max_dynamic_hotwords: 10, max_hotword_chars: 4 })).toBe('abc');
  });

  it.skipIf(!isEngineBuilt())('local: the model named in settings is used and replaced when the setting changes', async () => {
    const journal = new AudioJournal(dir);
    const svc = new AsrService({ dataDir: dir, journal, remoteApiKey: () => undefined });
    const model = ensureRandomWhisperModel();
    const config = configSchema.parse({ asr: { engine: 'local', language: 'en', local: { threads: 1 } } });
    fs.mkdirSync(path.join(dir, 'models'), { recursive: true });
    fs.copyFileSync(model, path.join(dir, 'models', 'ggml-random.bin'));
    await expect(svc.transcribe(config, { pcm: tone, sessionId: 'l1' })).rejects.toMatchObject({ code: 'model-missing' });
    expect(journal.get('l1')).toMatchObject({ status: 'failed' });
    const withModel = configSchema.parse({ ...config, asr: { ...config.asr, local: { ...config.asr.local, model: 'random' } } });
    const r = await svc.transcribe(withModel, { pcm: tone, sessionId: 'l2' });
    expect(r.text).toBe('hello world');
    expect((svc.engineFor(withModel) as LocalWhisperEngine).status().loads).toBe(1);
    await svc.dispose();
  });
});
