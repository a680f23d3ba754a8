import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostRequest } from '../../../../src/main/asr/engine-protocol.ts';
import { nodeHostLauncher, type HostLauncher } from '../../../../src/main/asr/host-launcher.ts';
import { LocalWhisperEngine } from '../../../../src/main/asr/local-engine.ts';
import { AsrError, type AsrSegment } from '../../../../src/main/asr/types.ts';
import { hasTool, readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { ensureRandomParaformerModel } from '../../../helpers/paraformer-model.ts';
import { ensureRandomSenseVoiceModel } from '../../../helpers/sense-voice-model.ts';

/*
 * The sherpa-onnx engine inside the isolated engine host (engine-host.ts → engine-host-sherpa.ts), driven
 * by the same LocalWhisperEngine client the app uses, on the random-weight models: load once, stay warm,
 * the requested language reaches the model, and a bad model is a clean error from a host that keeps
 * serving.
 */

let speech: Float32Array;
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-sherpa-host-'));
  speech = hasTool('espeak-ng') && hasTool('sox')
    ? readPcm(speechWav('hello world this is a test')).samples
    : new Float32Array(48000).map((_, i) => 0.2 * Math.sin(i / 7) * Math.sin(i / 900));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function recordingLauncher(sent: HostRequest[]): HostLauncher {
  const inner = nodeHostLauncher();
  return () => {
    const h = inner();
    return { ...h, send: (m) => (sent.push(m), h.send(m)) };
  };
}

describe('sherpa-onnx in the engine host', () => {
  it('SenseVoice: loads once in the host, stays warm, passes the language, returns text and a segment', async () => {
    const m = ensureRandomSenseVoiceModel();
    const sent: HostRequest[] = [];
    const engine = new LocalWhisperEngine({ modelPath: m.model, threads: 1, sherpa: { family: 'sense-voice' }, launcher: recordingLauncher(sent), idleUnloadMs: 0 });
    try {
      const segments: AsrSegment[] = [];
      const a = await engine.transcribe(speech, { language: 'en', prompt: 'ignored by sherpa', onSegment: (s) => segments.push(s) });
      expect(a.engine).toBe('local');
      expect(a.text.length).toBeGreaterThan(0);
      expect(a.text).not.toMatch(/<\|/);
      expect(a.language).toBe('en');
      expect(a.segments).toHaveLength(1);
      expect(segments).toEqual(a.segments);
      expect(a.timings.loadMs).toBeGreaterThan(0);
      const b = await engine.transcribe(speech, { language: 'en' });
      expect(b.timings.loadMs).toBe(0);
      expect(engine.status()).toMatchObject({ loads: 1, spawns: 1, crashes: 0 });
      // The first call's language goes with the load, so the recognizer is built once for it (not auto, then en).
      expect(sent.filter((r) => r.type === 'load')).toEqual([expect.objectContaining({ sherpa: { family: 'sense-voice', language: 'en', threads: 1 } })]);
      // whisper's prompt and encoder window are not sent for sherpa.
      const t = sent.find((r) => r.type === 'transcribe');
      expect(t?.type === 'transcribe' ? t.params : undefined).not.toHaveProperty('initialPrompt');
      expect(t?.type === 'transcribe' ? t.params : undefined).not.toHaveProperty('audioCtx');
      // A short clip is padded by the engine, not refused.
      expect((await engine.transcribe(speech.subarray(0, 800), { language: 'zh' })).language).toBe('zh');
    } finally {
      await engine.dispose();
    }
  }, 60_000);

  it('Paraformer runs in the same host process', async () => {
    const m = ensureRandomParaformerModel();
    const engine = new LocalWhisperEngine({ modelPath: m.model, threads: 1, sherpa: { family: 'paraformer' }, idleUnloadMs: 0 });
    try {
      const r = await engine.transcribe(speech, { language: 'zh' });
      expect(typeof r.text).toBe('string');
      expect(r.language).toBe('zh');
      expect(engine.status().crashes).toBe(0);
    } finally {
      await engine.dispose();
    }
  }, 60_000);

  it('a missing or corrupt model is a clean error, before or in the host; the host is not crashed', async () => {
    const missing = new LocalWhisperEngine({ modelPath: path.join(dir, 'none', 'model.int8.onnx'), sherpa: { family: 'sense-voice' } });
    const e1 = await missing.transcribe(speech).then(() => undefined, (e: unknown) => e);
    expect(e1).toBeInstanceOf(AsrError);
    expect((e1 as AsrError).code).toBe('model-missing');
    const badDir = path.join(dir, 'bad');
    fs.mkdirSync(badDir);
    fs.writeFileSync(path.join(badDir, 'model.int8.onnx'), 'garbage');
    fs.copyFileSync(ensureRandomSenseVoiceModel().tokens, path.join(badDir, 'tokens.txt'));
    const bad = new LocalWhisperEngine({ modelPath: path.join(badDir, 'model.int8.onnx'), sherpa: { family: 'sense-voice' } });
    const e2 = await bad.transcribe(speech).then(() => undefined, (e: unknown) => e);
    expect((e2 as AsrError).code).toBe('model-invalid');
    expect(bad.status().crashes).toBe(0);
    await bad.dispose();
  }, 30_000);
});
