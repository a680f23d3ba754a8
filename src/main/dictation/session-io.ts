/**
 * The controller's effects that touch the microphone stream and the journals: dropping a cancelled
 * recording (kept as a cancelled session when it has audio), transcribing (audio journaled and fsynced
 * before the ASR call), and turning a crashed recording's raw frames into a journaled WAV on recovery.
 * `transcribe` resolves to the machine event it produced; the controller dispatches it.
 */
import { resolveChineseScript, toChineseScript } from '../asr/chinese-script.ts';
import { AsrError } from '../asr/types.ts';
import { isSilent } from '../audio/levels.ts';
import { SAMPLE_RATE } from '../audio/pcm.ts';
import { prepareForAsr } from '../audio/prepare.ts';
import { resample } from '../audio/resample.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import type { TextRulesReport } from '../../shared/history/record.ts';
import { errorText, type ControllerContext } from './controller-context.ts';
import type { LiveTranscription } from '../ports/dictation-ports.ts';
import { readRecordingFile, recordingFile } from './session-buffer.ts';
import type { MachineEvent } from './session-types.ts';

/** What a transcription ends in: the transcript, nothing to transcribe, or a failure. */
export type AsrEvent = Extract<MachineEvent, { readonly type: 'asr-done' | 'asr-silent' | 'asr-failed' }>;

/** Stops the capture and drops its audio; `journal` keeps it as a cancelled session (reopenable). */
export async function discardCapture(ctx: ControllerContext, id: string, journal: boolean): Promise<void> {
  const { buffer: b, live } = ctx.takeRecording(id);
  live?.cancel();
  ctx.ports.capture.stop(id).catch(() => undefined);
  if (b === null) return;
  if (journal && b.length > 0) ctx.journals.keepCancelled(id, resample(b.pcm(), b.sampleRate || SAMPLE_RATE, SAMPLE_RATE));
  else ctx.journals.forget(id);
  b.dropFile();
}

/** Gets the audio (from the capture, or the journal on a retry), checks for silence, journals it, runs ASR. */
export async function transcribe(ctx: ControllerContext, id: string, from: 'capture' | 'journal', signal: AbortSignal): Promise<AsrEvent> {
  const config = ctx.ports.config();
  try {
    let pcm: Float32Array;
    let rate: number;
    if (from === 'capture') {
      await ctx.ports.capture.stop(id);
      const { buffer: b, live } = ctx.takeRecording(id);
      if (live !== null && b !== null && b.sampleRate === SAMPLE_RATE) return await finishLive(ctx, id, b.pcm(), live, signal);
      live?.cancel();
      pcm = b?.pcm() ?? new Float32Array(0);
      rate = b?.sampleRate || SAMPLE_RATE;
    } else {
      pcm = ctx.journals.audio.readAudio(id);
      rate = SAMPLE_RATE;
    }
    const prepared = prepareForAsr(pcm, rate, { silenceRms: config.audio.silence_rms, maxSeconds: config.audio.max_recording_seconds, vad: config.audio.vad_enabled });
    if (prepared.kind === 'silent') return dropSilent(ctx, id, prepared.reason);
    // Audio and state on disk before the ASR call; a disk that refuses it costs the retry-from-audio, never the dictation.
    ctx.journals.journalAudio(id, prepared.samples, ctx.modeOf(id), from === 'journal');
    const res = await ctx.ports.asr.transcribe({ id, pcm: prepared.samples, signal });
    return await asrDone(ctx, id, res, prepared.samples.length);
  } catch (err) {
    return asrFailed(ctx, id, config, err);
  }
}

/**
 * Key-up of a recording transcribed while it was spoken (its live transcription): only the last chunk
 * is left to decode. The same order as a one-pass decode — silence check, the audio journaled (fsynced),
 * then the wait for the text — except that the last chunk's decode starts before the fsync (the
 * argument is at the yield below).
 */
async function finishLive(ctx: ControllerContext, id: string, pcm: Float32Array, live: LiveTranscription, signal: AbortSignal): Promise<AsrEvent> {
  if (isSilent(pcm, ctx.ports.config().audio.silence_rms)) {
    live.cancel();
    return dropSilent(ctx, id, 'below-threshold');
  }
  const end = live.end();
  if (end.keptEnd <= end.keptStart) {
    live.cancel();
    return dropSilent(ctx, id, 'no-speech-detected');
  }
  // The live transcription was fed exactly the buffer's kept batches, so its sample positions are the buffer's.
  const kept = pcm.subarray(end.keptStart, end.keptEnd);
  // One turn of the event loop lets the last chunk's request reach the engine process before the WAV's
  // fsync below blocks this thread, so the engine decodes while the audio is made durable. Crash safety
  // is unchanged: (1) every batch is already in the raw recording file, which is removed only after the
  // WAV is in place, so a crash before or during the write is recovered from it (`recoverAudio`); (2) the
  // write is synchronous and comes before the wait for the text, so no text is used — panel, LLM, paste —
  // before the audio is on disk; (3) the WAV's contents and its fsync are the same as before.
  await new Promise<void>((resolve) => setImmediate(resolve));
  ctx.journals.journalAudio(id, kept, ctx.modeOf(id), false);
  const res = await live.result(signal);
  ctx.ports.log?.('info', 'decoded while speaking', { chunks: res.chunks, pendingAtKeyUp: res.pendingAtEnd, seconds: Math.round(kept.length / SAMPLE_RATE) });
  return asrDone(ctx, id, res, kept.length);
}

