import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ProviderKind } from '../../src/shared/provider-kinds.ts';
import { STRICT_PROVIDERS, countCached, refusalFor, usageIn, type CacheCount, type StrictSpec } from './strict-providers.ts';

/**
 * A local OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks. It answers
 * POST /v1/chat/completions (streaming SSE and plain JSON), POST /v1/audio/transcriptions (multipart)
 * and GET /v1/models, with replies and faults scripted per request, and it counts cached prompt
 * tokens the way OpenAI describes it: the longest token prefix shared with an earlier request of the
 * same model, counted only from 1024 tokens on, in 128-token steps (a DeepSeek flavour reports
 * prompt_cache_hit_tokens / prompt_cache_miss_tokens in 64-token units instead). Tokens come from the
 * real o200k BPE (gpt-tokenizer) over a canonical serialisation of the messages, so a byte drift early
 * in the prompt costs exactly what it would cost against the real service.
 *
 * With `strict` set to a provider kind, the server behaves like that provider (strict-providers.ts): it refuses
 * what the provider refuses with the provider's status and error body, streams reasoning when the request leaves
 * the model thinking, reports usage in the provider's shape and place, and counts cached tokens by its rule.
 *
 * Everything is bounded: stalls end when the client gives up or when close() runs (which destroys every
 * socket), and the prefix memory keeps the last `maxRememberedPrompts` prompts.
 */

/** A fault the server can play for one request instead of a normal reply. */
export type Fault =
  | { readonly kind: 'stall-before-headers' }
  | { readonly kind: 'stall-mid-stream'; readonly afterChunks?: number }
  | { readonly kind: 'http'; readonly status: 401 | 413 | 500 | 502 | 503; readonly message?: string }
  | { readonly kind: 'rate-limited'; readonly retryAfterSeconds: number }
  | { readonly kind: 'malformed-json' }
  /** The stream ends cleanly but without finish_reason and without [DONE]. */
  | { readonly kind: 'truncated-stream'; readonly afterChunks?: number }
  /** The connection is cut (socket destroyed) after some chunks. */
  | { readonly kind: 'connection-reset'; readonly afterChunks?: number };

/** What the scripted model says for one chat request. */
export type ChatReply =
  | {
      readonly kind: 'text';
      readonly content: string;
      /** Emitted as `<think>…</think>` ahead of the content (the Qwen/Ollama way). */
      readonly thinkTag?: string;
      /** Emitted as `reasoning_content` deltas/fields (the DeepSeek way). */
      readonly reasoningContent?: string;
      /** Emitted as `reasoning` deltas/fields (the Groq / OpenRouter / Ollama way). */
      readonly reasoning?: string;
      /** Characters per streamed delta (default 4). */
      readonly chunkChars?: number;
      /** Delay between streamed deltas in ms (default 0). */
      readonly chunkDelayMs?: number;
      /** Delay before the response headers in ms (default 0). */
      readonly delayMs?: number;
    }
  | { readonly kind: 'fault'; readonly fault: Fault };

/** What the scripted transcriber says for one transcription request. */
export type TranscriptionReply =
  | {
      readonly kind: 'text';
      readonly text: string;
      readonly language?: string;
      readonly duration?: number;
      readonly segments?: readonly { readonly start: number; readonly end: number; readonly text: string }[];
      readonly delayMs?: number;
    }
  | { readonly kind: 'fault'; readonly fault: Fault };

/**
 * Whether a recorded request is the app's key-down warm-up (src/main/enhance/server-warm-up.ts: the prompt's
 * stable prefix as the only message, a one-token answer, not streamed) rather than a dictation's request.
 */
export function isWarmUpRequest(r: RecordedRequest): boolean {
  if (!r.path.endsWith('/chat/completions')) return false;
  const body = (r.json ?? {}) as { stream?: unknown; max_tokens?: unknown; max_completion_tokens?: unknown; messages?: unknown };
  const oneToken = body.max_tokens === 1 || body.max_completion_tokens === 1;
  return oneToken && body.stream !== true && Array.isArray(body.messages) && body.messages.length === 1;
}

/** A dictation's chat requests (the warm-ups left out). */
export function dictationChats(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.path.endsWith('/chat/completions') && !isWarmUpRequest(r));
}

