import path from 'node:path';
import type { Config } from '../../shared/config/config-schema.ts';
import type { HostLauncher } from './host-launcher.ts';
import { LocalWhisperEngine } from './local-engine.ts';
import { findModel, modelRelPath } from './model-catalog.ts';
import { MODELS_DIR } from './model-manager.ts';
import { RemoteAsrEngine } from './remote-engine.ts';
import type { AsrEngine } from './types.ts';

/*
 * Builds the configured engine from config.asr.*: local (model by name under <dataDir>/models, or an
 * explicit path) or the remote API (its key comes from the secret store, passed in by the caller). A local
 * model's catalog entry picks what the engine host runs: whisper.cpp, or sherpa-onnx for a SenseVoice or
 * Paraformer model. An explicit path always means whisper.
 */

/** Path of a model by name (config asr.local.model) or as given when it already looks like a path. */
export function resolveModelPath(dataDir: string, nameOrPath: string): string {
  if (isModelPath(nameOrPath)) return path.resolve(nameOrPath);
  return path.join(dataDir, MODELS_DIR, modelRelPath(nameOrPath));
}

function isModelPath(nameOrPath: string): boolean {
  return nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.endsWith('.bin');
}

/** Inputs besides the config. */
export interface EngineFactoryInput {
  readonly dataDir: string;
  readonly config: Config;
  readonly engine?: 'local' | 'remote';
  /** Overrides asr.local.model (a name or a path). */
  readonly model?: string;
  readonly remoteApiKey?: string;
  /** Electron passes a utilityProcess launcher; Node uses a child process. */
  readonly launcher?: HostLauncher;
}

/** The engine the settings ask for. */
export function createAsrEngine(input: EngineFactoryInput): AsrEngine {
  const asr = input.config.asr;
  const kind = input.engine ?? asr.engine;
  switch (kind) {
    case 'local': {
      const model = input.model ?? asr.local.model;
      const sherpa = isModelPath(model) ? undefined : findModel(model)?.sherpa;
      return new LocalWhisperEngine({
        modelPath: resolveModelPath(input.dataDir, model),
        ...(sherpa !== undefined ? { sherpa: { family: sherpa.family } } : {}),
        threads: asr.local.threads,
        adaptiveContext: asr.local.adaptive_context,
        idleUnloadMs: asr.local.idle_unload_minutes * 60_000,
        ...(input.launcher ? { launcher: input.launcher } : {}),
      });
    }
    case 'remote':
      return new RemoteAsrEngine({ baseURL: asr.remote.base_url, apiKey: input.remoteApiKey, model: input.model ?? asr.remote.model });
    default: {
      const never: never = kind;
      throw new Error(`unknown engine ${String(never)}`);
    }
  }
}
