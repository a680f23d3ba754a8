/**
 * The clipboard through `xclip` (X11 CLIPBOARD selection), for Linux without Electron: the Xvfb tests
 * drive the real paste strategy with it, since Electron's clipboard cannot run outside Electron. Text
 * only: xclip serves one target per process, so the transient marker (a second target) is not written
 * and snapshots keep only the text (the Electron adapter keeps every format).
 *
 * xclip forks a child that keeps serving the selection; its stdout/stderr must not be pipes we wait on
 * (that hangs the caller and, seen in practice, disturbed a Playwright-driven Chromium): they go to
 * /dev/null and we wait for the parent's exit only.
 */
import { spawn } from 'node:child_process';
import type { ClipboardPort } from './paste.ts';
import { runCommand } from './run-command.ts';

/** Text snapshot of the xclip adapter. */
interface XclipSnapshot {
  readonly text: string;
}

/** A ClipboardPort over xclip on the display in `env.DISPLAY`. */
export function xclipClipboard(env: NodeJS.ProcessEnv = process.env): ClipboardPort {
  const write = (text: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const child = spawn('xclip', ['-selection', 'clipboard', '-t', 'UTF8_STRING', '-i'], { stdio: ['pipe', 'ignore', 'ignore'], env });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('xclip did not take the text within 3 s'));
      }, 3000);
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`xclip: ${err.message}`));
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`xclip exited with ${String(code)}`));
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(text);
    });
  const read = async (): Promise<string> => {
    const r = await runCommand('xclip', ['-selection', 'clipboard', '-t', 'UTF8_STRING', '-o'], { timeoutMs: 3000, env });
    // An empty clipboard makes xclip exit 1 ("target … not available"): that is just "nothing".
    return r.code === 0 ? r.stdout : '';
  };
  return {
    readText: read,
    snapshot: async (): Promise<XclipSnapshot> => ({ text: await read() }),
    restore: (s) => write((s as XclipSnapshot).text),
    writeTransient: write,
    writeText: write,
  };
}
