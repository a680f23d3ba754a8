import type OpenAI from 'openai';
import type { ProviderKind } from '../../shared/provider-kinds.ts';
import type { ProviderRefusal } from '../../shared/notices/notice.ts';
import { providerRefusalText } from '../../shared/notices/notice-text.ts';
import { redactCut } from '../../shared/redact.ts';
import { hostOf } from '../../shared/url-host.ts';
import { readProviderError } from './provider-error.ts';
import { ThinkStream } from './think-split.ts';
import { usageFromChunk, type CallUsage } from './usage.ts';

export type { CallUsage } from './usage.ts';

type OpenAiModule = typeof OpenAI;

/**
 * The LLM call on the `openai` SDK, made safe for dictation: one hard wall-clock deadline for the whole
 * enhancement (10 s by default) and a connect deadline (no response headers within 10 s), retries only
 * when they still fit inside the deadline, the SDK's own retries and 10-minute timeout switched off,
 * cancellation through an AbortSignal, and every failure reported as a reason instead of an exception.
 * API keys only travel in the Authorization header and are scrubbed from every message this module makes.
 */

/** An OpenAI-compatible endpoint. */
export interface LlmProvider {
  readonly id: string;
  readonly baseURL: string;
  /** From the secret store; undefined for keyless local servers. */
  readonly apiKey: string | undefined;
  /** The provider preset whose profile builds the request; absent means 'other' (core OpenAI fields only). */
  readonly kind?: ProviderKind;
  /** The user's extra request fields (added last; null removes a field). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** A stored key entered for another server than `baseURL`'s: the enhancer refuses instead of calling. */
  readonly keyMismatch?: { readonly savedFor: string; readonly now: string };
}

/** Why an enhancement fell back to the raw text (the UI shows `message`). */
export type FailureCode =
  | 'timeout' | 'connect-timeout' | 'cancelled' | 'auth' | 'rate-limited' | 'too-large' | 'server' | 'network'
  | 'bad-response' | 'truncated' | 'empty' | 'no-provider' | 'diverged' | 'too-long' | 'no-mode';

/** A failure reason. */
export interface FailureReason {
  readonly code: FailureCode;
  readonly message: string;
  /** What the provider refused, read from its error body (provider-error.ts); the UI words it in its own language. */
  readonly refusal?: ProviderRefusal;
  /** The provider's raw error body with the status, secrets removed: for the log only, never shown. */
  readonly detail?: string;
}

/** A chat message. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** Streaming events for the preview. `reset` means: discard what was shown, a retry starts over. */
export type StreamEvent = { readonly type: 'answer'; readonly text: string } | { readonly type: 'thinking'; readonly text: string } | { readonly type: 'reset' };

/** Options of one chat call. */
export interface ChatCallOptions {
  readonly provider: LlmProvider;
  readonly body: Readonly<Record<string, unknown>>;
  /** Absolute deadline (ms, same clock as `now`). */
  readonly deadlineAt: number;
  readonly connectTimeoutMs: number;
  readonly maxRetries: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: StreamEvent) => void;
  readonly now?: () => number;
  /** Stop (as `too-large`) once answer and reasoning together pass this many characters (see think-split.ts `responseCapChars`). */
  readonly maxResponseChars?: number;
}

/** Result of a chat call. */
export type ChatOutcome =
  | { readonly ok: true; readonly answer: string; readonly thinking: string; readonly usage: CallUsage | null; readonly attempts: number }
  /** `usage`: what a failed call still cost, where the provider said (the built-in engine always does). */
  | { readonly ok: false; readonly reason: FailureReason; readonly attempts: number; readonly usage?: CallUsage | null };

let sdk: Promise<{ default: OpenAiModule }> | undefined;
/** The SDK module, loaded on first use (keeps it off the start-up path). */
function loadSdk(): Promise<{ default: OpenAiModule }> {
  sdk ??= import('openai');
  return sdk;
}

