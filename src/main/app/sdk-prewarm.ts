/**
 * Loads the LLM SDK (the `openai` package: enhancement and the remote speech engine) in the background
 * once the app is up. It is imported lazily so it stays off the start path (B9), but importing it costs
 * ~250 ms of main-thread time on a slow machine, and the first dictation after start used to pay it
 * between the transcript and the LLM request (B9b: first dictation 1.34× the later ones). Scheduled
 * after "ready" (tray up, hotkeys armed) on a later turn of the event loop, it delays neither the start
 * nor a dictation: the microphone's pre-roll covers a key pressed meanwhile.
 */
import type { Config } from '../../shared/config/config-schema.ts';

/** Whether the current settings will use the SDK: AI enhancement on, or the remote speech engine. */
export function sdkNeeded(config: Config): boolean {
  return config.ai_enhance.enabled || config.asr.engine !== 'local';
}

/** Options of {@link prewarmSdk}. */
export interface SdkPrewarmOptions {
  readonly needed: () => boolean;
  /** Loads the SDK (llm-client's preloadSdk). */
  readonly load: () => Promise<void>;
  /** Runs `fn` later, off the current turn (default: setTimeout 0, after the start's own callbacks). */
  readonly defer?: (fn: () => void) => void;
  readonly log?: (message: string, fields?: Readonly<Record<string, unknown>>) => void;
}

/** Schedules the SDK's import; never throws (a failure is logged and the first call loads it again). */
export function prewarmSdk(opts: SdkPrewarmOptions): void {
  const defer = opts.defer ?? ((fn: () => void) => void setTimeout(fn, 0));
  defer(() => {
    if (!opts.needed()) return;
    const t = performance.now();
    opts
      .load()
      .then(() => opts.log?.('LLM SDK loaded in the background', { ms: Math.round(performance.now() - t) }))
      .catch((err: unknown) => opts.log?.('LLM SDK could not be loaded ahead of use', { error: String(err) }));
  });
}
