/**
 * A dictation set-up with the real services (history JSONL + index, vocabulary, enhancer, remote ASR
 * engine through the openai SDK) against the local OpenAI-compatible test server, in a temp folder.
 * The only stand-ins are the ends nothing real can run here: the capture window (frames are fed from
 * a WAV file through the same `frames()` entry the IPC handler uses) and the output (a recording sink).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DictationController } from '../../../../src/main/dictation/controller.ts';
import type { DictationPorts } from '../../../../src/main/ports/dictation-ports.ts';
import type { DeliveryOutcome, OutputPort } from '../../../../src/main/ports/output-port.ts';
import { openServiceGraph, type ServiceGraph } from '../../../../src/main/dictation/service-graph.ts';
import { configSchema, type Config } from '../../../../src/shared/config/config-schema.ts';
import type { DictationEvent } from '../../../../src/shared/ipc/dictation-types.ts';
import { startOpenAiTestServer, type OpenAiTestServer, type OpenAiTestServerOptions } from '../../../helpers/openai-test-server.ts';

/** A recording output sink: what would have been pasted or copied, in order. */
export class RecordingSink implements OutputPort {
  readonly delivered: { text: string; action: 'paste' | 'copy'; submit?: string }[] = [];
  fail: string | null = null;
  async deliver(text: string, action: 'paste' | 'copy', submit?: string): Promise<DeliveryOutcome> {
    this.delivered.push({ text, action, ...(submit !== undefined ? { submit } : {}) });
    return this.fail === null ? { ok: true } : { ok: false, notice: { code: 'paste-failed', reason: this.fail, app: null } };
  }
}

/** Everything a test drives. */
export interface DictationFixture {
  readonly dir: string;
  readonly server: OpenAiTestServer;
  readonly graph: ServiceGraph;
  readonly controller: DictationController;
  readonly sink: RecordingSink;
  readonly events: DictationEvent[];
  readonly panel: boolean[];
  config: Config;
  /** Feeds a recording in 100 ms batches as the capture window would. */
  feed(id: string, pcm: Float32Array, sampleRate: number): void;
  /** The JSONL records on disk. */
  records(): Record<string, unknown>[];
  close(): Promise<void>;
}

/** Config for the fixture: remote ASR and the test provider, both on the test server. */
export function fixtureConfig(baseURL: string, over: Record<string, unknown> = {}): Config {
  return configSchema.parse({
    asr: { engine: 'remote', language: 'en', remote: { base_url: baseURL, model: 'whisper-test' } },
    ai_enhance: { enabled: true, mode: 'proofread', providers: { test: { base_url: baseURL, models: ['test-model'] } }, default_provider: 'test', default_model: 'test-model', timeout: 2, connection_timeout: 2, max_retries: 0 },
    ...over,
  });
}

/** Builds the fixture (optionally in an existing data folder, to test recovery; `extra`: further ports, e.g. the input context). */
export async function makeDictationFixture(serverOpts: OpenAiTestServerOptions, over: Record<string, unknown> = {}, dir?: string, extra: Pick<DictationPorts, 'inputContext'> = {}): Promise<DictationFixture> {
  const dataDir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  const server = await startOpenAiTestServer(serverOpts);
  const holder: { config: Config } = { config: fixtureConfig(server.baseURL, over) };
  const graph = await openServiceGraph({ dataDir, config: () => holder.config, secrets: { get: () => 'sk-test' }, lang: () => 'en', warn: () => {} });
  const sink = new RecordingSink();
  const events: DictationEvent[] = [];
  const panel: boolean[] = [];
  const ports: DictationPorts = {
    dataDir,
    config: () => holder.config,
    // The capture window stand-in: frames come from feed(); stop has nothing left to flush.
    capture: { start: () => undefined, stop: async () => undefined },
    asr: graph.ports.asr,
    enhance: graph.ports.enhance,
    history: graph.ports.history,
    vocabulary: graph.ports.vocabulary,
    output: sink,
    ui: { emit: (e) => events.push(e), panel: (show) => panel.push(show), sound: () => undefined },
    ...extra,
  };
  const controller = new DictationController(ports);
  return {
    dir: dataDir,
    server,
    graph,
    controller,
    sink,
    events,
    panel,
    get config() {
      return holder.config;
    },
    set config(c: Config) {
      holder.config = c;
    },
    feed(id, pcm, sampleRate) {
      const step = Math.round(sampleRate / 10);
      for (let at = 0, seq = 0; at < pcm.length; at += step, seq++) controller.frames(id, seq, sampleRate, pcm.subarray(at, at + step));
    },
    records() {
      const file = path.join(dataDir, 'conversation_history.jsonl');
      if (!fs.existsSync(file)) return [];
      return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    async close() {
      await controller.settled();
      await graph.close();
      await server.close();
      if (dir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until the controller is idle with no work in flight. */
export async function untilIdle(c: DictationController, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await c.settled();
    if (c.state.state === 'idle') return;
    if (Date.now() > end) throw new Error(`controller still ${c.state.state}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Waits for a state. */
export async function untilState(c: DictationController, state: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (c.state.state !== state) {
    if (Date.now() > end) throw new Error(`controller is ${c.state.state}, not ${state}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
