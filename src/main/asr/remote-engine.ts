import type * as OpenAiSdk from 'openai';
import { rmsInt16 } from '../audio/levels.ts';
import { SAMPLE_RATE } from '../audio/pcm.ts';
import { splitAtSilences } from '../audio/split.ts';
import { encodeWav } from '../audio/wav.ts';
import { guardHallucinations } from './hallucination.ts';
import { redactCut } from '../../shared/redact.ts';
import { AsrError, joinSegments, type AsrEngine, type AsrErrorCode, type AsrResult, type AsrSegment, type TranscribeOptions } from './types.ts';

/*
 * Any OpenAI-compatible /audio/transcriptions endpoint (OpenAI, Groq, a local whisper server…) through the
 * official SDK. Audio goes up as 16-bit WAV; when that is larger than the provider's upload limit it is
 * split at pauses and the pieces transcribed in order. Every failure becomes an AsrError with a code and a
 * message a person can act on; retries are off by default because the caller keeps the audio journaled and
 * a dictation must not hang on back-off.
 */

/** Options (config asr.remote.* plus the API key from the secret store). */
export interface RemoteEngineOptions {
  readonly baseURL: string;
  readonly apiKey: string | undefined;
  readonly model: string;
  /** Whole-request deadline per piece (ms). */
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  /** Provider upload limit (bytes); OpenAI's is 25 MB. */
  readonly maxUploadBytes?: number;
  /** 'verbose_json' gives segments and the language where the provider supports it. */
  readonly responseFormat?: 'json' | 'verbose_json';
}

interface TranscriptionPayload {
  text?: unknown;
  language?: unknown;
  segments?: unknown;
}

type OpenAiModule = typeof OpenAiSdk;
let sdk: Promise<OpenAiModule> | undefined;
/** The SDK is loaded on first use: it is heavy and most dictations may run locally. */
function loadSdk(): Promise<OpenAiModule> {
  sdk ??= import('openai');
  return sdk;
}

const WAV_HEADER = 44;

/** An error message's length: it is shown in a notice and kept in the journal, not a place for a whole error page. */
const MAX_ERROR_MESSAGE_CHARS = 1000;

/** What toAsrError needs to word a failure; `apiKey` is removed from every message it makes. */
export interface AsrErrorContext {
  readonly baseURL: string;
  readonly timeoutMs: number;
  readonly maxUploadBytes: number;
  readonly apiKey?: string | undefined;
}

/**
 * Maps an SDK/network failure to an AsrError. Its message reaches the UI notice and the journal, and the
 * server's text can echo the key back, so every message goes through the shared redaction.
 */
export function toAsrError(err: unknown, m: OpenAiModule, ctx: AsrErrorContext): AsrError {
  // Cut before redacting (src/shared/redact.ts `redactCut`): a server's error body can be megabytes.
  const clean = (message: string): string => redactCut(message, MAX_ERROR_MESSAGE_CHARS, [ctx.apiKey]);
  const make = (code: AsrErrorCode, message: string, opts: { status?: number } = {}): AsrError => new AsrError(code, clean(message), { ...opts, cause: err });
  if (err instanceof AsrError) return err.message === clean(err.message) ? err : make(err.code, err.message, err.status === undefined ? {} : { status: err.status });
  if (err instanceof m.APIUserAbortError) return make('cancelled', 'transcription cancelled');
  if (err instanceof m.APIConnectionTimeoutError) {
    return make('timeout', `the transcription service at ${ctx.baseURL} did not answer within ${+(ctx.timeoutMs / 1000).toFixed(1)} s`);
  }
  if (err instanceof m.APIConnectionError) return make('network', `cannot reach the transcription service at ${ctx.baseURL}: ${err.message}`);
  if (err instanceof m.APIError) {
    const status = err.status ?? 0;
    const detail = err.message.replace(/^\d{3}\s*/, '');
    if (status === 401 || status === 403) return make('auth', `the transcription service refused the API key (HTTP ${status}): check the key in Settings`, { status });
    if (status === 413) {
      return make('too-large', `the audio is larger than the service accepts (HTTP 413); lower the upload limit (now ${(ctx.maxUploadBytes / 1e6).toFixed(1)} MB) so it is split`, { status });
    }
    if (status === 429) {
      const after = err.headers?.get?.('retry-after');
      return make('rate-limited', `the transcription service is rate limiting (HTTP 429)${after ? `; retry after ${after} s` : ''}`, { status });
    }
    if (status >= 500) return make('server', `the transcription service failed (HTTP ${status}): ${detail}`, { status });
    return make('bad-request', `the transcription service rejected the request (HTTP ${status}): ${detail}`, { status });
  }
  // A body that is not the JSON the API promises (SyntaxError from the SDK's parser, or our own checks).
  return make('bad-response', `the transcription service sent a reply that is not a transcription: ${(err as Error)?.message ?? String(err)}`);
}

