/**
 * A plain X11 window that holds the input focus and reports every key event the X server delivers to
 * it (x11-key-logger.py over python3-xlib): what the focused app receives, below any toolkit's own
 * shortcuts (Chromium, for one, handles Alt+Space and Alt+← itself before a page sees them). A key
 * grabbed by another client — the app's recording keys — never arrives here. A test tool.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { runCommand } from '../../../src/main/platform/run-command.ts';

/** One key event the window received: the keysym name and the X modifier state (8 = Mod1/Alt). */
export interface LoggedKey {
  readonly kind: 'press' | 'release';
  readonly key: string;
  readonly state: number;
}

/** The running logger window. */
export interface X11KeyLogger {
  readonly windowId: string;
  /** Events since the last clear. */
  events(): readonly LoggedKey[];
  /** Names of the keys pressed since the last clear. */
  pressed(): readonly string[];
  clear(): void;
  /** Gives the window the input focus again (another window may have taken it). */
  focus(): Promise<void>;
  close(): void;
}

/** Opens the logger window on the display of `env` and waits until it has the focus. */
export async function startKeyLogger(env: NodeJS.ProcessEnv): Promise<X11KeyLogger> {
  const child = spawn('/usr/bin/python3', [path.join(import.meta.dirname, 'x11-key-logger.py')], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  let log: LoggedKey[] = [];
  const windowId = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the X11 key logger window did not start')), 10_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [word, a, b] = line.split(' ');
      if (word === 'ready' && a !== undefined) {
        clearTimeout(timer);
        resolve(a);
      } else if ((word === 'press' || word === 'release') && a !== undefined) {
        log.push({ kind: word, key: a, state: Number(b) });
      }
    });
    child.once('exit', (code) => reject(new Error(`the X11 key logger exited (${String(code)})`)));
  });
  return {
    windowId,
    events: () => log,
    pressed: () => log.filter((e) => e.kind === 'press').map((e) => e.key),
    clear: () => {
      log = [];
    },
    async focus() {
      const r = await runCommand('xdotool', ['windowfocus', '--sync', windowId], { env, timeoutMs: 5000 });
      if (r.code !== 0) throw new Error(`could not focus the key logger: ${r.stderr}`);
    },
    close: () => {
      child.stdin.end();
      child.kill();
    },
  };
}
