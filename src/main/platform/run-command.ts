/**
 * Runs a small OS helper (xdotool, xprop, osascript, lsappinfo, PowerShell, wtype…) with a time limit
 * and never a shell, so no text ever becomes shell syntax. Resolves with the exit code and output; only
 * "could not start at all" (ENOENT) is reported as `code: null` with the reason, so callers can fall
 * back to the next strategy.
 */
import { spawn } from 'node:child_process';

/** What a command did. */
export interface CommandResult {
  /** Exit code; null when it could not start or was killed by the time limit. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Set when the command did not run to completion (not found, timed out). */
  readonly failure?: string;
}

/** Runs `cmd args` (no shell) and collects its output; `input` is written to stdin when given. */
export function runCommand(cmd: string, args: readonly string[], opts: { readonly timeoutMs?: number; readonly input?: string; readonly env?: NodeJS.ProcessEnv } = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const done = (r: CommandResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const child = spawn(cmd, [...args], { stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], env: opts.env ?? process.env, windowsHide: true });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ code: null, stdout, stderr, failure: `${cmd} did not finish within ${opts.timeoutMs ?? 3000} ms` });
    }, opts.timeoutMs ?? 3000);
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (err: NodeJS.ErrnoException) => done({ code: null, stdout, stderr, failure: err.code === 'ENOENT' ? `${cmd} is not installed` : `${cmd}: ${err.message}` }));
    child.on('close', (code) => done({ code, stdout, stderr }));
    if (opts.input !== undefined) {
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(opts.input);
    }
  });
}

/** A one-line description of a failed command, for messages and logs. */
export function describeFailure(cmd: string, r: CommandResult): string {
  if (r.failure !== undefined) return r.failure;
  const err = r.stderr.trim().split('\n').at(-1) ?? '';
  return `${cmd} exited with ${String(r.code)}${err ? `: ${err.slice(0, 200)}` : ''}`;
}
