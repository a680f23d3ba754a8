/**
 * utilityProcess.fork as a real child process: Node runs the module with an IPC channel (advanced
 * serialization, as Electron's MessagePort carries structured clones) and `process.parentPort`
 * installed by parent-port.mjs. Exit codes come through 'exit' as Electron reports them.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { strict } from './strict.ts';

const PARENT_PORT = path.join(import.meta.dirname, 'parent-port.mjs');

/** Every process forked, for tests (e.g. "no child left behind after quit"). */
export const forked: ChildProcess[] = [];

type Stdio = 'pipe' | 'ignore' | 'inherit';

class StandInUtilityProcess extends EventEmitter {
  private readonly child: ChildProcess;
  constructor(modulePath: string, args: string[], options: { stdio?: Stdio | Stdio[]; env?: NodeJS.ProcessEnv; serviceName?: string }) {
    super();
    const stdio = typeof options.stdio === 'string' ? [options.stdio, options.stdio, options.stdio] : (options.stdio ?? ['ignore', 'inherit', 'inherit']);
    this.child = fork(modulePath, args, {
      execArgv: ['--import', PARENT_PORT],
      serialization: 'advanced',
      stdio: [...stdio.slice(0, 3), 'ipc'] as ('pipe' | 'ignore' | 'inherit' | 'ipc')[],
      env: options.env ?? process.env,
    });
    forked.push(this.child);
    this.child.on('spawn', () => this.emit('spawn'));
    this.child.on('message', (m) => this.emit('message', m));
    this.child.on('exit', (code, signal) => this.emit('exit', code ?? (signal ? 1 : 0)));
    this.child.on('error', (err) => this.emit('error', 'FatalError', String(err)));
  }
  get pid(): number | undefined {
    return this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }
  get stdout(): NodeJS.ReadableStream | null {
    return this.child.stdout;
  }
  get stderr(): NodeJS.ReadableStream | null {
    return this.child.stderr;
  }
  postMessage(message: unknown): void {
    if (this.child.connected) this.child.send(message as never);
  }
  kill(): boolean {
    return this.child.kill('SIGTERM');
  }
}

export const utilityProcess = strict('utilityProcess', {
  fork: (modulePath: string, args: string[] = [], options: ConstructorParameters<typeof StandInUtilityProcess>[2] = {}) =>
    strict('UtilityProcess', new StandInUtilityProcess(modulePath, args, options)),
});
