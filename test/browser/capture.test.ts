import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptureLink } from '../../src/main/dictation/capture-link.ts';
import { DictationController } from '../../src/main/dictation/controller.ts';
import { setupIpc, type IpcRuntime } from '../../src/main/ipc/setup.ts';
import type { IpcMainLike } from '../../src/main/ipc/register.ts';
import type { HistoryApi } from '../../src/main/ipc/services.ts';
import { TrustedSenders } from '../../src/main/ipc/trusted-senders.ts';
import { resample } from '../../src/main/audio/resample.ts';
import { ConfigStore } from '../../src/main/settings/config-store.ts';
import { SecretStore, SECRETS_FILE } from '../../src/main/settings/secrets.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/shared/csp.ts';
import { energyBounds, readPcm, speechWav } from '../helpers/audio-fixtures.ts';
import { bridgeInitScript } from '../helpers/browser-bridge-bundle.ts';
import { fakeSafeStorage, recordingAppService } from '../helpers/browser-fakes.ts';
import { chromiumArgs, rendererOutDir } from '../helpers/browser-harness.ts';
import { startStaticServer, type StaticServer } from '../helpers/browser-static-server.ts';

/**
 * Capture in real Chromium with a fake microphone playing an espeak-ng WAV, through the real capture
 * module (getUserMedia + AudioWorklet), the bridge, the real dispatcher and handlers, into the real
 * controller's session buffer. Stand-ins: ipcMain (a map), safeStorage, and the ASR port, which only
 * records the PCM the session hands to ASR (that PCM is what this test checks).
 */

const source = speechWav('the quick brown fox jumps over the lazy dog, twice on Sunday');
let browser: Browser;
let server: StaticServer;
let page: Page;
let ipc: IpcRuntime;
let dataDir: string;
let controller: DictationController;
const received: Float32Array[] = [];
/** Every batch the page sent, per session, in arrival order (what main was offered). */
const sent = new Map<string, Float32Array[]>();
/** When stop() resolved, and when ASR was called (performance.now()). */
const times: { stopped?: number; asr?: number } = {};
const STOP_GRACE_MS = 1500;

