import { isLlmEvent, type GenerateParams, type LlmErrorCode, type LlmEvent, type LlmMemory, type LlmRequest, type LoadParams, type PromptPiece } from './llm-protocol.ts';
import type { LlmHostHandle, LlmLauncher } from './llm-launcher.ts';

/*
 * The app's end of the local LLM: starts the host process on first use (llm-host.ts), loads the model, keeps
 * it warm, shuts the process down after an idle time (the memory goes back to the system), and starts a
 * new process on the next request after a crash — a crash fails only the requests it was serving.
 */

/** A failure of the local engine, with the protocol's code or `engine-crashed`. */
export class LocalLlmError extends Error {
  readonly code: LlmErrorCode | 'engine-crashed' | 'cancelled';
  constructor(code: LlmErrorCode | 'engine-crashed' | 'cancelled', message: string) {
    super(message);
    this.code = code;
  }
}

/** One answer of the local engine. */
export interface LocalChatResult {
  readonly text: string;
  readonly promptTokens: number;
  readonly cachedTokens: number;
  readonly completionTokens: number;
  readonly finish: 'stop' | 'length' | 'cancelled';
  /** From the engine starting the request to its first generated token. */
  readonly prefillMs: number;
  readonly ms: number;
}

/** What the engine is doing, for Settings. */
export interface LocalLlmStatus {
  readonly state: 'stopped' | 'starting' | 'ready';
  readonly model: string | null;
  readonly sequences: number;
  readonly memory: LlmMemory | null;
  readonly crashes: number;
}

/** Options of the client. */
export interface LocalLlmOptions {
  readonly launcher: LlmLauncher;
  /** Shut the engine down after this long without a request; 0 keeps it loaded. Read at each request. */
  readonly idleUnloadMs: () => number;
  readonly log?: (level: 'info' | 'warn', message: string) => void;
}

type Listener = (e: LlmEvent) => void;

interface Host {
  readonly handle: LlmHostHandle;
  readonly ready: Promise<void>;
  readonly listeners: Map<number, Listener>;
  loaded: string | null;
  exited: boolean;
}

/** How long a shutdown may take before the process is killed. */
const SHUTDOWN_GRACE_MS = 2000;

/** The local LLM client (one per app). */
export class LocalLlm {
  private host: Host | null = null;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private active = 0;
  private lastMemory: LlmMemory | null = null;
  private sequences = 0;
  private crashes = 0;
  private model: string | null = null;

  private readonly opts: LocalLlmOptions;

  constructor(opts: LocalLlmOptions) {
    this.opts = opts;
  }

  /** State, model, sequences and memory as last reported by the engine. */
  status(): LocalLlmStatus {
    const state = this.host === null ? 'stopped' : this.host.loaded !== null ? 'ready' : 'starting';
    return { state, model: this.host?.loaded != null ? this.model : null, sequences: this.sequences, memory: this.host ? this.lastMemory : null, crashes: this.crashes };
  }

  /** The process id of the running host (tests kill it to show a crash is survived). */
  get pid(): number | undefined {
    return this.host?.handle.pid;
  }

  private start(): Host {
    const handle = this.opts.launcher();
    const listeners = new Map<number, Listener>();
    let readyResolve: () => void = () => {};
    let readyReject: (e: Error) => void = () => {};
    const ready = new Promise<void>((res, rej) => {
      readyResolve = res;
      readyReject = rej;
    });
    ready.catch(() => {});
    const host: Host = { handle, ready, listeners, loaded: null, exited: false };
    handle.onMessage((m) => {
      if (!isLlmEvent(m)) return;
      if (m.type === 'ready') readyResolve();
      else listeners.get(m.id)?.(m);
    });
    handle.onExit((code, signal) => {
      host.exited = true;
      if (this.host === host) this.host = null;
      const crashed = !(code === 0 && signal === null);
      if (crashed) {
        this.crashes++;
        this.opts.log?.('warn', `local LLM engine exited (${signal ?? `code ${code}`}); it restarts on the next request. ${handle.stderrTail().slice(-500)}`);
      }
      const err = new LocalLlmError('engine-crashed', `the local LLM engine stopped (${signal ?? `code ${code}`})`);
      readyReject(err);
      for (const l of [...listeners.values()]) l({ type: 'error', id: -1, code: 'engine-failed', message: err.message });
      listeners.clear();
    });
    this.host = host;
    return host;
  }

  /** Sends a request and resolves with its final event; `onEvent` sees every event of it. */
  private call(host: Host, build: (id: number) => LlmRequest, final: (e: LlmEvent) => boolean, onEvent?: Listener): { id: number; done: Promise<LlmEvent> } {
    const id = this.nextId++;
    const done = new Promise<LlmEvent>((resolve, reject) => {
      host.listeners.set(id, (e) => {
        if (e.type === 'error') {
          host.listeners.delete(id);
          reject(new LocalLlmError(e.id === -1 ? 'engine-crashed' : e.code, e.message));
          return;
        }
        onEvent?.(e);
        if (final(e)) {
          host.listeners.delete(id);
          resolve(e);
        }
      });
    });
    host.handle.send(build(id));
    return { id, done };
  }

