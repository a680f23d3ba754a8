/**
 * Whether dictation can recognise speech at all: with the local engine, the chosen model must be
 * installed. Checked at start and whenever the speech settings change or a download finishes, so a new
 * user is told what to do before the first dictation (and the message goes away once it is fixed),
 * instead of a dictation failing with "model file not found".
 */
import fs from 'node:fs';
import type { Config } from '../../shared/config/config-schema.ts';
import { resolveModelPath } from './engine-factory.ts';

/** The name of the local model that is chosen but not installed, or null when speech can be recognised. */
export function missingSpeechModel(config: Config, dataDir: string): string | null {
  if (config.asr.engine !== 'local') return null;
  const name = config.asr.local.model;
  // The same path the engine opens.
  return fs.existsSync(resolveModelPath(dataDir, name)) ? null : name;
}

/** Inputs of {@link watchSpeechReadiness}. */
export interface SpeechReadinessOptions {
  readonly dataDir: string;
  readonly config: () => Config;
  /** Saved config changes (ConfigStore.onChange); returns the unsubscribe function. */
  readonly onChange: (listener: (change: { readonly keyPath: string }) => void) => () => void;
  /** Called at start and on every change of the answer: the missing model, or null once it is there. */
  readonly report: (missing: string | null, when: 'start' | 'change') => void;
}

/** A running readiness watch. */
export interface SpeechReadiness {
  /** Checks again (a model download finished). */
  recheck(): void;
  stop(): void;
}

/** Reports the readiness at start and whenever it changes (settings saved, model installed). */
export function watchSpeechReadiness(opts: SpeechReadinessOptions): SpeechReadiness {
  let last = missingSpeechModel(opts.config(), opts.dataDir);
  opts.report(last, 'start');
  const recheck = (): void => {
    const now = missingSpeechModel(opts.config(), opts.dataDir);
    if (now === last) return;
    last = now;
    opts.report(now, 'change');
  };
  const unsubscribe = opts.onChange(({ keyPath }) => {
    if (keyPath === '' || keyPath === 'asr' || keyPath.startsWith('asr.')) recheck();
  });
  return { recheck, stop: unsubscribe };
}
