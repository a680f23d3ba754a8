/**
 * The controller's effects that touch the microphone stream and the journals: dropping a cancelled
 * recording (kept as a cancelled session when it has audio), transcribing (audio journaled and fsynced
 * before the ASR call), and turning a crashed recording's raw frames into a journaled WAV on recovery.
 */
import fs from 'node:fs';
import { resolveChineseScript, toChineseScript } from '../asr/chinese-script.ts';
import { AsrError } from '../asr/types.ts';
import { isSilent } from '../audio/levels.ts';
import { SAMPLE_RATE } from '../audio/pcm.ts';
import { prepareForAsr } from '../audio/prepare.ts';
import { resample } from '../audio/resample.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import { errorText, journalBestEffort, type ControllerContext } from './controller-context.ts';
import type { LiveAsr } from './ports.ts';
import { readRecordingFile, recordingFile } from './session-buffer.ts';

/** Removes the raw frames file of session `id` (if any). */
export function removeRecordingFile(ctx: ControllerContext, id: string): void {
  journalBestEffort(ctx.ports, 'removing the raw recording', () => fs.rmSync(recordingFile(ctx.sessions.dir, id), { force: true }));
}

/** Stops the capture and drops its audio; `journal` keeps it as a cancelled session (reopenable). */
export async function discardCapture(ctx: ControllerContext, id: string, journal: boolean): Promise<void> {
  ctx.takeLive(id)?.cancel();
  const b = ctx.takeBuffer(id);
  ctx.ports.capture.stop(id).catch(() => undefined);
  if (b === null) return;
  if (journal && b.length > 0) {
    // A cancelled recording stays reopenable (retry from the menu) for the audio retention period.
    ctx.audioJournal.write(id, resample(b.pcm(), b.sampleRate || SAMPLE_RATE, SAMPLE_RATE), SAMPLE_RATE, { cancelled: true });
    ctx.sessions.put(id, { status: 'cancelled' });
  } else {
    ctx.sessions.remove(id);
  }
  b.dropFile();
}

/** Gets the audio (from the capture, or the journal on a retry), checks for silence, journals it, runs ASR. */
export async function transcribe(ctx: ControllerContext, id: string, from: 'capture' | 'journal'): Promise<void> {
  const config = ctx.config();
  const ac = new AbortController();
  ctx.aborts.set(id, ac);
  try {
    let pcm: Float32Array;
    let rate: number;
    if (from === 'capture') {
      await ctx.ports.capture.stop(id);
      const b = ctx.takeBuffer(id);
      const live = ctx.takeLive(id);
      if (live !== null && b !== null && b.sampleRate === SAMPLE_RATE) {
        await finishLive(ctx, id, b.pcm(), live, ac.signal);
        return;
      }
      live?.cancel();
      pcm = b?.pcm() ?? new Float32Array(0);
      rate = b?.sampleRate || SAMPLE_RATE;
    } else {
      pcm = ctx.audioJournal.readAudio(id);
      rate = SAMPLE_RATE;
    }
    const prepared = prepareForAsr(pcm, rate, { silenceRms: config.audio.silence_rms, maxSeconds: config.audio.max_recording_seconds, vad: config.audio.vad_enabled });
    if (prepared.kind === 'silent') {
      dropSilent(ctx, id, prepared.reason);
      return;
    }
    journalAudio(ctx, id, prepared.samples, from === 'capture');
    const res = await ctx.ports.asr.transcribe({ id, pcm: prepared.samples, signal: ac.signal });
    await asrDone(ctx, id, res, prepared.samples.length);
  } catch (err) {
    asrFailed(ctx, id, config, err);
  } finally {
    ctx.aborts.delete(id);
  }
}

/**
 * Key-up of a recording decoded while it was spoken: only the last chunk is left to decode. The same
 * order as a one-pass decode — silence check, the audio journaled (fsynced), then the wait for the text —
 * except that the last chunk's decode starts before the fsync (the argument is at the yield below).
 */