/**
 * Loads the SDK ahead of the first call. Importing it takes ~250 ms of main-thread time on a slow
 * machine, which the first dictation after start would otherwise wait for; the app calls this once it
 * is up (tray ready, hotkeys armed), so it delays neither the start nor a dictation. The remote speech
 * engine imports the same module, so this warms it too.
 */
export async function preloadSdk(): Promise<void> {
  try {
    await loadSdk();
  } catch (err) {
    sdk = undefined; // the first real call tries again and reports its own error
    throw err;
  }
}

const clients = new Map<string, OpenAI>();
async function clientFor(p: LlmProvider): Promise<OpenAI> {
  const key = `${p.baseURL}\u0000${p.apiKey ?? ''}`;
  let c = clients.get(key);
  if (!c) {
    const { default: OpenAIClass } = await loadSdk();
    // Keyless local servers (Ollama) still need a non-empty string for the SDK. The SDK's own logging is off:
    // it prints raw stream chunks (dictated text) on parse errors.
    c = new OpenAIClass({ baseURL: p.baseURL, apiKey: p.apiKey ?? 'no-key', maxRetries: 0, timeout: 600_000, logLevel: 'off' });
    if (clients.size > 32) clients.clear();
    clients.set(key, c);
  }
  return c;
}

interface Classified {
  readonly reason: FailureReason;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
}

/** A failure message's length: it is one line of a notice. */
const MAX_MESSAGE_CHARS = 300;
/**
 * How much of a provider's error body is read and logged. Real error bodies are under 2 KB (the shapes in
 * provider-error.ts); a server may send megabytes, and the text is cut to this before anything (the
 * redaction, the parser) reads it, so their work stays bounded whatever arrives.
 */
const MAX_ERROR_BODY_CHARS = 16_384;

function classify(err: unknown, abortCause: 'deadline' | 'connect' | 'user' | null, secrets: readonly (string | undefined)[]): Classified {
  // Cut before redacting (src/shared/redact.ts `redactCut`): the redaction's cost follows the text kept.
  const msg = (m: string): string => redactCut(m, MAX_MESSAGE_CHARS, secrets);
  if (abortCause === 'user') return { reason: { code: 'cancelled', message: 'cancelled' }, retryable: false };
  if (abortCause === 'deadline') return { reason: { code: 'timeout', message: 'the model did not finish before the deadline' }, retryable: false };
  if (abortCause === 'connect') return { reason: { code: 'connect-timeout', message: 'the server did not answer in time' }, retryable: true };
  const e = err as { status?: number; headers?: Headers | Record<string, string>; message?: string; name?: string };
  const status = typeof e.status === 'number' ? e.status : undefined;
  const text = msg(String(e.message ?? err));
  // An HTTP error: its body read into one sentence (and a structured refusal); the raw body goes to `detail` for the log.
  const read = readProviderError(err, (t) => redactCut(t, MAX_ERROR_BODY_CHARS, secrets));
  const said = read ? { message: providerRefusalText('en', read.refusal), refusal: read.refusal, detail: `HTTP ${status}: ${read.raw.slice(0, 2000)}` } : {};
  if (status === 401 || status === 403) return { reason: { code: 'auth', message: `the provider refused the API key (${status})`, ...said }, retryable: false };
  if (status === 413) return { reason: { code: 'too-large', message: 'the request is too large for the provider (413)', ...said }, retryable: false };
  if (status === 429) {
    const h = e.headers;
    const raw = h instanceof Headers ? h.get('retry-after') : h?.['retry-after'];
    const secs = raw !== null && raw !== undefined ? Number(raw) : NaN;
    return { reason: { code: 'rate-limited', message: 'the provider is rate limiting (429)', ...said }, retryable: true, ...(Number.isFinite(secs) ? { retryAfterMs: secs * 1000 } : {}) };
  }
  if (status === 408 || (status !== undefined && status >= 500)) return { reason: { code: 'server', message: `server error ${status}: ${text}`, ...said }, retryable: true };
  if (status !== undefined) return { reason: { code: 'bad-response', message: `HTTP ${status}: ${text}`, ...said }, retryable: false };
  if (err instanceof SyntaxError || /JSON|Unexpected token|parse/i.test(text)) return { reason: { code: 'bad-response', message: `unreadable answer: ${text}` }, retryable: true };
  return { reason: { code: 'network', message: `connection failed: ${text}` }, retryable: true };
}

