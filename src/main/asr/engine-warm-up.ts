/**
 * When the speech engine is loaded ahead of the first dictation: at app start and after a saved change
 * that replaces the local engine (model, engine switch, the settings in AsrService's engine key) or turns
 * warm-up on — unless `asr.local.warm_up` is off (the user keeps the memory instead) or the engine is
 * remote (nothing to load). Without it the first dictation after start pays process spawn + model load
 * after key-up. A failed warm-up (no model installed, addon not built) is only logged: the dictation
 * itself reports the problem to the user through its usual notice.
 */
import type { Config } from '../../shared/config/config-schema.ts';

/** Whether the settings ask for the engine to be loaded before the first dictation. */
export function wantsWarmUp(config: Config): boolean {
  return config.asr.engine === 'local' && config.asr.local.warm_up;
}

// The settings AsrService builds a new engine for (its engineKey), plus the switch itself.
const ENGINE_KEYS = [
  'asr.engine',
  'asr.local.model',
  'asr.local.threads',
  'asr.local.idle_unload_minutes',
  'asr.local.adaptive_context',
  'asr.local.warm_up',
] as const;

/** Whether a saved change at `keyPath` (a setting or a parent of one; '' = everything) may need a new warm-up. */
export function changeNeedsWarmUp(keyPath: string): boolean {
  return keyPath === '' || ENGINE_KEYS.some((k) => k === keyPath || k.startsWith(`${keyPath}.`));
}

/** Inputs of {@link keepEngineWarm}. */
export interface EngineWarmUpOptions {
  readonly config: () => Config;
  /** Saved config changes (ConfigStore.onChange); returns the unsubscribe function. */
  readonly onChange: (listener: (change: { readonly keyPath: string }) => void) => () => void;
  /** Loads the engine `config` names (AsrService.warmUp). */
  readonly warm: (config: Config) => Promise<void>;
  readonly log: (level: 'info' | 'warn', message: string, fields?: Readonly<Record<string, unknown>>) => void;
}

/** A running warm-up policy. */
export interface EngineWarmUp {
  /** Warms now (e.g. the chosen model was just downloaded); `why` goes to the log. */
  warm(why: string): void;
  /** Stops reacting to config changes (app quit). */
  stop(): void;
  /** Resolves when no warm-up is in flight (tests, quit). */
  settled(): Promise<void>;
}

/** Warms the engine now and after each change that needs it; never throws or rejects. */
export function keepEngineWarm(opts: EngineWarmUpOptions): EngineWarmUp {
  const pending = new Set<Promise<void>>();
  const warmNow = (why: string): void => {
    const config = opts.config();
    if (!wantsWarmUp(config)) return;
    const started = performance.now();
    const run = Promise.resolve()
      .then(() => opts.warm(config))
      .then(
        () => opts.log('info', 'speech engine warmed up', { why, model: config.asr.local.model, ms: Math.round(performance.now() - started) }),
        (err: unknown) => opts.log('warn', 'speech engine warm-up failed', { why, model: config.asr.local.model, error: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => pending.delete(run));
    pending.add(run);
  };
  warmNow('start');
  const unsubscribe = opts.onChange(({ keyPath }) => {
    if (changeNeedsWarmUp(keyPath)) warmNow(`changed ${keyPath || 'config'}`);
  });
  return {
    warm: warmNow,
    stop: unsubscribe,
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