/** One recorded request, in arrival order. Headers are kept verbatim (authorization included) so tests can assert on them. */
export interface RecordedRequest {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
  /** Parsed JSON body (chat) or undefined. */
  readonly json: unknown;
  /** Multipart fields (transcriptions); file parts appear as `{ filename, size, contentType }`. */
  readonly fields?: Readonly<Record<string, string>>;
  readonly files?: readonly { readonly name: string; readonly filename: string; readonly size: number; readonly contentType: string }[];
}

/** A chat request as the script sees it. */
export interface ChatCall {
  readonly request: RecordedRequest;
  readonly model: string;
  readonly stream: boolean;
  readonly messages: readonly { readonly role: string; readonly content: string }[];
  /** 0-based count of chat calls so far. */
  readonly chatIndex: number;
}

/** Usage the server reports for a chat request (also recorded for assertions). */
export interface ChatUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  readonly prompt_tokens_details?: { readonly cached_tokens: number };
  readonly prompt_cache_hit_tokens?: number;
  readonly prompt_cache_miss_tokens?: number;
  /** Moonshot's cached-token field (strict 'moonshot'). */
  readonly cached_tokens?: number;
}

/** Options of startOpenAiTestServer. */
export interface OpenAiTestServerOptions {
  readonly chat?: (call: ChatCall) => ChatReply | Promise<ChatReply>;
  readonly transcription?: (req: RecordedRequest) => TranscriptionReply | Promise<TranscriptionReply>;
  /** What GET /v1/models lists (default ['test-model']); null: the server has no model list (404, as Zhipu's). */
  readonly models?: readonly string[] | null;
  /** 'openai' (cached_tokens, ≥ 1024, 128-token steps) or 'deepseek' (hit/miss fields, 64-token units). */
  readonly flavour?: 'openai' | 'deepseek';
  /** Behave like this provider (its refusals, usage shape and cache rule); overrides `flavour`. */
  readonly strict?: ProviderKind;
  readonly maxRememberedPrompts?: number;
}

/** A running server. */
export interface OpenAiTestServer {
  /** e.g. http://127.0.0.1:34567/v1 — what the SDK's baseURL takes. */
  readonly baseURL: string;
  readonly requests: readonly RecordedRequest[];
  /** Usage reported per chat request, in order (in the provider's shape when strict). */
  readonly usages: readonly ChatUsage[];
  /** Requests refused in strict mode, in order, with the status and body sent. */
  readonly refusals: readonly { readonly status: number; readonly body: unknown; readonly request: RecordedRequest }[];
  /** Per answered chat request: whether the emulated model reasoned (strict mode). */
  readonly thought: readonly boolean[];
  /** Replace the chat script (e.g. between test phases). */
  setChat(script: (call: ChatCall) => ChatReply | Promise<ChatReply>): void;
  setTranscription(script: (req: RecordedRequest) => TranscriptionReply | Promise<TranscriptionReply>): void;
  /** Forget recorded requests and cached prefixes. */
  reset(): void;
  close(): Promise<void>;
}

type Encoder = (text: string) => number[];
let encoderPromise: Promise<Encoder> | undefined;
/** The o200k encoder, loaded once (it takes a moment to load). */
function loadEncoder(): Promise<Encoder> {
  encoderPromise ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.encode(text));
  return encoderPromise;
}

/** Canonical serialisation of a chat prompt in ChatML's shape (role marker, content, end marker), with plain-text markers since real special tokens are refused by the encoder. */
export function serialisePrompt(messages: readonly { readonly role: string; readonly content: string }[]): string {
  return messages.map((m) => `<im_start>${m.role}\n${m.content}<im_end>\n`).join('');
}