  /** The host with `params`' model loaded (starting the process and loading as needed). */
  private async loaded(params: LoadParams): Promise<Host> {
    const host = this.host && !this.host.exited ? this.host : this.start();
    await host.ready;
    const key = JSON.stringify(params);
    if (host.loaded === key) return host;
    const e = await this.call(host, (id) => ({ type: 'load', id, params }), (ev) => ev.type === 'loaded').done;
    if (e.type === 'loaded') {
      host.loaded = key;
      this.model = params.modelPath;
      this.sequences = e.sequences;
      this.lastMemory = e.memory;
      this.opts.log?.('info', `local LLM loaded ${params.modelPath} in ${Math.round(e.loadMs)} ms (${e.sequences} sequences of ${e.contextSize} tokens)`);
    }
    return host;
  }

  /** Runs `work` counted as activity: the idle timer restarts when the last request ends. */
  private async busy<T>(work: () => Promise<T>): Promise<T> {
    this.active++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      return await work();
    } finally {
      this.active--;
      if (this.active === 0) this.armIdle();
    }
  }

  private armIdle(): void {
    const ms = this.opts.idleUnloadMs();
    if (ms <= 0 || this.host === null) return;
    this.idleTimer = setTimeout(() => void this.shutdown('idle'), ms);
    this.idleTimer.unref?.();
  }

  /** Loads the model now (Verify, or the app once AI is on), without a request. */
  async load(params: LoadParams): Promise<LocalLlmStatus> {
    return this.busy(async () => {
      await this.loaded(params);
      return this.status();
    });
  }

  /** Evaluates a prompt prefix into `key`'s sequence (the key-down warm-up); resolves with its token counts. */
  warm(params: LoadParams, key: string, pieces: readonly PromptPiece[]): Promise<{ tokens: number; reused: number; ms: number }> {
    return this.busy(async () => {
      const host = await this.loaded(params);
      const e = await this.call(host, (id) => ({ type: 'warm', id, key, pieces }), (ev) => ev.type === 'warmed').done;
      return e.type === 'warmed' ? { tokens: e.tokens, reused: e.reused, ms: e.ms } : { tokens: 0, reused: 0, ms: 0 };
    });
  }

  /**
   * One answer. `onStarted` fires when the engine starts evaluating this request (after any load and any
   * earlier request), `onDelta` with each piece of text. Aborting `signal` cancels it in the engine.
   */
  chat(params: LoadParams, req: { key: string; pieces: readonly PromptPiece[]; gen: GenerateParams; signal?: AbortSignal; onStarted?: () => void; onDelta?: (text: string) => void }): Promise<LocalChatResult> {
    return this.busy(async () => {
      if (req.signal?.aborted) throw new LocalLlmError('cancelled', 'cancelled');
      const host = await this.loaded(params);
      let text = '';
      const call = this.call(host, (id) => ({ type: 'chat', id, key: req.key, pieces: req.pieces, gen: req.gen }), (ev) => ev.type === 'done', (ev) => {
        if (ev.type === 'started') req.onStarted?.();
        else if (ev.type === 'delta') {
          text += ev.text;
          req.onDelta?.(ev.text);
        }
      });
      const onAbort = (): void => host.handle.send({ type: 'cancel', id: this.nextId++, target: call.id });
      req.signal?.addEventListener('abort', onAbort, { once: true });
      if (req.signal?.aborted) onAbort(); // aborted while the model was loading: the engine drops it unstarted
      try {
        const e = await call.done;
        if (e.type !== 'done') throw new LocalLlmError('engine-failed', 'unexpected reply');
        this.lastMemory = e.memory;
        return { text, promptTokens: e.promptTokens, cachedTokens: e.cachedTokens, completionTokens: e.completionTokens, finish: e.finish, prefillMs: e.prefillMs, ms: e.ms };
      } finally {
        req.signal?.removeEventListener('abort', onAbort);
      }
    });
  }

  /** Stops the engine process (idle, model change, app exit); the next request starts a new one. */
  async shutdown(why: 'idle' | 'exit' = 'exit'): Promise<void> {
    const host = this.host;
    if (!host || this.active > 0) return;
    this.host = null;
    if (why === 'idle') this.opts.log?.('info', 'local LLM unloaded after the idle time');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        host.handle.kill();
        resolve();
      }, SHUTDOWN_GRACE_MS);
      host.handle.onExit(() => {
        clearTimeout(timer);
        resolve();
      });
      host.handle.send({ type: 'shutdown', id: this.nextId++ });
      if (host.exited) resolve();
    });
  }
}
