/**
 * What start gets ready before the first dictation: the speech engine loaded in its own process, and
 * the speech model's readiness watched (no usable model sends the user to onboarding now, not at the
 * first key-up).
 */
import type { Config } from '../../shared/config/config-schema.ts';
import type { Notice } from '../../shared/notices/notice.ts';
import { keepEngineWarm, type EngineWarmUp } from '../asr/engine-warm-up.ts';
import { watchSpeechReadiness, type SpeechReadiness } from '../asr/speech-readiness.ts';
import type { Logger } from '../platform/logger.ts';
import type { Notify } from './app-notices.ts';
import type { SetTrayProblem } from './tray-problems.ts';

/** The config as the warm-up reads it (ConfigStore). */
export interface WarmUpConfig {
  get(): Config;
  onChange(listener: (change: { readonly keyPath: string }) => void): () => void;
}

/** Keeps the chosen engine loaded: now, and after each change that needs it (asr/engine-warm-up.ts). */
export function warmEngine(deps: { readonly config: WarmUpConfig; readonly warm: (config: Config) => Promise<void>; readonly log: Logger }): EngineWarmUp {
  const { config, log } = deps;
  return keepEngineWarm({ config: () => config.get(), onChange: (l) => config.onChange(l), warm: deps.warm, log: (level, m, f) => log.log(level, m, f) });
}

/** What {@link watchSpeechModel} needs. */
export interface SpeechModelWatchDeps {
  readonly dataDir: string;
  readonly config: WarmUpConfig;
  readonly setProblem: SetTrayProblem;
  /** A notice in the UI language (for the tray). */
  readonly words: (notice: Notice) => string;
  readonly notify: Notify;
  readonly openOnboarding: () => void;
}

/** Keeps a missing speech model on the tray; at start it is also said, and onboarding opens. */
export function watchSpeechModel(deps: SpeechModelWatchDeps): SpeechReadiness {
  const { config } = deps;
  // The Settings › Speech banner still says it whenever Settings is opened.
  return watchSpeechReadiness({
    dataDir: deps.dataDir,
    config: () => config.get(),
    onChange: (l) => config.onChange(l),
    report: (missing, when) => {
      const notice = missing === null ? null : ({ code: 'speech-model-missing', model: missing } as const);
      deps.setProblem('speech', notice === null ? null : deps.words(notice));
      if (notice !== null && when === 'start') {
        deps.notify('warning', notice);
        deps.openOnboarding();
      }
    },
  });
}