/** What one answer stream delivered, or that it ran past the answer's size limit. */
type StreamRead =
  | { readonly kind: 'too-large' }
  | { readonly kind: 'read'; readonly split: ThinkStream; readonly reasoning: string; readonly finish: string | null; readonly usage: CallUsage | null };

/**
 * Reads an answer stream to its end (or until `aborted`), passing reasoning, thinking and answer deltas to
 * o.onEvent; past o.maxResponseChars it aborts the request through `ac`.
 */
async function readAnswerStream(stream: AsyncIterable<OpenAI.ChatCompletionChunk>, o: ChatCallOptions, aborted: () => boolean, ac: AbortController): Promise<StreamRead> {
  const split = new ThinkStream();
  let reasoning = '';
  let finish: string | null = null;
  let usage: CallUsage | null = null;
  let received = 0;
  for await (const chunk of stream) {
    if (aborted()) break;
    const choice = chunk.choices[0];
    const delta = choice?.delta as { content?: string | null; reasoning_content?: string | null; reasoning?: string | null } | undefined;
    const r = delta?.reasoning_content ?? delta?.reasoning;
    received += (r?.length ?? 0) + (delta?.content?.length ?? 0);
    if (o.maxResponseChars !== undefined && received > o.maxResponseChars) {
      ac.abort();
      return { kind: 'too-large' };
    }
    if (r) {
      reasoning += r;
      o.onEvent?.({ type: 'thinking', text: r });
    }
    if (delta?.content) {
      const out = split.push(delta.content);
      if (out.reset) o.onEvent?.({ type: 'reset' });
      if (out.thinking) o.onEvent?.({ type: 'thinking', text: out.thinking });
      if (out.answer) o.onEvent?.({ type: 'answer', text: out.answer });
    }
    if (choice?.finish_reason) finish = choice.finish_reason;
    usage = usageFromChunk(chunk) ?? usage;
  }
  return { kind: 'read', split, reasoning, finish, usage };
}

