import path from 'node:path';
import { nodeForkLauncher, utilityForkLauncher, type ChildHostHandle, type ChildHostLauncher, type UtilityFork } from '../platform/child-host.ts';
import type { HostRequest } from './engine-protocol.ts';
import { whisperHostEnv } from './whisper-addon.ts';

/*
 * How the app starts the engine host (src/main/platform/child-host.ts does the starting): a child process
 * running engine-host.ts under Node (tests, CLI), utilityProcess.fork in Electron.
 */

/** A running engine host, whatever started it. */
export type EngineHostHandle = ChildHostHandle<HostRequest>;

/** Starts a host process. */
export type HostLauncher = ChildHostLauncher<HostRequest>;

export type { UtilityFork, UtilityProcessLike } from '../platform/child-host.ts';

/** Path of the host script next to this file (the .ts under Node; a bundler rewrites it for Electron). */
export const ENGINE_HOST_SCRIPT = path.join(import.meta.dirname, 'engine-host.ts');

/** Launcher for plain Node: child_process.fork of engine-host.ts with the current Node binary. */
export function nodeHostLauncher(opts: { scriptPath?: string; execPath?: string; env?: NodeJS.ProcessEnv } = {}): HostLauncher {
  return nodeForkLauncher<HostRequest>(opts.scriptPath ?? ENGINE_HOST_SCRIPT, opts);
}

/**
 * Launcher for Electron: pass `utilityProcess.fork` and the built host script (app/ wires it up), and
 * `app.isPackaged` (a packaged app passes no native-path override to the host, whisper-addon.ts).
 */
export function utilityHostLauncher(forkFn: UtilityFork, scriptPath: string, packaged?: boolean): HostLauncher {
  return utilityForkLauncher<HostRequest>(forkFn, scriptPath, { serviceName: 'Tingxie ASR engine', env: () => whisperHostEnv(process.env, process.platform, process.arch, packaged) });
}
