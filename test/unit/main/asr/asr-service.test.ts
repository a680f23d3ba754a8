import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioJournal } from '../../../../src/main/audio/journal.ts';
import type { HostRequest } from '../../../../src/main/asr/engine-protocol.ts';
import { nodeHostLauncher, type HostLauncher } from '../../../../src/main/asr/host-launcher.ts';
import { MIXED_PROMPT_PREFIX } from '../../../../src/main/asr/recognition-language.ts';
import { AsrService } from '../../../../src/main/asr/asr-service.ts';
import { initialPromptFor } from '../../../../src/main/asr/initial-prompt.ts';
import type { LocalWhisperEngine } from '../../../../src/main/asr/local-engine.ts';
import { isEngineBuilt } from '../../../../src/main/asr/whisper-addon.ts';
import { configSchema } from '../../../../src/shared/config/config-schema.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../helpers/openai-test-server.ts';
import { ensureRandomSenseVoiceModel } from '../../../helpers/sense-voice-model.ts';
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
  it('sends hotwords as the prompt (per vocabulary settings), keeps the engine until settings change', async () => {
    let key = 'k1';
    const journal = new AudioJournal(dir);
    const svc = new AsrService({ dataDir: dir, journal, remoteApiKey: () => key });
    const config = configSchema.parse({ asr: { engine: 'remote', language: 'zh', remote: { base_url: server.baseURL } } });
    const r = await svc.transcribe(config, { pcm: tone, sessionId: 's1', hotwords: ['Tingxie', 'WenZi', 'tingxie'] });
    expect(r.text).toBe('remote text');
    expect(server.requests[0]?.fields).toMatchObject({ prompt: 'Tingxie, WenZi', language: 'zh' });
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

  // The crash-safety order of src/main/asr/journaled.ts: should the app die while the engine decodes,
  // the audio is already on disk and the dictation can be retried from it.
  it('journals the audio before the engine is called: when the engine gets the clip, the entry is on disk, pending', async () => {
    const events: string[] = [];
    class NotingJournal extends AudioJournal {
      override write(...args: Parameters<AudioJournal['write']>): ReturnType<AudioJournal['write']> {
        events.push('journal write');
        return super.write(...args);
      }
    }
    const journal = new NotingJournal(dir);
    const svc = new AsrService({ dataDir: dir, journal, remoteApiKey: () => 'k' });
    const config = configSchema.parse({ asr: { engine: 'remote', remote: { base_url: server.baseURL } } });
    // The engine the service keeps for this config, noting when it is called and what the journal holds then.
    const engine = svc.engineFor(config);
    const transcribe = engine.transcribe.bind(engine);
    engine.transcribe = (pcm, opts) => {
      events.push(`engine called (entry ${journal.get('first')?.status ?? 'missing'}, audio on disk: ${journal.hasAudio('first')})`);
      return transcribe(pcm, opts);
    };
    const r = await svc.transcribe(config, { pcm: tone, sessionId: 'first' });
    expect(r.text).toBe('remote text');
    expect(events).toEqual(['journal write', 'engine called (entry pending, audio on disk: true)']);
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

/** Records what the service sends to the real engine host (language, prompt), passing everything through. */
function recordingLauncher(sent: HostRequest[]): HostLauncher {
  const inner = nodeHostLauncher();
  return () => {
    const h = inner();
    return { ...h, pid: h.pid, send: (m: HostRequest) => (sent.push(m), h.send(m)) };
  };
}

const transcribeParams = (sent: readonly HostRequest[]) => sent.filter((m) => m.type === 'transcribe').map((m) => (m.type === 'transcribe' ? m.params : undefined));

describe('ASR service: the recognition language per engine, following the UI language', () => {
  it('callOptions: follow-ui follows the UI language, read per call; the mixed prefix leads the hotword prompt', () => {
    let ui: 'zh' | 'en' = 'zh';
    const svc = new AsrService({ dataDir: dir, journal: new AudioJournal(dir), remoteApiKey: () => undefined, uiLanguage: () => ui });
    const config = configSchema.parse({ asr: { engine: 'local', local: { model: 'base' } } });
    expect(config.asr.language).toBe('follow-ui');
    expect(svc.callOptions(config, ['Tingxie'])).toEqual({ language: 'zh', temperature: 0, prompt: `${MIXED_PROMPT_PREFIX} Tingxie` });
    ui = 'en';
    expect(svc.callOptions(config, ['Tingxie'])).toEqual({ language: 'en', temperature: 0, prompt: 'Tingxie' });
    // SenseVoice has no prompt input: no prefix, and the mix is zh.
    ui = 'zh';
    const sv = configSchema.parse({ asr: { engine: 'local', local: { model: 'sense-voice-small-int8' } } });
    expect(svc.callOptions(sv, [])).toEqual({ language: 'zh', temperature: 0 });
    // Without a UI language the service takes English.
    const plain = new AsrService({ dataDir: dir, journal: new AudioJournal(dir), remoteApiKey: () => undefined });
    expect(plain.callOptions(config, []).language).toBe('en');
  });

  it('remote: the mixed setting sends language zh and the prefix before the hotwords; auto sends no language', async () => {
    const svc = new AsrService({ dataDir: dir, journal: new AudioJournal(dir), remoteApiKey: () => 'k', uiLanguage: () => 'zh' });
    const before = server.requests.length;
    const mixed = configSchema.parse({ asr: { engine: 'remote', language: 'zh-en', remote: { base_url: server.baseURL } } });
    await svc.transcribe(mixed, { pcm: tone, sessionId: 'r-mixed', hotwords: ['WenZi'] });
    expect(server.requests[before]?.fields).toMatchObject({ language: 'zh', prompt: `${MIXED_PROMPT_PREFIX} WenZi` });
    const auto = configSchema.parse({ ...mixed, asr: { ...mixed.asr, language: 'auto' } });
    await svc.transcribe(auto, { pcm: tone, sessionId: 'r-auto' });
    expect(server.requests[before + 1]?.fields?.language).toBeUndefined();
    await svc.dispose();
  });

  it.skipIf(!isEngineBuilt())('whisper host: the mixed setting arrives as language zh with the mixed prompt prefix', async () => {
    const sent: HostRequest[] = [];
    const svc = new AsrService({ dataDir: dir, journal: new AudioJournal(dir), remoteApiKey: () => undefined, uiLanguage: () => 'zh', launcher: recordingLauncher(sent) });
    fs.mkdirSync(path.join(dir, 'models'), { recursive: true });
    fs.copyFileSync(ensureRandomWhisperModel(), path.join(dir, 'models', 'ggml-random.bin'));
    try {
      // The default (follow-ui) under a Chinese UI is the mixed setting.
      const config = configSchema.parse({ asr: { engine: 'local', local: { model: 'random', threads: 1 } } });
      const r = await svc.transcribe(config, { pcm: tone, sessionId: 'w-mixed', hotwords: ['Tingxie'] });
      expect(r.language).toBe('zh'); // whisper.cpp reports the language it decoded with
      expect(transcribeParams(sent)).toEqual([expect.objectContaining({ language: 'zh', initialPrompt: `${MIXED_PROMPT_PREFIX} Tingxie` })]);
    } finally {
      await svc.dispose();
    }
  }, 60_000);

  it('SenseVoice host: gets the mapped language (mixed → zh, follow-ui under an English UI → en)', async () => {
    const sent: HostRequest[] = [];
    let ui: 'zh' | 'en' = 'zh';
    const svc = new AsrService({ dataDir: dir, journal: new AudioJournal(dir), remoteApiKey: () => undefined, uiLanguage: () => ui, launcher: recordingLauncher(sent) });
    // The random-weight model installed where the catalog's SenseVoice model goes (<models>/<name>/model.int8.onnx).
    const m = ensureRandomSenseVoiceModel();
    const folder = path.join(dir, 'models', 'sense-voice-small-int8');
    fs.mkdirSync(folder, { recursive: true });
    fs.copyFileSync(m.model, path.join(folder, 'model.int8.onnx'));
    fs.copyFileSync(m.tokens, path.join(folder, 'tokens.txt'));
    try {
      const config = configSchema.parse({ asr: { engine: 'local', language: 'zh-en', local: { model: 'sense-voice-small-int8', threads: 1, idle_unload_minutes: 0 } } });
      // The warm-up builds the recognizer for the language dictations will ask for (zh), not auto.
      await svc.warmUp(config);
      expect(sent.filter((r) => r.type === 'load')).toEqual([expect.objectContaining({ sherpa: { family: 'sense-voice', language: 'zh', threads: 1 } })]);
      const a = await svc.transcribe(config, { pcm: tone, sessionId: 'sv-mixed', hotwords: ['Tingxie'] });
      expect(a.language).toBe('zh');
      ui = 'en';
      const follow = configSchema.parse({ ...config, asr: { ...config.asr, language: 'follow-ui' } });
      const b = await svc.transcribe(follow, { pcm: tone, sessionId: 'sv-follow' });
      expect(b.language).toBe('en'); // the generated model echoes the language it was given
      const params = transcribeParams(sent);
      expect(params.map((p) => p?.language)).toEqual(['zh', 'en']);
      expect(params[0]).not.toHaveProperty('initialPrompt'); // no prompt input in sherpa
    } finally {
      await svc.dispose();
    }
  }, 60_000);
});
