import { fork } from 'node:child_process';
import type { utilityProcess } from 'electron';
import { describe, expect, it } from 'vitest';
import { ENGINE_HOST_SCRIPT, utilityHostLauncher, type UtilityFork, type UtilityProcessLike } from '../../../../src/main/asr/host-launcher.ts';
import { LocalWhisperEngine } from '../../../../src/main/asr/local-engine.ts';
import { isEngineBuilt } from '../../../../src/main/asr/whisper-addon.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';

// Type-level: Electron's real utilityProcess.fork fits the adapter (checked by tsc; erased at run time).
const electronFork: UtilityFork = null as unknown as typeof utilityProcess.fork;
void electronFork;

/*
 * There is no Electron binary here, so this drives the host through the utilityProcess adapter with a
 * stand-in for utilityProcess.fork: a Node child whose `process.parentPort` is emulated over Node IPC the way
 * Electron exposes it ({ data } events, postMessage). The host code and the adapter are the real ones.
 */
const PARENT_PORT_SHIM = `
const send = process.send.bind(process);
process.parentPort = {
  on(event, listener) { if (event === 'message') process.on('message', (m) => listener({ data: m })); },
  postMessage(m) { send(m); },
};`;

const fakeUtilityFork: UtilityFork = (modulePath, args) => {
  const child = fork(modulePath, args ?? [], {
    execArgv: ['--import', `data:text/javascript,${encodeURIComponent(PARENT_PORT_SHIM)}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const proc = {
    pid: child.pid,
    stderr: child.stderr,
    postMessage: (m: unknown) => {
      if (child.connected) child.send(m as object);
    },
    on(event: 'message' | 'exit', listener: (x: never) => void) {
      if (event === 'message') child.on('message', listener as (m: unknown) => void);
      else child.on('exit', (code) => (listener as (c: number) => void)(code ?? -1));
      return proc;
    },
    kill: () => child.kill('SIGKILL'),
  };
  return proc as unknown as UtilityProcessLike;
};

describe.skipIf(!isEngineBuilt())('engine host behind the utilityProcess adapter', () => {
  it('loads, transcribes and reports a crash through the parentPort protocol', async () => {
    // The full 30 s encoder window (no adaptive shortening) keeps the second call running long enough for the kill to land inside it.
    const engine = new LocalWhisperEngine({ modelPath: ensureRandomWhisperModel(), threads: 1, adaptiveContext: false, launcher: utilityHostLauncher(fakeUtilityFork, ENGINE_HOST_SCRIPT) });
    try {
      const r = await engine.transcribe(new Float32Array(16000 * 2).map((_, i) => 0.2 * Math.sin(i / 6)), { language: 'en' });
      expect(r.text).toBe('hello world');
      const pid = engine.status().pid as number;
      const pending = engine.transcribe(new Float32Array(16000 * 10).map((_, i) => 0.2 * Math.sin(i / 6)), { language: 'en' });
      await new Promise((res) => setTimeout(res, 100));
      process.kill(pid, 'SIGKILL');
      await expect(pending).rejects.toMatchObject({ code: 'engine-crashed' });
      expect((await engine.transcribe(new Float32Array(16000).fill(0.1), { language: 'en' })).engine).toBe('local');
      expect(engine.status()).toMatchObject({ crashes: 1, spawns: 2 });
    } finally {
      await engine.dispose();
    }
  });
});