/** Streams one chat completion within the deadline, retrying only while retries fit; never throws. */
export async function streamChat(o: ChatCallOptions): Promise<ChatOutcome> {
  const now = o.now ?? Date.now;
  const secrets = [o.provider.apiKey];
  let attempts = 0;
  let last: FailureReason = { code: 'timeout', message: 'no time left for the request' };
  while (attempts <= o.maxRetries) {
    if (o.signal?.aborted) return { ok: false, reason: { code: 'cancelled', message: 'cancelled' }, attempts };
    const remaining = o.deadlineAt - now();
    if (remaining <= 0) return { ok: false, reason: attempts === 0 ? last : { code: 'timeout', message: `${last.message}; no time left to retry` }, attempts };
    attempts++;
    if (attempts > 1) o.onEvent?.({ type: 'reset' });
    const ac = new AbortController();
    let cause: 'deadline' | 'connect' | 'user' | null = null;
    const abort = (c: 'deadline' | 'connect' | 'user'): void => {
      if (cause === null) cause = c;
      ac.abort();
    };
    const onUserAbort = (): void => abort('user');
    o.signal?.addEventListener('abort', onUserAbort, { once: true });
    const deadlineTimer = setTimeout(() => abort('deadline'), remaining);
    let connectTimer: NodeJS.Timeout | undefined = setTimeout(() => abort('connect'), Math.min(o.connectTimeoutMs, remaining));
    try {
      const client = await clientFor(o.provider);
      const stream = await client.chat.completions.create(
        { ...o.body, stream: true } as unknown as OpenAI.ChatCompletionCreateParamsStreaming,
        { signal: ac.signal, timeout: remaining + 1000, maxRetries: 0 },
      );
      clearTimeout(connectTimer);
      connectTimer = undefined;
      const read = await readAnswerStream(stream, o, () => cause !== null, ac);
      if (read.kind === 'too-large') return { ok: false, reason: { code: 'too-large', message: `the answer ran past ${o.maxResponseChars} characters and was cut off` }, attempts };
      const { split, reasoning, finish, usage } = read;
      if (cause !== null) throw new Error('aborted');
      if (finish === null) {
        last = { code: 'truncated', message: 'the answer stream ended before it was complete' };
        continue; // retry if time allows
      }
      if (finish === 'length') return { ok: false, reason: { code: 'truncated', message: 'the answer hit the output token limit' }, attempts, usage };
      const s = split.result();
      const thinking = [reasoning.trim(), s.thinking].filter((t) => t !== '').join('\n');
      return { ok: true, answer: s.answer.trim(), thinking, usage, attempts };
    } catch (err) {
      const c = classify(err, cause, secrets);
      last = c.reason;
      if (!c.retryable) return { ok: false, reason: c.reason, attempts };
      const left = o.deadlineAt - now();
      const wait = c.retryAfterMs ?? Math.min(200 * 2 ** (attempts - 1), 2000);
      if (attempts > o.maxRetries || wait >= left - 200) return { ok: false, reason: c.reason, attempts };
      await sleepUnlessAborted(wait, o.signal);
    } finally {
      clearTimeout(deadlineTimer);
      if (connectTimer) clearTimeout(connectTimer);
      o.signal?.removeEventListener('abort', onUserAbort);
    }
  }
  return { ok: false, reason: last, attempts };
}

function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A provider's own model list (`GET /models`), for Settings' model picker and Verify. */
export type ModelListing =
  | { readonly state: 'listed'; readonly models: readonly string[] }
  /** The server has no model list (404/405/501): Zhipu, some gateways. Any id may still be accepted. */
  | { readonly state: 'no-list' }
  | { readonly state: 'failed'; readonly code: 'auth' | 'timeout' | 'unreachable' | 'failed'; readonly message: string };

/**
 * Lists the provider's models. Only an offer: a model id the list lacks (Volcengine Ark `ep-…` endpoint ids,
 * fine-tunes, deployments) may still be accepted, so Verify's real request decides, never this list.
 * The key is scrubbed from every message.
 */
export async function listModels(p: LlmProvider, timeoutMs = 10_000): Promise<ModelListing> {
  const secrets = [p.apiKey];
  const fail = (code: 'auth' | 'timeout' | 'unreachable' | 'failed', message: string): ModelListing => ({ state: 'failed', code, message: redactCut(message, MAX_MESSAGE_CHARS, secrets) });
  try {
    const client = await clientFor(p);
    const page = await client.models.list({ timeout: timeoutMs, maxRetries: 0 });
    return { state: 'listed', models: page.data.map((m) => m.id).filter((id): id is string => typeof id === 'string') };
  } catch (err) {
    const e = err as { status?: number; name?: string; message?: string; cause?: { code?: string } };
    const status = typeof e.status === 'number' ? e.status : undefined;
    if (status === 404 || status === 405 || status === 501) return { state: 'no-list' };
    if (status === 401 || status === 403) return fail('auth', `the API key was rejected (${status})`);
    if (e.name === 'APIConnectionTimeoutError' || /timed? ?out/i.test(String(e.message))) return fail('timeout', `the server did not answer within ${Math.round(timeoutMs / 100) / 10} s`);
    if (status === undefined) return fail('unreachable', `cannot reach ${hostOf(p.baseURL)} (${e.cause?.code ?? e.message ?? String(err)})`);
    return fail('failed', classify(err, null, secrets).reason.message);
  }
}