/** OpenAI-compatible remote transcription. */
export class RemoteAsrEngine implements AsrEngine {
  readonly kind = 'remote';
  private readonly opts: RemoteEngineOptions;

  constructor(opts: RemoteEngineOptions) {
    this.opts = opts;
  }

  /** Transcribes 16 kHz mono PCM; long audio is split at pauses to respect the upload limit. */
  async transcribe(pcm: Float32Array, opts: TranscribeOptions = {}): Promise<AsrResult> {
    const t0 = performance.now();
    if (pcm.length === 0) throw new AsrError('bad-request', 'no audio to transcribe');
    const m = await loadSdk();
    const timeoutMs = this.opts.timeoutMs ?? 30_000;
    const maxUploadBytes = this.opts.maxUploadBytes ?? 25 * 1024 * 1024;
    const ctx: AsrErrorContext = { baseURL: this.opts.baseURL, timeoutMs, maxUploadBytes, apiKey: this.opts.apiKey };
    const maxSamples = Math.floor((maxUploadBytes - WAV_HEADER) / 2);
    if (maxSamples < SAMPLE_RATE) throw new AsrError('bad-request', `upload limit ${maxUploadBytes} bytes is below one second of audio`);
    const client = new m.OpenAI({
      baseURL: this.opts.baseURL,
      // Local servers often need no key; the SDK insists on a string.
      apiKey: this.opts.apiKey ?? 'none',
      timeout: timeoutMs,
      maxRetries: this.opts.maxRetries ?? 0,
    });
    const language = opts.language === undefined || opts.language === 'auto' ? undefined : opts.language.split('-')[0];
    const format = this.opts.responseFormat ?? 'json';
    const segments: AsrSegment[] = [];
    let detected: string | undefined;
    for (const piece of splitAtSilences(pcm, maxSamples)) {
      const offsetMs = (piece.start / SAMPLE_RATE) * 1000;
      const durationMs = ((piece.end - piece.start) / SAMPLE_RATE) * 1000;
      const wav = encodeWav(pcm.subarray(piece.start, piece.end), SAMPLE_RATE, 'pcm16');
      let payload: TranscriptionPayload;
      try {
        const file = await m.toFile(wav, 'audio.wav', { type: 'audio/wav' });
        payload = (await client.audio.transcriptions.create(
          {
            file,
            model: this.opts.model,
            response_format: format,
            ...(language ? { language } : {}),
            ...(opts.prompt ? { prompt: opts.prompt } : {}),
            ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
          },
          { ...(opts.signal ? { signal: opts.signal } : {}) },
        )) as unknown as TranscriptionPayload;
      } catch (err) {
        throw toAsrError(err, m, ctx);
      }
      if (typeof payload !== 'object' || payload === null || typeof payload.text !== 'string') {
        throw new AsrError('bad-response', 'the transcription service replied without a "text" field');
      }
      if (typeof payload.language === 'string') detected ??= payload.language;
      segments.push(...toSegments(payload, offsetMs, durationMs));
      opts.signal?.throwIfAborted();
    }
    const guarded = guardHallucinations({ segments, rmsInt16: rmsInt16(pcm) });
    const total = performance.now() - t0;
    return {
      text: joinSegments(guarded.kept.map((s, i) => (i > 0 && !/^\s/.test(s.text) ? { ...s, text: ` ${s.text}` } : s))),
      segments: guarded.kept,
      language: detected ?? language,
      timings: { loadMs: 0, transcribeMs: total, totalMs: total },
      engine: 'remote',
      ...(guarded.dropped.length > 0 ? { droppedSegments: guarded.dropped } : {}),
    };
  }

  /** Nothing to free: each call makes its own HTTP request. */
  async dispose(): Promise<void> {}
}

function toSegments(p: TranscriptionPayload, offsetMs: number, durationMs: number): AsrSegment[] {
  if (Array.isArray(p.segments) && p.segments.length > 0) {
    const out: AsrSegment[] = [];
    for (const s of p.segments as { start?: unknown; end?: unknown; text?: unknown }[]) {
      if (typeof s?.text !== 'string') continue;
      const start = typeof s.start === 'number' ? s.start * 1000 : 0;
      const end = typeof s.end === 'number' ? s.end * 1000 : durationMs;
      out.push({ startMs: offsetMs + start, endMs: offsetMs + end, text: s.text });
    }
    if (out.length > 0) return out;
  }
  return p.text === '' ? [] : [{ startMs: offsetMs, endMs: offsetMs + durationMs, text: String(p.text) }];
}