beforeAll(async () => {
  server = await startStaticServer(rendererOutDir, { 'content-security-policy': CONTENT_SECURITY_POLICY });
  browser = await chromium.launch({
    executablePath: process.env.TINGXIE_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [...chromiumArgs, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${source}%noloop`, '--autoplay-policy=no-user-gesture-required'],
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  const config = await ConfigStore.open({ dataDir });
  await config.set('ai_enhance.enabled', false);
  await config.set('output.preview', false);
  const secrets = await SecretStore.open({ file: path.join(dataDir, SECRETS_FILE), safeStorage: fakeSafeStorage, plaintextConsent: false, platform: 'linux' });
  const { service: app } = recordingAppService({ version: '0.0.0', dataDir, uiLanguage: () => 'en' });
  const handlers = new Map<string, (event: unknown, payload: unknown) => unknown>();
  const ipcMain: IpcMainLike = {
    handle: ((c: string, fn: (event: unknown, payload: unknown) => unknown) => void handlers.set(c, fn)) as IpcMainLike['handle'],
    removeHandler: (c: string) => void handlers.delete(c),
  };
  const trusted = new TrustedSenders({ rendererDir: rendererOutDir, devServerUrl: `${server.origin}/` });
  const notHere = new Proxy({}, { get: () => () => Promise.reject(new Error('history is not part of this test')) }) as HistoryApi;
  const context = await browser.newContext();
  page = await context.newPage();
  const link: { current?: CaptureLink } = {};
  controller = new DictationController({
    dataDir,
    config: () => config.get(),
    capture: {
      start: (id) => link.current?.start(id),
      stop: async (id) => {
        await link.current?.stop(id);
        times.stopped = performance.now();
      },
    },
    asr: {
      modelName: () => 'recorder',
      transcribe: async ({ pcm }) => {
        times.asr = performance.now();
        received.push(pcm);
        return { text: 'recorded', language: 'en' };
      },
    },
    enhance: { modes: () => [], enhance: () => Promise.reject(new Error('enhancement is off')) },
    history: { log: async () => undefined },
    output: { deliver: async () => ({ ok: true }) },
    ui: { emit: () => undefined, panel: () => undefined, sound: () => undefined },
  });
  const state: { ready?: (s: unknown) => void } = {};
  ipc = setupIpc(ipcMain, {
    services: {
      config,
      secrets,
      app,
      history: notHere,
      dictation: {
        frames: (id, seq, rate, pcm) => {
          sent.set(id, [...(sent.get(id) ?? []), pcm]);
          controller.frames(id, seq, rate, pcm);
          link.current?.check(id);
        },
        captureStatus: (s) => {
          link.current?.report(s);
          state.ready?.(s);
        },
        snapshot: () => controller.snapshot(),
        confirm: (id, text, action) => controller.confirm(id, text, action),
        cancel: (id) => controller.cancel(id),
        recoverable: () => controller.recoverable(),
        recover: (id, action) => controller.recover(id, action),
        hotkeys: () => ({ hook: 'off', hookError: null, toggle: null, problems: [] }),
        // The panel's channels are not exercised by the capture test.
        modes: () => [],
        setMode: () => undefined,
        prompt: () => Promise.reject(new Error('not used by the capture test')),
        deliver: () => Promise.reject(new Error('not used by the capture test')),
        hidePanel: () => undefined,
        retry: () => false,
        retryLast: () => false,
        rerun: () => undefined,
      },
    },
    trusted,
    log: { warn: () => undefined, error: () => undefined },
  });
  // Wired as the app wires it: the controller's real count is what a stop waits for.
  link.current = new CaptureLink({ send: (command) => ipc.broadcast('capture:command', command), received: (id) => controller.receivedBatches(id), stopGraceMs: STOP_GRACE_MS });
  const contents = {
    id: 1,
    once: (_e: 'destroyed', l: () => void) => page.once('close', () => l()),
    isDestroyed: () => page.isClosed(),
    send: (channel: string, payload: unknown) => void page.evaluate(([c, p]) => (window as unknown as { __tingxie_emit: (c: string, p: unknown) => number }).__tingxie_emit(c, p), [channel, payload] as const).catch(() => undefined),
  };
  // Trusted as the capture window: its calls go through that window's IPC scope, as in the app.
  trusted.add(contents, 'capture');
  await page.exposeBinding('__tingxie_invoke', async (src, channel: string, payload: unknown) => {
    const h = handlers.get(channel);
    if (!h) throw new Error(`No handler for ${channel}`);
    return h({ sender: { id: 1 }, senderFrame: { url: src.frame.url() } }, payload);
  });
  await page.addInitScript({ content: await bridgeInitScript() });
  await page.goto(`${server.origin}/capture/index.html`, { waitUntil: 'load' });
  const ready = new Promise((resolve) => (state.ready = resolve));
  link.current.configure(null, 1000);
  const status = await ready;
  expect(status).toMatchObject({ state: 'ready', sampleRate: 16000 });
}, 60_000);

afterAll(async () => {
  ipc?.dispose();
  await browser?.close();
  await server?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Best normalised cross-correlation of `b` against `a` over lags in [-maxLag, maxLag]. */
function bestCorrelation(a: Float32Array, b: Float32Array, maxLag: number): { r: number; lag: number } {
  let best = { r: -1, lag: 0 };
  for (let lag = -maxLag; lag <= maxLag; lag += 1) {
    let sab = 0;
    let saa = 0;
    let sbb = 0;
    for (let i = 0; i < a.length; i++) {
      const j = i + lag;
      if (j < 0 || j >= b.length) continue;
      const x = a[i] as number;
      const y = b[j] as number;
      sab += x * y;
      saa += x * x;
      sbb += y * y;
    }
    const r = sab / Math.sqrt(saa * sbb || 1);
    if (r > best.r) best = { r, lag };
  }
  return best;
}

describe('capture window with a fake microphone', () => {
  it('the frames reaching the main-side session match the espeak source (duration ±5 %, correlation ≥ 0.95), the final batch included, stopped without the grace wait', async () => {
    const src = readPcm(source);
    controller.press('hold');
    const id = controller.snapshot().sessionId ?? '';
    await new Promise((r) => setTimeout(r, (src.samples.length / src.sampleRate) * 1000 + 2500));
    const released = performance.now();
    controller.release();
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    const got = received[0] ?? new Float32Array(0);
    // Key-up → stop completes when the window's last batch arrives, well before the grace timer…
    expect.soft((times.stopped ?? Infinity) - released).toBeLessThan(STOP_GRACE_MS / 2);
    expect.soft((times.asr ?? Infinity) - released).toBeLessThan(STOP_GRACE_MS / 2);
    // …and every batch the page sent is in the audio, the one flushed after key-up last.
    const batches = sent.get(id) ?? [];
    const last = batches.at(-1) ?? new Float32Array(0);
    expect.soft(got.length).toBe(batches.reduce((n, b) => n + b.length, 0));
    expect.soft(last.length).toBeGreaterThan(0);
    expect.soft(Array.from(got.subarray(got.length - last.length))).toEqual(Array.from(last));
    const srcAt16k = resample(src.samples, src.sampleRate, 16000);
    const a = energyBounds(srcAt16k);
    const b = energyBounds(got);
    const srcDur = (a.end - a.start) / 16000;
    const gotDur = (b.end - b.start) / 16000;
    expect(Math.abs(gotDur - srcDur) / srcDur).toBeLessThan(0.05);
    // Align on the speech start, then find the best lag nearby (device buffering shifts it a little).
    const srcSpeech = srcAt16k.subarray(a.start, a.end);
    const gotSpeech = got.subarray(Math.max(0, b.start - 800), b.end + 800);
    const { r } = bestCorrelation(srcSpeech, gotSpeech, 1600);
    expect(r).toBeGreaterThanOrEqual(0.95);
    // The pre-roll means the recording begins before the speech: the first word is not clipped.
    expect(b.start).toBeGreaterThan(0);
  });
});