/** Cached tokens the way OpenAI reports them: 0 below 1024 shared tokens, else the shared prefix rounded down to 128. */
export function openAiCachedTokens(sharedPrefixTokens: number): number {
  return sharedPrefixTokens < 1024 ? 0 : Math.floor(sharedPrefixTokens / 128) * 128;
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

function echoScript(call: ChatCall): ChatReply {
  const last = [...call.messages].reverse().find((m) => m.role === 'user');
  return { kind: 'text', content: last?.content ?? '' };
}

/** Parses a multipart/form-data body; enough for what the openai SDK sends. */
function parseMultipart(body: Buffer, contentType: string): { fields: Record<string, string>; files: { name: string; filename: string; size: number; contentType: string }[] } {
  const fields: Record<string, string> = {};
  const files: { name: string; filename: string; size: number; contentType: string }[] = [];
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (boundary === undefined) return { fields, files };
  const delim = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delim);
  while (pos !== -1) {
    const start = pos + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    if (next === -1) break;
    const part = body.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const head = part.subarray(0, headerEnd).toString('utf8');
      const content = part.subarray(headerEnd + 4);
      const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      if (filename !== undefined) {
        files.push({ name, filename, size: content.length, contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? '' });
      } else {
        fields[name] = content.toString('utf8');
      }
    }
    pos = next;
  }
  return { fields, files };
}

