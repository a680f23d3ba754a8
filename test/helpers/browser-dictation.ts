/**
 * The dictation service graph behind a browser-test window: the REAL controller, history, vocabulary,
 * enhancer and remote ASR engine (through the openai SDK) against the local OpenAI-compatible test
 * server, like test/unit/main/dictation's end-to-end test. Stand-ins only where nothing real can run:
 * the capture window (frames come from an espeak-ng WAV through the same `frames()` entry the IPC
 * handler uses) and the output (a recording sink instead of the OS clipboard and paste keystroke).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DictationController } from '../../src/main/dictation/controller.ts';
import { panelIpcService } from '../../src/main/dictation/panel-service.ts';
import type { OutputPort } from '../../src/main/ports/output-port.ts';
import { openServiceGraph, type ServiceGraph } from '../../src/main/dictation/service-graph.ts';
import type { HistoryService } from '../../src/main/history/history-service.ts';
import type { Broadcast } from '../../src/main/ipc/register.ts';
import type { DictationIpcService } from '../../src/main/dictation/dictation-service.ts';
import type { ConfigStore } from '../../src/main/settings/config-store.ts';
import type { DictationEvent, HotkeyStatusWire } from '../../src/shared/ipc/dictation-types.ts';
import { readPcm, speechWav } from './audio-fixtures.ts';
import type { OpenAiTestServer } from './openai-test-server.ts';

/** A recording output sink: what would have been pasted or copied, in order. */
export class RecordingOutput implements OutputPort {
  readonly delivered: { text: string; action: 'paste' | 'copy' }[] = [];
  async deliver(text: string, action: 'paste' | 'copy'): Promise<{ ok: boolean }> {
    this.delivered.push({ text, action });
    return { ok: true };
  }
}

/** The dictation side of a harness window. */
export interface HarnessDictation {
  readonly server: OpenAiTestServer;
  readonly graph: ServiceGraph;
  readonly controller: DictationController;
  readonly output: RecordingOutput;
  readonly events: DictationEvent[];
  /** Panel show/hide requests, in order. */
  readonly panel: boolean[];
  readonly ipc: DictationIpcService;
  /**
   * What `dictation:hotkeys` answers. In the app it comes from globalShortcut and the uiohook key hook,
   * which cannot run here, so tests set it (a stand-in for Electron's registration results).
   */
  setHotkeyStatus(status: HotkeyStatusWire): void;
  /** Hold, speak a WAV, release: returns the session id. */
  speak(): string;
  /** The JSONL records on disk. */
  records(): Record<string, unknown>[];
  close(): Promise<void>;
}

/** config.json content pointing ASR and the LLM at the test server (merged over `base`). */
export function dictationConfigText(baseURL: string, base: Record<string, unknown>): string {
  return JSON.stringify({
    ...base,
    asr: { engine: 'remote', language: 'en', remote: { base_url: baseURL, model: 'whisper-test' } },
    ai_enhance: {
      enabled: true, mode: 'proofread', providers: { test: { base_url: baseURL, models: ['test-model'] } },
      default_provider: 'test', default_model: 'test-model', timeout: 5, connection_timeout: 2, max_retries: 0,
    },
  });
}

/** Builds the graph and the controller; events go to the windows through `broadcast` (late-bound). */
export async function startHarnessDictation(opts: {
  readonly dataDir: string;
  readonly config: ConfigStore;
  readonly history: HistoryService;
  readonly server: OpenAiTestServer;
  readonly broadcast: () => Broadcast | null;
  readonly log: (m: string) => void;
}): Promise<HarnessDictation> {
  const { dataDir, config, server } = opts;
  const graph = await openServiceGraph({ dataDir, config: () => config.get(), secrets: { get: () => 'sk-test' }, lang: () => 'en', history: opts.history, warn: opts.log });
  const output = new RecordingOutput();
  const events: DictationEvent[] = [];
  const panel: boolean[] = [];
  const controller = new DictationController({
    dataDir,
    config: () => config.get(),
    // The capture window stand-in: frames come from speak(); stop has nothing left to flush.
    capture: { start: () => undefined, stop: async () => undefined },
    asr: graph.ports.asr,
    enhance: graph.ports.enhance,
    history: graph.ports.history,
    vocabulary: graph.ports.vocabulary,
    textRules: graph.ports.textRules,
    output,
    ui: {
      emit: (e) => {
        events.push(e);
        opts.broadcast()?.('dictation:event', e);
      },
      panel: (show) => panel.push(show),
      sound: () => undefined,
    },
    log: (level, m, f) => opts.log(`[dictation ${level}] ${m} ${JSON.stringify(f ?? {})}`),
  });
  let hotkeyStatus: HotkeyStatusWire = { hook: 'off', hookError: null, toggle: null, problems: [] };
  const ipc: DictationIpcService = {
    frames: (id, seq, rate, pcm) => controller.frames(id, seq, rate, pcm),
    captureStatus: () => undefined,
    snapshot: () => controller.snapshot(),
    confirm: (id, text, action) => controller.confirm(id, text, action),
    cancel: (id) => controller.cancel(id),
    recoverable: () => controller.recoverable(),
    recover: (id, action) => controller.recover(id, action),
    hotkeys: () => hotkeyStatus,
    ...panelIpcService(controller, graph.enhancer),
  };
  const wav = readPcm(speechWav('hello world this is a dictation test'));
  return {
    server,
    graph,
    controller,
    output,
    events,
    panel,
    ipc,
    setHotkeyStatus(status) {
      hotkeyStatus = status;
    },
    speak() {
      controller.press('hold');
      const id = controller.snapshot().sessionId ?? '';
      const step = Math.round(wav.sampleRate / 10);
      for (let at = 0, seq = 0; at < wav.samples.length; at += step, seq++) controller.frames(id, seq, wav.sampleRate, wav.samples.subarray(at, at + step));
      controller.release();
      return id;
    },
    records() {
      const file = path.join(dataDir, 'conversation_history.jsonl');
      if (!fs.existsSync(file)) return [];
      return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    async close() {
      controller.cancel();
      await controller.settled();
      await graph.close();
      await server.close();
    },
  };
}