async function finishLive(ctx: ControllerContext, id: string, pcm: Float32Array, live: LiveAsr, signal: AbortSignal): Promise<void> {
  const config = ctx.config();
  if (isSilent(pcm, config.audio.silence_rms)) {
    live.cancel();
    dropSilent(ctx, id, 'below-threshold');
    return;
  }
  const end = live.end();
  if (end.keptEnd <= end.keptStart) {
    live.cancel();
    dropSilent(ctx, id, 'no-speech-detected');
    return;
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
  journalAudio(ctx, id, kept, true);
  const res = await live.result(signal);
  ctx.ports.log?.('info', 'decoded while speaking', { chunks: res.chunks, pendingAtKeyUp: res.pendingAtEnd, seconds: Math.round(kept.length / SAMPLE_RATE) });
  await asrDone(ctx, id, res, kept.length);
}

/** Nothing to transcribe: the session and its audio are forgotten, the user told. */
function dropSilent(ctx: ControllerContext, id: string, reason: 'below-threshold' | 'no-speech-detected' | 'empty'): void {
  journalBestEffort(ctx.ports, 'the session journal', () => ctx.sessions.remove(id));
  journalBestEffort(ctx.ports, 'the audio journal', () => ctx.audioJournal.remove(id));
  removeRecordingFile(ctx, id);
  ctx.dispatch({ type: 'asr-silent', id, reason });
}

/** Audio and state on disk before the (last) ASR call; a disk that refuses it costs the retry-from-audio, never the dictation. */
function journalAudio(ctx: ControllerContext, id: string, samples: Float32Array, fromCapture: boolean): void {
  if (fromCapture || !ctx.audioJournal.hasAudio(id)) journalBestEffort(ctx.ports, 'the audio journal', () => ctx.audioJournal.write(id, samples, SAMPLE_RATE, { mode: ctx.modeOf(id) }));
  // The session file still says `recording`; with the WAV journaled, recovery transcribes that WAV.
  removeRecordingFile(ctx, id);
}

/** The transcript is in: one script, the panel and the machine told. */
async function asrDone(ctx: ControllerContext, id: string, res: { readonly text: string; readonly language: string }, samples: number): Promise<void> {
  // One script from here on (panel, diff, enhancer, history): whisper often answers Mandarin in Traditional.
  const text = await scriptOf(ctx, res.text.trim(), ctx.config());
  const asr = { text, language: res.language, sttModel: ctx.ports.asr.modelName(), duration: Math.round((samples / SAMPLE_RATE) * 10) / 10 };
  ctx.patchSnapshot({ sessionId: id, asrText: asr.text, text: asr.text });
  ctx.emit({ kind: 'asr', sessionId: id, text: asr.text, language: asr.language });
  ctx.dispatch({ type: 'asr-done', id, asr });
}

/** The transcription failed: the audio stays journaled (marked failed) for a retry. */
function asrFailed(ctx: ControllerContext, id: string, config: Config, err: unknown): void {
  const message = errorText(err);
  const entry = ctx.audioJournal.get(id);
  if (entry && entry.status !== 'failed') journalBestEffort(ctx.ports, 'the audio journal', () => ctx.audioJournal.markFailed(id, message));
  journalBestEffort(ctx.ports, 'the session journal', () => ctx.sessions.remove(id));
  const missing = err instanceof AsrError && err.code === 'model-missing' && config.asr.engine === 'local';
  ctx.dispatch(missing ? { type: 'asr-failed', id, error: message, missingModel: config.asr.local.model } : { type: 'asr-failed', id, error: message });
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
  if (ctx.audioJournal.hasAudio(id)) return true;
  const raw = readRecordingFile(recordingFile(ctx.sessions.dir, id));
  if (raw === null) {
    ctx.sessions.remove(id);
    ctx.emit({ kind: 'notice', sessionId: id, level: 'warning', notice: { code: 'recovery-no-audio' } });
    return false;
  }
  const prepared = prepareForAsr(raw.pcm, raw.sampleRate, { maxSeconds: ctx.config().audio.max_recording_seconds });
  ctx.audioJournal.write(id, prepared.kind === 'speech' ? prepared.samples : new Float32Array(0), SAMPLE_RATE, { recovered: true });
  removeRecordingFile(ctx, id);
  return true;
}
