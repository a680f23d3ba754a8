import { fork } from 'node:child_process';
import path from 'node:path';
import type { HostRequest } from './engine-protocol.ts';
import { whisperHostEnv } from './whisper-addon.ts';

/*
 * How the app starts the engine host. Under Node (tests, CLI) it is a child process running
 * engine-host.ts directly (Node strips the types); in Electron the app passes utilityProcess.fork through
 * utilityHostLauncher, so this folder never imports electron. Both give the same small handle.
 */

/** A running engine host, whatever started it. */
export interface EngineHostHandle {
  readonly pid: number | undefined;
  send(msg: HostRequest): void;
  onMessage(listener: (msg: unknown) => void): void;
  /** Called once when the process is gone: exit code, or the signal that killed it. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** Last lines the process wrote to stderr (whisper.cpp logs there), for crash reports. */
  stderrTail(): string;
  kill(): void;
}

/** Starts a host process. */
export type HostLauncher = () => EngineHostHandle;

/** Path of the host script next to this file (the .ts under Node; a bundler rewrites it for Electron). */
export const ENGINE_HOST_SCRIPT = path.join(import.meta.dirname, 'engine-host.ts');

const TAIL_BYTES = 4096;

function tailCollector(): { push(chunk: Buffer | string): void; text(): string } {
  let tail = '';
  return {
    push(chunk) {
      tail = (tail + chunk.toString()).slice(-TAIL_BYTES);
    },
    text: () => tail,
  };
}

/** Launcher for plain Node: child_process.fork of engine-host.ts with the current Node binary. */
export function nodeHostLauncher(opts: { scriptPath?: string; execPath?: string; env?: NodeJS.ProcessEnv } = {}): HostLauncher {
  return () => {
    const child = fork(opts.scriptPath ?? ENGINE_HOST_SCRIPT, [], {
      execPath: opts.execPath ?? process.execPath,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: opts.env ?? process.env,
    });
    const tail = tailCollector();
    child.stderr?.on('data', (c: Buffer) => tail.push(c));
    // IPC to a dying child throws EPIPE asynchronously; the exit handler reports the real problem.
    child.on('error', () => {});
    return {
      pid: child.pid,
      send(msg) {
        if (child.connected) child.send(msg);
      },
      onMessage(listener) {
        child.on('message', listener);
      },
      onExit(listener) {
        child.once('exit', (code, signal) => listener(code, signal));
      },
      stderrTail: () => tail.text(),
      kill() {
        child.kill('SIGKILL');
      },
    };
  };
}

/** The part of Electron's UtilityProcess this adapter uses (structural, so no electron import here). */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): this;
  on(event: 'exit', listener: (code: number) => void): this;
  kill(): boolean;
}

/** Electron's utilityProcess.fork signature, as far as this adapter calls it. */
export type UtilityFork = (
  modulePath: string,
  args?: string[],
  options?: { serviceName?: string; stdio?: 'pipe' | 'ignore' | 'inherit' | Array<'pipe' | 'ignore' | 'inherit'>; env?: NodeJS.ProcessEnv },
) => UtilityProcessLike;

/**
 * Launcher for Electron: pass `utilityProcess.fork` and the built host script (app/ wires it up), and
 * `app.isPackaged` (a packaged app passes no native-path override to the host, whisper-addon.ts).
 */
export function utilityHostLauncher(forkFn: UtilityFork, scriptPath: string, packaged?: boolean): HostLauncher {
  return () => {
    const env = whisperHostEnv(process.env, process.platform, process.arch, packaged);
    const child = forkFn(scriptPath, [], { serviceName: 'Tingxie ASR engine', stdio: ['ignore', 'ignore', 'pipe'], env });
    const tail = tailCollector();
    child.stderr?.on('data', (c: Buffer) => tail.push(c));
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    return {
      pid: child.pid,
      send(msg) {
        if (!exited) child.postMessage(msg);
      },
      onMessage(listener) {
        child.on('message', listener);
      },
      onExit(listener) {
        // utilityProcess reports only a code; a crash shows as a non-zero code.
        child.on('exit', (code) => listener(code, null));
      },
      stderrTail: () => tail.text(),
      kill() {
        child.kill();
      },
    };
  };
}
