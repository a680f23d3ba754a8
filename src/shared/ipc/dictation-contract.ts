/**
 * Request schemas of the dictation and capture channels, spread into contract.ts. Frames travel as
 * base64 text: the generic payload guard only admits JSON, and base64 keeps them validatable (alphabet,
 * length, whole Float32 samples) like every other payload.
 */
import { z } from 'zod';
import type {
  CaptureCommand,
  CaptureStatus,
  DictationEvent,
  DictationModeWire,
  DictationPromptWire,
  DictationSnapshot,
  DictationSound,
  HotkeyStatusWire,
  RecoverableSession,
} from './dictation-types.ts';
import { modeIdSchema } from './settings-contract.ts';

/** Most samples one frames batch may carry (2 s at 48 kHz; the capture window sends ~100 ms). */
export const maxFrameSamples = 96_000;
/** Longest final text a confirm may deliver. */
export const maxDictationText = 100_000;

const sessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a session id (letters, digits, _ -)');
const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A frames batch: base64 of whole little-endian Float32 samples, bounded. */
export const captureFramesSchema = z.strictObject({
  sessionId: sessionIdSchema,
  seq: z.number().int().min(0).max(1_000_000),
  sampleRate: z.number().int().min(8000).max(192_000),
  pcm: z
    .string()
    .max(Math.ceil((maxFrameSamples * 4) / 3) * 4 + 4, `must be at most ${maxFrameSamples} samples`)
    .regex(base64, 'must be base64')
    .refine((s) => s.length % 4 === 0 && (((s.length / 4) * 3 - (s.match(/=+$/)?.[0].length ?? 0)) % 4 === 0), 'must hold whole Float32 samples'),
});

/**
 * The capture window's status report: one strict object (so the generic hostile-payload checks apply)
 * whose required fields depend on `state` (the handler turns it into the {@link CaptureStatus} union).
 */
export const captureStatusSchema = z
  .strictObject({
    state: z.enum(['ready', 'stopped', 'error']),
    sampleRate: z.number().int().min(8000).max(192_000).optional(),
    deviceLabel: z.string().max(500).optional(),
    sessionId: sessionIdSchema.optional(),
    frames: z.number().int().min(0).max(1_000_000).optional(),
    message: z.string().max(2000).optional(),
  })
  .superRefine((v, ctx) => {
    const need: Record<typeof v.state, readonly (keyof typeof v)[]> = { ready: ['sampleRate', 'deviceLabel'], stopped: ['sessionId', 'frames'], error: ['message'] };
    for (const key of need[v.state]) if (v[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `is required when state is '${v.state}'` });
  });

/** Phantom type marker (contract.ts's `returns`, repeated to avoid an import cycle). */
const marker = <T>(): { readonly __type?: T } => ({});

/** Channel map of the dictation feature; contract.ts spreads it in. */
export const dictationContract = {
  'capture:frames': { request: captureFramesSchema, response: marker<null>() },
  'capture:status': { request: captureStatusSchema, response: marker<null>() },
  'dictation:status': { request: z.undefined({ error: 'this call takes no payload' }), response: marker<DictationSnapshot>() },
  'dictation:confirm': {
    request: z.strictObject({
      sessionId: sessionIdSchema,
      text: z.string().max(maxDictationText, `must be at most ${maxDictationText} characters`),
      action: z.enum(['paste', 'copy']),
    }),
    response: marker<null>(),
  },
  'dictation:cancel': { request: z.strictObject({ sessionId: sessionIdSchema }), response: marker<null>() },
  'dictation:recoverable': { request: z.undefined({ error: 'this call takes no payload' }), response: marker<readonly RecoverableSession[]>() },
  'dictation:recover': { request: z.strictObject({ id: sessionIdSchema, action: z.enum(['finish', 'discard']) }), response: marker<null>() },
  'dictation:hotkeys': { request: z.undefined({ error: 'this call takes no payload' }), response: marker<HotkeyStatusWire>() },
  /** The modes the panel offers (⌘/Ctrl+1–9), in menu order. */
  'dictation:modes': { request: z.undefined({ error: 'this call takes no payload' }), response: marker<readonly DictationModeWire[]>() },
  /** Re-runs the session's enhancement in another mode (a result this session already has for it is reused). */
  'dictation:set-mode': { request: z.strictObject({ sessionId: sessionIdSchema, mode: modeIdSchema }), response: marker<null>() },
  /** The system prompt (on demand) the enhancer builds for the session's transcript in `mode`. */
  'dictation:prompt': { request: z.strictObject({ sessionId: sessionIdSchema, mode: modeIdSchema }), response: marker<DictationPromptWire>() },
  /**
   * Pastes or copies a reopened earlier preview's text (no new record: that dictation is already logged;
   * with `sessionId`, its record is updated when the text was changed).
   */
  'dictation:deliver': {
    request: z.strictObject({
      text: z.string().min(1, 'must not be empty').max(maxDictationText, `must be at most ${maxDictationText} characters`),
      action: z.enum(['paste', 'copy']),
      sessionId: sessionIdSchema.optional(),
    }),
    response: marker<null>(),
  },
  /** Hides the panel when no dictation is under way (Esc on an idle panel). */
  'dictation:hide-panel': { request: z.undefined({ error: 'this call takes no payload' }), response: marker<null>() },
  /**
   * Panel Retry: a failed transcription of session `sessionId` is transcribed again from its journaled
   * audio, a failed enhancement runs again. Answers whether anything was retried.
   */
  'dictation:retry': { request: z.strictObject({ sessionId: sessionIdSchema }), response: marker<boolean>() },
  /**
   * The indicator's Retry (and the tray's "Retry Last Dictation"): the last failed dictation is run again
   * from its journaled audio. Answers whether there was one to retry.
   */
  'dictation:retry-last': { request: z.undefined({ error: 'this call takes no payload' }), response: marker<boolean>() },
  /** History Browser "Re-run in mode…": a record's transcript through `mode`, into the preview panel. */
  'dictation:rerun': {
    request: z.strictObject({
      text: z.string().trim().min(1, 'must not be empty').max(maxDictationText, `must be at most ${maxDictationText} characters`),
      mode: modeIdSchema,
      sttModel: z.string().max(200).optional(),
    }),
    response: marker<null>(),
  },
} as const;

/** Event payload types of the dictation feature; contract.ts spreads it in. */
export const dictationEvents = {
  'dictation:event': marker<DictationEvent>(),
  'capture:command': marker<CaptureCommand>(),
  'dictation:sound': marker<DictationSound>(),
} as const;

/** Re-exported for the capture window's status type. */
export type { CaptureStatus };
