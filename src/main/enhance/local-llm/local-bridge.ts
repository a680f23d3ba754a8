import type { ChatOutcome, StreamEvent } from '../llm-client.ts';
import type { BuiltRequest } from '../request-builder.ts';
import type { LocalLlm } from './local-llm.ts';
import { chatPieces, localChat, localModelPath, loadParamsFor, type LocalEngineSettings } from './local-provider.ts';

/*
 * What the enhancer needs of the built-in engine: run a built step request, and warm a mode's stable prefix
 * (at key-down, and in the background after the history changed). One per app; the engine process behind it
 * is started on first use.
 */

/** Result of a warm-up, for logs, tests and benchmarks. */
export interface WarmOutcome {
  readonly mode: string;
  readonly tokens: number;
  readonly reused: number;
  readonly ms: number;
}

/** Options of the bridge. */
export interface LocalBridgeOptions {
  readonly llm: LocalLlm;
  readonly dataDir: string;
  readonly settings: () => LocalEngineSettings;
  /** Benchmarks: every answer is exactly this many tokens (end-of-turn ignored), so runs compare. */
  readonly answerTokens?: number;
}

/** Most modes re-warmed in the background after a history change (the engine keeps at most this many sequences anyway). */
const REWARM_MODES = 4;

/** The enhancer's end of the built-in engine. */
export class LocalBridge {
  private readonly opts: LocalBridgeOptions;
  /** Recently used modes, most recent last. */
  private readonly recent: string[] = [];

  constructor(opts: LocalBridgeOptions) {
    this.opts = opts;
  }

  get llm(): LocalLlm {
    return this.opts.llm;
  }

  /** Modes to re-warm after a change, most recent first. */
  recentModes(): readonly string[] {
    return [...this.recent].reverse().slice(0, REWARM_MODES);
  }

  private touch(mode: string): void {
    const i = this.recent.indexOf(mode);
    if (i !== -1) this.recent.splice(i, 1);
    this.recent.push(mode);
    if (this.recent.length > 16) this.recent.shift();
  }

  private params(model: string): ReturnType<typeof loadParamsFor> {
    return loadParamsFor(localModelPath(this.opts.dataDir, model), this.opts.settings());
  }

  /** Runs one step's built request on the engine (the mode's sequence). */
  call(
    built: BuiltRequest,
    o: { mode: string; model: string; thinking: boolean; timeoutMs: number; signal?: AbortSignal; onEvent?: (e: StreamEvent) => void },
  ): Promise<ChatOutcome> {
    this.touch(o.mode);
    const fixed = this.opts.answerTokens;
    const maxTokens = fixed ?? Number(built.body.max_tokens ?? built.body.max_completion_tokens ?? 256);
    const temperature = typeof built.body.temperature === 'number' ? built.body.temperature : 0;
    return localChat(this.opts.llm, this.params(o.model), {
      key: o.mode, messages: built.messages, stablePrefix: built.stablePrefix, maxTokens, temperature, thinking: o.thinking, timeoutMs: o.timeoutMs,
      ...(fixed !== undefined ? { ignoreEos: true } : {}),
      ...(o.signal ? { signal: o.signal } : {}), ...(o.onEvent ? { onEvent: o.onEvent } : {}),
    });
  }

  /** Evaluates the stable prefix of `built` into the mode's sequence; never throws (a failed warm-up only costs time later). */
  async warm(built: BuiltRequest, o: { mode: string; model: string; thinking: boolean }): Promise<WarmOutcome | null> {
    this.touch(o.mode);
    const { prefix } = chatPieces(built.messages, built.stablePrefix, { thinking: o.thinking, model: o.model });
    if (prefix.length === 0) return null;
    try {
      const r = await this.opts.llm.warm(this.params(o.model), o.mode, prefix);
      return { mode: o.mode, ...r };
    } catch {
      return null;
    }
  }
}

let shared: LocalBridge | null = null;

/**
 * The process's engine, registered by the service graph that owns it, so Verify and the prompt report in the
 * same process use the one engine instead of starting another (as context-window.ts shares its lookup).
 */
export function sharedLocalBridge(): LocalBridge | null {
  return shared;
}

/** Registers (or with null, forgets) the process's engine. */
export function registerLocalBridge(bridge: LocalBridge | null): void {
  shared = bridge;
}
