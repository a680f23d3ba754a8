/**
 * The app's engine hosts (speech: src/main/asr/engine-host.ts, LLM: src/main/enhance/local-llm/llm-host.ts)
 * run in their own process so a native crash never takes main down. This is both ends of that channel:
 * the launchers main starts a host with — a Node child process (tests, CLI, benchmarks) or Electron's
 * utilityProcess.fork passed in by src/main/app (so no service folder imports electron) — and the host's own
 * end, Node IPC or Electron's parentPort. Both launchers give the same small handle.
 * https://www.electronjs.org/docs/latest/api/utility-process
 */
import { fork } from 'node:child_process';

/** A running host, whatever started it. */
export interface ChildHostHandle<Request> {
  readonly pid: number | undefined;
  send(msg: Request): void;
  onMessage(listener: (msg: unknown) => void): void;
  /** Called once when the process is gone: exit code, or the signal that killed it. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** Last lines the process wrote to stderr (native engines log there), for crash reports. */
  stderrTail(): string;
  kill(): void;
}

/** Starts a host process. */
export type ChildHostLauncher<Request> = () => ChildHostHandle<Request>;

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

/** Launcher for plain Node: child_process.fork of the host script (Node strips the types of a .ts script). */
export function nodeForkLauncher<Request>(scriptPath: string, opts: { execPath?: string; env?: NodeJS.ProcessEnv } = {}): ChildHostLauncher<Request> {
  return () => {
    const child = fork(scriptPath, [], {
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
      send: (msg) => void (child.connected && child.send(msg as object)),
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.once('exit', (code, signal) => listener(code, signal)),
      stderrTail: () => tail.text(),
      kill: () => void child.kill('SIGKILL'),
    };
  };
}

/** The part of Electron's UtilityProcess the launcher uses (structural, so no electron import here). */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): this;
  on(event: 'exit', listener: (code: number) => void): this;
  kill(): boolean;
}

/** Electron's utilityProcess.fork signature, as far as the launcher calls it. */
export type UtilityFork = (
  modulePath: string,
  args?: string[],
  options?: { serviceName?: string; stdio?: 'pipe' | 'ignore' | 'inherit' | Array<'pipe' | 'ignore' | 'inherit'>; env?: NodeJS.ProcessEnv },
) => UtilityProcessLike;

/** Launcher for Electron: `utilityProcess.fork` of the built host script; `env` is read at each start. */
export function utilityForkLauncher<Request>(forkFn: UtilityFork, scriptPath: string, opts: { serviceName: string; env?: () => NodeJS.ProcessEnv }): ChildHostLauncher<Request> {
  return () => {
    const child = forkFn(scriptPath, [], { serviceName: opts.serviceName, stdio: ['ignore', 'ignore', 'pipe'], env: opts.env?.() ?? process.env });
    const tail = tailCollector();
    child.stderr?.on('data', (c: Buffer) => tail.push(c));
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    return {
      pid: child.pid,
      send: (msg) => void (!exited && child.postMessage(msg)),
      onMessage: (listener) => void child.on('message', listener),
      // utilityProcess reports only a code; a crash shows as a non-zero code.
      onExit: (listener) => void child.on('exit', (code) => listener(code, null)),
      stderrTail: () => tail.text(),
      kill: () => void child.kill(),
    };
  };
}

/** A host's end of the channel to the app. */
export interface HostPort<Request, Event> {
  send(event: Event): void;
  onMessage(listener: (msg: Request) => void): void;
}

interface ElectronParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

/** Opens the host's end: Electron's parentPort in a utilityProcess, else Node IPC (exiting when the app goes). */
export function openHostPort<Request, Event>(hostName: string): HostPort<Request, Event> {
  const parentPort = (process as unknown as { parentPort?: ElectronParentPort }).parentPort;
  if (parentPort !== undefined) {
    return { send: (e) => parentPort.postMessage(e), onMessage: (l) => parentPort.on('message', (e) => l(e.data as Request)) };
  }
  if (process.send === undefined) throw new Error(`${hostName} must be started with an IPC channel (fork or utilityProcess)`);
  // Without the app there is nothing to serve: exit instead of lingering as an orphan.
  process.on('disconnect', () => process.exit(0));
  return { send: (e) => process.send?.(e), onMessage: (l) => process.on('message', (m) => l(m as Request)) };
}