/** Nothing to transcribe: the session and its audio are forgotten, the user told. */
function dropSilent(ctx: ControllerContext, id: string, reason: 'below-threshold' | 'no-speech-detected' | 'empty'): AsrEvent {
  ctx.journals.remove(id);
  return { type: 'asr-silent', id, reason };
}

/** The transcript is in: one script, the panel told. */
async function asrDone(ctx: ControllerContext, id: string, res: { readonly text: string; readonly language: string }, samples: number): Promise<AsrEvent> {
  // One script from here on (panel, diff, enhancer, history): whisper often answers Mandarin in Traditional.
  const recognized = await scriptOf(ctx, res.text.trim(), ctx.ports.config());
  // Fillers, self-corrections, replacements and snippets, for every engine, before the LLM and the paste.
  const rules = textRulesOf(ctx, id, recognized);
  const asr = {
    text: rules?.text ?? recognized,
    ...(rules !== null ? { recognized, textRules: rules.report } : {}),
    language: res.language,
    sttModel: ctx.ports.asr.modelName(),
    duration: Math.round((samples / SAMPLE_RATE) * 10) / 10,
  };
  ctx.show({ sessionId: id, asrText: asr.text, text: asr.text, textRules: rules?.report ?? null });
  ctx.emit({ kind: 'asr', sessionId: id, text: asr.text, language: asr.language });
  return { type: 'asr-done', id, asr };
}

/** The text rules' result for session `id`'s recognized text; null when they changed and fired nothing (or failed: logged, the text stays). */
function textRulesOf(ctx: ControllerContext, id: string, recognized: string): { readonly text: string; readonly report: TextRulesReport } | null {
  const port = ctx.ports.textRules;
  if (!port || recognized === '') return null;
  try {
    const r = port.apply(recognized, ctx.modeOf(id));
    return r.report.removed.length === 0 && r.report.fired.length === 0 ? null : r;
  } catch (err) {
    ctx.ports.log?.('warn', 'text rules failed; the text stays as recognised', { error: errorText(err) });
    return null;
  }
}

/** The transcription failed: the audio stays journaled (marked failed) for a retry. */
function asrFailed(ctx: ControllerContext, id: string, config: Config, err: unknown): AsrEvent {
  const message = errorText(err);
  ctx.journals.markFailed(id, message);
  const missing = err instanceof AsrError && err.code === 'model-missing' && config.asr.engine === 'local';
  return missing ? { type: 'asr-failed', id, error: message, missingModel: config.asr.local.model } : { type: 'asr-failed', id, error: message };
}

/** `text` in the configured Chinese script; on a converter failure the text as recognised (logged). */
async function scriptOf(ctx: ControllerContext, text: string, config: Config): Promise<string> {
  try {
    return await toChineseScript(text, resolveChineseScript(config.asr.chinese_script, config.asr.language));
  } catch (err) {
    ctx.ports.log?.('warn', 'Chinese script conversion unavailable; the text stays as recognised', { error: errorText(err) });
    return text;
  }
}

/**
 * Makes sure a journaled session that crashed while recording has its WAV (from the raw frames on
 * disk). False when there is no audio left: the session is forgotten and the user told.
 */
export function recoverAudio(ctx: ControllerContext, id: string): boolean {
  const { journals } = ctx;
  if (journals.audio.hasAudio(id)) return true;
  const raw = readRecordingFile(recordingFile(journals.sessions.dir, id));
  if (raw === null) {
    journals.forget(id);
    ctx.emit({ kind: 'notice', sessionId: id, level: 'warning', notice: { code: 'recovery-no-audio' } });
    return false;
  }
  const prepared = prepareForAsr(raw.pcm, raw.sampleRate, { maxSeconds: ctx.ports.config().audio.max_recording_seconds });
  journals.journalRecovered(id, prepared.kind === 'speech' ? prepared.samples : new Float32Array(0));
  return true;
}
