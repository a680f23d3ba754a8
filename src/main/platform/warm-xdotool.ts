/**
 * The X11 paste keystroke through an `xdotool -` started ahead of time. Starting xdotool (exec,
 * dynamic linking, the X connection, its keymap) is most of what `xdotool key` costs — 15–30 ms on a
 * busy 2-core machine, on the path the user waits on. The paste service starts one when the dictation
 * starts (key-down); at paste time the command is written to its stdin and stdin is closed, so it
 * sends the keystroke at once and exits. Each helper serves one keystroke, so its keymap is never
 * older than the dictation (a layout switched between dictations is seen). Without a prepared helper
 * (or when it died), a fresh one is started, as before. `--clearmodifiers` still lifts a held
 * dictation key, and keysyms go through xdotool's own keymap lookup (right on any layout).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { PasteKeys } from './paste-plan.ts';

type Spawn = (cmd: string, args: readonly string[], opts: { stdio: ['pipe', 'ignore', 'pipe']; env: NodeJS.ProcessEnv }) => ChildProcess;

/** A started helper that can still take a command (a spawn that failed has no pid). */
function alive(c: ChildProcess): boolean {
  return c.pid !== undefined && c.exitCode === null && c.signalCode === null;
}

/** One prepared `xdotool -` at a time, for one display. */
export class WarmXdotool {
  private child: ChildProcess | null = null;
  private readonly env: NodeJS.ProcessEnv;
  private readonly spawnFn: Spawn;
  private readonly timeoutMs: number;

  constructor(opts: { readonly env?: NodeJS.ProcessEnv; readonly spawn?: Spawn; readonly timeoutMs?: number } = {}) {
    this.env = opts.env ?? process.env;
    this.spawnFn = opts.spawn ?? ((cmd, args, o) => spawn(cmd, [...args], o));
    this.timeoutMs = opts.timeoutMs ?? 3000;
  }

  /** Starts a helper for the next keystroke unless one is waiting already. Never throws. */
  prepare(): void {
    if (this.child !== null && alive(this.child)) return;
    try {
      this.child = this.start();
    } catch {
      this.child = null; // no xdotool: `key` says so when it is needed
    }
  }

  /** Sends `keys` (xdotool spelling) with --clearmodifiers; rejects with xdotool's reason. */
  key(keys: PasteKeys): Promise<void> {
    let child = this.child;
    this.child = null;
    if (child === null || !alive(child)) child = this.start();
    const c = child;
    return new Promise<void>((resolve, reject) => {
      let stderr = '';
      c.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => {
        c.kill('SIGKILL');
        reject(new Error(`xdotool did not send the keystroke within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      c.once('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`xdotool: ${err.message}`));
      });
      c.once('exit', (code) => {
        clearTimeout(timer);
        // xdotool's script mode reports a failed command on stderr; its exit code is not always set.
        if (code === 0 && !/error|fail|unknown/i.test(stderr)) resolve();
        else reject(new Error(`xdotool exited with ${String(code)}${stderr.trim() ? `: ${stderr.trim().slice(0, 300)}` : ''}`));
      });
      c.stdin?.on('error', () => undefined);
      c.stdin?.end(`key --clearmodifiers ${keys}\n`);
    });
  }

  /** Ends a waiting helper (quit). */
  dispose(): void {
    this.child?.stdin?.end();
    this.child = null;
  }

  private start(): ChildProcess {
    const c = this.spawnFn('xdotool', ['-'], { stdio: ['pipe', 'ignore', 'pipe'], env: this.env });
    c.on('error', () => undefined); // reported by `key`; an unused helper that failed is just dropped
    return c;
  }
}
