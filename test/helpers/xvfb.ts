// Starts a private Xvfb display for the X11 tests (a free display number, torn down afterwards) and
// says which of the needed tools are missing, so the tests skip with a reason instead of failing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The tools these tests drive, each by its Debian package. */
const TOOLS = [
  ['Xvfb', 'xvfb'],
  ['xdotool', 'xdotool'],
  ['xclip', 'xclip'],
  ['xprop', 'x11-utils'],
] as const;

/** Missing tools as "tool (package)", empty when all are there. */
export function missingX11Tools(): string[] {
  const dirs = (process.env.PATH ?? '').split(path.delimiter);
  return TOOLS.filter(([tool]) => !dirs.some((d) => d && fs.existsSync(path.join(d, tool)))).map(([tool, pkg]) => `${tool} (apt package ${pkg})`);
}

/** A running Xvfb. */
export interface Xvfb {
  readonly display: string;
  readonly env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** Starts Xvfb on the first free display number from 140 on; resolves once its socket exists. */
export async function startXvfb(): Promise<Xvfb> {
  let n = 140 + (process.pid % 50);
  while (fs.existsSync(`/tmp/.X${n}-lock`) || fs.existsSync(`/tmp/.X11-unix/X${n}`)) n++;
  const display = `:${n}`;
  const proc: ChildProcess = spawn('Xvfb', [display, '-screen', '0', '1280x800x24', '-nolisten', 'tcp', '-ac'], { stdio: 'ignore' });
  const deadline = Date.now() + 5000;
  while (!fs.existsSync(`/tmp/.X11-unix/X${n}`)) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`Xvfb ${display} did not start`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const env = { ...process.env, DISPLAY: display };
  // One round-trip proves the server answers (the socket can appear a moment before).
  spawnSync('xdotool', ['getmouselocation'], { env, stdio: 'ignore', timeout: 2000 });
  return {
    display,
    env,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 2000).unref();
      }),
  };
}
