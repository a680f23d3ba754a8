import path from 'node:path';
import { nodeForkLauncher, utilityForkLauncher, type ChildHostHandle, type ChildHostLauncher, type UtilityFork } from '../../platform/child-host.ts';
import type { LlmRequest } from './llm-protocol.ts';

/*
 * How the app starts the local LLM host (src/main/platform/child-host.ts does the starting): a child process
 * running llm-host.ts under Node (tests, CLI, benchmarks), utilityProcess.fork in Electron.
 */

/** A running host, whatever started it. */
export type LlmHostHandle = ChildHostHandle<LlmRequest>;

/** Starts a host process. */
export type LlmLauncher = ChildHostLauncher<LlmRequest>;

/** Electron's utilityProcess.fork, as far as the launcher calls it. */
export type UtilityForkFn = UtilityFork;

/** The host script next to this file (the .ts under Node; the bundler builds llm-host.js for Electron). */
export const LLM_HOST_SCRIPT = path.join(import.meta.dirname, 'llm-host.ts');

/** Launcher for plain Node: child_process.fork of llm-host.ts. */
export function nodeLlmLauncher(opts: { scriptPath?: string; env?: NodeJS.ProcessEnv } = {}): LlmLauncher {
  return nodeForkLauncher<LlmRequest>(opts.scriptPath ?? LLM_HOST_SCRIPT, opts);
}

/** Launcher for Electron: `utilityProcess.fork` and the built host script (app/ wires it up). */
export function utilityLlmLauncher(forkFn: UtilityFork, scriptPath: string): LlmLauncher {
  return utilityForkLauncher<LlmRequest>(forkFn, scriptPath, { serviceName: 'Tingxie LLM engine' });
}
