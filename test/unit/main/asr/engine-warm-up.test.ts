import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AsrService } from '../../../../src/main/asr/asr-service.ts';
import { changeNeedsWarmUp, keepEngineWarm, type EngineWarmUp } from '../../../../src/main/asr/engine-warm-up.ts';
import type { LocalWhisperEngine } from '../../../../src/main/asr/local-engine.ts';
import { AsrError } from '../../../../src/main/asr/types.ts';
import { isEngineBuilt } from '../../../../src/main/asr/whisper-addon.ts';
import { AudioJournal } from '../../../../src/main/audio/journal.ts';
import type { Config } from '../../../../src/shared/config/config-schema.ts';
import { ConfigStore } from '../../../../src/main/settings/config-store.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';

/**
 * The engine is loaded ahead of the first dictation: at start and after a model change, over the real
 * ConfigStore's change events (so the key paths are the ones Settings saves), unless turned off or remote.
 */

let dir: string;
let warmUp: EngineWarmUp | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
});
afterEach(async () => {
  warmUp?.stop();
  await warmUp?.settled();
  warmUp = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the policy over a real config store with a recording `warm`; `fail` makes it reject. */
async function start(settings: Readonly<Record<string, unknown>> = {}, fail?: Error) {
  const config = await ConfigStore.open({ dataDir: dir });
  for (const [k, v] of Object.entries(settings)) await config.set(k, v);
  const warmed: string[] = [];
  const logs: { level: string; message: string; fields?: Readonly<Record<string, unknown>> }[] = [];
  warmUp = keepEngineWarm({
    config: () => config.get(),
    onChange: (l) => config.onChange(l),
    warm: async (c: Config) => {
      warmed.push(c.asr.local.model);
      if (fail) throw fail;
    },
    log: (level, message, fields) => logs.push({ level, message, ...(fields ? { fields } : {}) }),
  });
  const w = warmUp;
  return { config, warmed, logs, settled: () => w.settled() };
}

describe('engine warm-up', () => {
  it('warms once at start when enabled (the default) and the engine is local', async () => {
    const r = await start();
    await r.settled();
    expect(r.warmed).toEqual(['base']);
    expect(r.logs).toMatchObject([{ level: 'info', message: 'speech engine warmed up' }]);
  });

  it('does not warm when turned off or when the engine is remote, even after a model change', async () => {
    const off = await start({ 'asr.local.warm_up': false });
    await off.config.set('asr.local.model', 'small');
    await off.settled();
    expect(off.warmed).toEqual([]);
    warmUp?.stop();
    const remote = await start({ 'asr.local.warm_up': true, 'asr.engine': 'remote' });
    await remote.config.set('asr.local.model', 'tiny');
    await remote.settled();
    expect(remote.warmed).toEqual([]);
  });

  it('warms again after asr.local.model or an engine switch, not after unrelated changes', async () => {
    const r = await start();
    await r.config.set('asr.local.model', 'small');
    await r.config.set('asr.language', 'zh');
    await r.config.set('asr.local.models_mirror', 'https://mirror.example/whisper');
    await r.config.set('output.preview', false);
    await r.settled();
    expect(r.warmed).toEqual(['base', 'small']);
    await r.config.set('asr.engine', 'remote');
    await r.config.set('asr.engine', 'local');
    await r.config.set('asr.local.warm_up', false);
    await r.config.set('asr.local.model', 'tiny');
    await r.config.set('asr.local.warm_up', true);
    await r.settled();
    expect(r.warmed).toEqual(['base', 'small', 'small', 'tiny']);
  });

  it('a failing warm-up is swallowed and logged (the dictation reports the missing model itself)', async () => {
    const r = await start({}, new AsrError('model-missing', 'model file not found: ggml-base.bin'));
    await expect(r.settled()).resolves.toBeUndefined();
    expect(r.warmed).toEqual(['base']);
    expect(r.logs).toEqual([{ level: 'warn', message: 'speech engine warm-up failed', fields: { why: 'start', model: 'base', error: 'model file not found: ggml-base.bin' } }]);
  });

  it('key paths: engine settings and their parents need a warm-up, other settings do not', () => {
    for (const k of ['', 'asr', 'asr.local', 'asr.engine', 'asr.local.model', 'asr.local.threads', 'asr.local.warm_up']) expect(changeNeedsWarmUp(k), k).toBe(true);
    for (const k of ['asr.language', 'asr.remote.model', 'asr.local.models_mirror', 'audio', 'ai_enhance.mode']) expect(changeNeedsWarmUp(k), k).toBe(false);
  });
});

describe('engine warm-up with the real ASR service', () => {
  it('without a model installed the warm-up fails quietly with the reason logged, starting no engine process', async () => {
    const svc = new AsrService({ dataDir: dir, journal: new AudioJournal(dir), remoteApiKey: () => undefined });
    const config = await ConfigStore.open({ dataDir: dir });
    const logs: string[] = [];
    warmUp = keepEngineWarm({ config: () => config.get(), onChange: (l) => config.onChange(l), warm: (c) => svc.warmUp(c), log: (_l, m, f) => logs.push(`${m}: ${String(f?.error ?? '')}`) });
    await warmUp.settled();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^speech engine warm-up failed: (model file not found|the local speech engine is not built)/);
    expect((svc.engineFor(config.get()) as LocalWhisperEngine).status()).toMatchObject({ state: 'stopped', spawns: 0 });
    await svc.dispose();
  });

  it.skipIf(!isEngineBuilt())('loads the model before the first dictation, so that dictation loads nothing', async () => {
    const svc = new AsrService({ dataDir: dir, journal: new AudioJournal(dir), remoteApiKey: () => undefined });
    fs.mkdirSync(path.join(dir, 'models'), { recursive: true });
    fs.copyFileSync(ensureRandomWhisperModel(), path.join(dir, 'models', 'ggml-random.bin'));
    const config = await ConfigStore.open({ dataDir: dir });
    await config.set('asr.local.threads', 1);
    await config.set('asr.local.model', 'random');
    warmUp = keepEngineWarm({ config: () => config.get(), onChange: (l) => config.onChange(l), warm: (c) => svc.warmUp(c), log: () => undefined });
    await warmUp.settled();
    const engine = svc.engineFor(config.get()) as LocalWhisperEngine;
    expect(engine.status()).toMatchObject({ state: 'loaded', loads: 1, spawns: 1 });
    const tone = new Float32Array(16000).map((_, i) => 0.2 * Math.sin(i / 7));
    const r = await svc.transcribe(config.get(), { pcm: tone, sessionId: 'w1' });
    expect(r.timings.loadMs).toBe(0);
    expect(engine.status().loads).toBe(1);
    await svc.dispose();
  });
});