/** Starts the server on an ephemeral 127.0.0.1 port. */
export async function startOpenAiTestServer(options: OpenAiTestServerOptions = {}): Promise<OpenAiTestServer> {
  const flavour = options.flavour ?? 'openai';
  const maxPrompts = options.maxRememberedPrompts ?? 512;
  let chatScript = options.chat ?? echoScript;
  let transcriptionScript = options.transcription ?? ((): TranscriptionReply => ({ kind: 'text', text: '' }));
  const models = options.models === undefined ? ['test-model'] : options.models;
  const requests: RecordedRequest[] = [];
  const usages: ChatUsage[] = [];
  const strict: StrictSpec | undefined = options.strict !== undefined ? STRICT_PROVIDERS[options.strict] : undefined;
  const refusals: { status: number; body: unknown; request: RecordedRequest }[] = [];
  const thought: boolean[] = [];
  let strictMemory = new Map<string, { prompts: number[][]; units: number[][] }>();
  let remembered: { model: string; tokens: number[] }[] = [];
  let chatCount = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (ms <= 0 || closed) {
        resolve();
        return;
      }
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', code: String(status) } }));
  }

  /** Handles faults that do not depend on the kind of reply; returns true when the response is taken care of. */
  function playStaticFault(res: ServerResponse, fault: Fault): boolean {
    switch (fault.kind) {
      case 'stall-before-headers':
        return true; // never answer; the socket stays open until the client aborts or close() runs
      case 'http':
        sendError(res, fault.status, fault.message ?? `scripted HTTP ${fault.status}`);
        return true;
      case 'rate-limited':
        sendError(res, 429, 'scripted rate limit', { 'retry-after': String(fault.retryAfterSeconds) });
        return true;
      case 'malformed-json':
      case 'stall-mid-stream':
      case 'truncated-stream':
      case 'connection-reset':
        return false;
      default: {
        const never: never = fault;
        throw new Error(`unknown fault ${JSON.stringify(never)}`);
      }
    }
  }

  async function computeUsage(model: string, messages: readonly { role: string; content: string }[], completion: string): Promise<ChatUsage> {
    const encode = await loadEncoder();
    const tokens = encode(serialisePrompt(messages));
    let shared = 0;
    for (const prev of remembered) if (prev.model === model) shared = Math.max(shared, commonPrefix(prev.tokens, tokens));
    remembered.push({ model, tokens });
    if (remembered.length > maxPrompts) remembered = remembered.slice(-maxPrompts);
    const completionTokens = encode(completion).length;
    const base = { prompt_tokens: tokens.length, completion_tokens: completionTokens, total_tokens: tokens.length + completionTokens };
    if (flavour === 'deepseek') {
      const hit = Math.min(Math.floor(shared / 64) * 64, tokens.length);
      return { ...base, prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: tokens.length - hit };
    }
    return { ...base, prompt_tokens_details: { cached_tokens: Math.min(openAiCachedTokens(shared), tokens.length) } };
  }

  /** Usage the strict provider reports, counted by its cache rule. */
  async function strictUsage(spec: StrictSpec, model: string, messages: readonly { role: string; content: string }[], completion: string): Promise<ChatUsage> {
    const encode = await loadEncoder();
    const tokens = encode(serialisePrompt(messages));
    const memory = strictMemory.get(model) ?? { prompts: [], units: [] };
    strictMemory.set(model, memory);
    const rule: CacheCount = spec.cache(model);
    const cached = countCached(rule, tokens, memory);
    if (memory.prompts.length > maxPrompts) memory.prompts = memory.prompts.slice(-maxPrompts);
    return usageIn(spec.usage.shape, tokens.length, encode(completion).length, cached, rule) as unknown as ChatUsage;
  }

  async function handleChat(req: RecordedRequest, res: ServerResponse): Promise<void> {
    const body = (req.json ?? {}) as { model?: unknown; stream?: unknown; messages?: unknown; stream_options?: { include_usage?: unknown } };
    if (!Array.isArray(body.messages)) {
      sendError(res, 400, 'messages must be an array');
      return;
    }
    const messages = body.messages.map((m: { role?: unknown; content?: unknown }) => ({
      role: String(m.role ?? ''),
      content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''),
    }));
    const model = typeof body.model === 'string' ? body.model : 'unknown';
    const stream = body.stream === true;
    let thinks = false;
    if (strict !== undefined) {
      const refusal = refusalFor(strict, body as Record<string, unknown>);
      if (refusal !== null) {
        refusals.push({ ...refusal, request: req });
        res.writeHead(refusal.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(refusal.body));
        return;
      }
      thinks = strict.thinks(body as Record<string, unknown>, model);
      thought.push(thinks);
    }
    if (isWarmUpRequest(req)) {
      // The app's key-down warm-up (src/main/enhance/server-warm-up.ts): answered as a server would (one token,
      // the prompt counted and cached), outside the script, whose answers are numbered by dictation requests.
      const usage = strict !== undefined ? await strictUsage(strict, model, messages, '.') : await computeUsage(model, messages, '.');
      usages.push(usage);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'chatcmpl-warm-up', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message: { role: 'assistant', content: '.' }, finish_reason: 'length' }], usage }));
      return;
    }
    const scripted = await chatScript({ request: req, model, stream, messages, chatIndex: chatCount++ });
    // A strict model that was left thinking reasons before it answers, in its provider's field.
    const reasoning = 'The user wants the dictation cleaned; fix punctuation only.';
    const reply: ChatReply =
      thinks && scripted.kind === 'text' && strict !== undefined
        ? strict.reasoningField === 'think-tag'
          ? { ...scripted, thinkTag: scripted.thinkTag ?? reasoning }
          : strict.reasoningField === 'reasoning'
            ? { ...scripted, reasoning: scripted.reasoning ?? reasoning }
            : { ...scripted, reasoningContent: scripted.reasoningContent ?? reasoning }
        : scripted;
    if (reply.kind === 'fault' && playStaticFault(res, reply.fault)) return;
    const text = reply.kind === 'text' ? reply : { kind: 'text' as const, content: 'partial answer that must never be used' };
    await sleep(text.delayMs ?? 0);
    const full = (text.thinkTag !== undefined ? `<think>${text.thinkTag}</think>` : '') + text.content;
    const usage = strict !== undefined ? await strictUsage(strict, model, messages, full) : await computeUsage(model, messages, full);
    usages.push(usage);
    const id = `chatcmpl-test-${chatCount}`;
    const created = Math.floor(Date.now() / 1000);
    const fault = reply.kind === 'fault' ? reply.fault : undefined;
    if (!stream) {
      if (fault?.kind === 'malformed-json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "x", "choices": [ {"message": ');
        return;
      }
      if (fault !== undefined) {
        // stall-mid-stream / truncated / reset without streaming: send headers, then cut or hang.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":"x",');
        if (fault.kind === 'connection-reset') res.socket?.destroy();
        else if (fault.kind === 'truncated-stream') res.end();
        return;
      }
      const message: Record<string, unknown> = { role: 'assistant', content: full };
      if (text.reasoningContent !== undefined) message.reasoning_content = text.reasoningContent;
      if (text.reasoning !== undefined) message.reasoning = text.reasoning;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: 'stop' }], usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): string =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    const deltas: Record<string, unknown>[] = [{ role: 'assistant', content: '' }];
    const size = Math.max(1, text.chunkChars ?? 4);
    if (text.reasoningContent !== undefined) {
      for (let i = 0; i < text.reasoningContent.length; i += size) deltas.push({ reasoning_content: text.reasoningContent.slice(i, i + size) });
    }
    if (text.reasoning !== undefined) {
      for (let i = 0; i < text.reasoning.length; i += size) deltas.push({ reasoning: text.reasoning.slice(i, i + size) });
    }
    for (let i = 0; i < full.length; i += size) deltas.push({ content: full.slice(i, i + size) });
    const cutAt = fault !== undefined && 'afterChunks' in fault ? Math.min(fault.afterChunks ?? 2, deltas.length) : fault !== undefined && fault.kind !== 'malformed-json' ? Math.min(2, deltas.length) : Infinity;
    for (let i = 0; i < deltas.length; i++) {
      if (closed || res.destroyed) return;
      if (i === cutAt) break;
      if (fault?.kind === 'malformed-json' && i === 1) res.write('data: {"id": "x", "choices": [{"delta": {"content": "ab\n\n');
      res.write(chunk(deltas[i] ?? {}));
      await sleep(text.chunkDelayMs ?? 0);
    }
    if (fault !== undefined && fault.kind !== 'malformed-json') {
      if (fault.kind === 'connection-reset') res.socket?.destroy();
      else if (fault.kind === 'truncated-stream') res.end();
      return; // stall-mid-stream: keep the socket open
    }
    const place = strict?.usage.place ?? 'include-usage';
    if (place === 'choice') {
      // Moonshot: usage inside the finishing choice, never at the top level.
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage }] })}\n\n`);
    } else {
      res.write(chunk({}, 'stop', place === 'finish-chunk' ? { usage } : {}));
    }
    if (place === 'include-usage' && body.stream_options?.include_usage === true) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  async function handleTranscription(req: RecordedRequest, res: ServerResponse): Promise<void> {
    const reply = await transcriptionScript(req);
    if (reply.kind === 'fault') {
      if (playStaticFault(res, reply.fault)) return;
      if (reply.fault.kind === 'malformed-json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"text": "unterminated');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"text":');
      if (reply.fault.kind === 'connection-reset') res.socket?.destroy();
      else if (reply.fault.kind === 'truncated-stream') res.end();
      return;
    }
    await sleep(reply.delayMs ?? 0);
    const format = req.fields?.response_format ?? 'json';
    if (format === 'text') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(reply.text);
      return;
    }
    const payload =
      format === 'verbose_json'
        ? {
            task: 'transcribe',
            language: reply.language ?? 'english',
            duration: reply.duration ?? 0,
            text: reply.text,
            segments: (reply.segments ?? [{ start: 0, end: reply.duration ?? 0, text: reply.text }]).map((s, i) => ({
              id: i, seek: 0, start: s.start, end: s.end, text: s.text, tokens: [], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0.01,
            })),
          }
        : { text: reply.text };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
  }

  async function route(raw: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of raw) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const path = (raw.url ?? '/').split('?')[0] ?? '/';
    const contentType = headers['content-type'] ?? '';
    let json: unknown;
    let fields: Record<string, string> | undefined;
    let files: RecordedRequest['files'];
    if (contentType.includes('application/json') && body.length > 0) {
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = undefined;
      }
    } else if (contentType.includes('multipart/form-data')) {
      ({ fields, files } = parseMultipart(body, contentType));
    }
    const rec: RecordedRequest = {
      index: requests.length, method: raw.method ?? 'GET', path, headers, bodyText: files !== undefined ? '' : body.toString('utf8'), json,
      ...(fields !== undefined ? { fields } : {}), ...(files !== undefined ? { files } : {}),
    };
    requests.push(rec);
    if (rec.method === 'GET' && path === '/v1/models' && models !== null) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })) }));
    } else if (rec.method === 'POST' && path === '/v1/chat/completions') {
      await handleChat(rec, res);
    } else if (rec.method === 'POST' && path === '/v1/audio/transcriptions') {
      await handleTranscription(rec, res);
    } else {
      sendError(res, 404, `no route ${rec.method} ${path}`);
    }
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, `test server error: ${String(err)}`);
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    usages,
    refusals,
    thought,
    setChat(script) {
      chatScript = script;
    },
    setTranscription(script) {
      transcriptionScript = script;
    },
    reset() {
      requests.length = 0;
      usages.length = 0;
      refusals.length = 0;
      thought.length = 0;
      remembered = [];
      strictMemory = new Map();
      chatCount = 0;
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
