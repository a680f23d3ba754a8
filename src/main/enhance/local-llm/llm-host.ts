import { EngineError, LlmEngine } from './llm-engine.ts';
import type { LlmEvent, LlmRequest } from './llm-protocol.ts';
import { openHostPort } from '../../platform/child-host.ts';

/*
 * The local LLM host: runs in its own process (an Electron utilityProcess, or a Node child process in tests
 * and the CLI) so a native crash inside llama.cpp never takes the app down; the app starts a new one on the
 * next dictation (local-llm.ts). Requests run one at a time in arrival order, except `cancel`, which acts
 * at once: a warm-up still running when the dictation's request arrives simply finishes first, and the
 * request then reuses what it evaluated.
 */

const port = openHostPort<LlmRequest, LlmEvent>('llm-host');
const engine = new LlmEngine();
const cancelled = new Set<number>();
let work: Promise<void> = Promise.resolve();

async function chat(msg: Extract<LlmRequest, { type: 'chat' }>): Promise<void> {
  const t0 = performance.now();
  port.send({ type: 'started', id: msg.id });
  const a = await engine.align(msg.key, msg.pieces, true);
  let prefillMs = 0;
  const g = await engine.generate(
    a, msg.gen,
    (text) => port.send({ type: 'delta', id: msg.id, text }),
    () => cancelled.has(msg.id),
    () => {
      prefillMs = performance.now() - t0;
    },
  );
  port.send({
    type: 'done', id: msg.id, promptTokens: a.tokens.length, cachedTokens: a.reused, completionTokens: g.completionTokens,
    finish: g.finish, prefillMs, ms: performance.now() - t0, memory: engine.memory(),
  });
}

async function handle(msg: LlmRequest): Promise<void> {
  switch (msg.type) {
    case 'load': {
      const t0 = performance.now();
      const r = await engine.load(msg.params);
      port.send({ type: 'loaded', id: msg.id, loadMs: performance.now() - t0, ...r, memory: engine.memory() });
      return;
    }
    case 'warm': {
      const t0 = performance.now();
      const r = await engine.warm(msg.key, msg.pieces);
      port.send({ type: 'warmed', id: msg.id, ...r, ms: performance.now() - t0 });
      return;
    }
    case 'chat':
      if (cancelled.delete(msg.id)) {
        port.send({ type: 'done', id: msg.id, promptTokens: 0, cachedTokens: 0, completionTokens: 0, finish: 'cancelled', prefillMs: 0, ms: 0, memory: engine.memory() });
        return;
      }
      return chat(msg);
    case 'cancel':
      return;
    case 'shutdown':
      await engine.unload();
      process.exit(0);
      return;
    default: {
      const never: never = msg;
      void never;
    }
  }
}

port.onMessage((msg) => {
  if (msg.type === 'cancel') {
    cancelled.add(msg.target);
    return;
  }
  work = work
    .then(() => handle(msg))
    .catch((err: unknown) => {
      const code = err instanceof EngineError ? err.code : 'engine-failed';
      port.send({ type: 'error', id: msg.id, code, message: String((err as Error)?.message ?? err) });
    })
    .finally(() => cancelled.delete(msg.id));
});
port.send({ type: 'ready', pid: process.pid });
