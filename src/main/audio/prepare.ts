import { isSilent, rmsInt16 } from './levels.ts';
import { capDuration, MAX_RECORDING_SECONDS, SAMPLE_RATE } from './pcm.ts';
import { resample } from './resample.ts';
import { trimSilence, type VadOptions } from './vad.ts';

/*
 * The step between the recorded session and the ASR call: resample to 16 kHz, cap the length, discard
 * silence, optionally trim with VAD. Returns a discriminated result so the caller must handle "nothing
 * to transcribe" (it shows a notice and skips the ASR call, as WenZi does).
 */

/** Settings that drive preparation (config audio.*). */
export interface PrepareOptions {
  readonly silenceRms?: number;
  readonly maxSeconds?: number;
  readonly vad?: boolean;
  readonly vadOptions?: VadOptions;
}

/** What to do with a recording. */
export type Prepared =
  | { readonly kind: 'speech'; readonly samples: Float32Array; readonly rms: number; readonly droppedSeconds: number; readonly trimmedSeconds: number }
  | { readonly kind: 'silent'; readonly rms: number; readonly reason: 'below-threshold' | 'no-speech-detected' | 'empty' };

/** Prepares captured PCM (at `sampleRate`) for ASR. */
export function prepareForAsr(pcm: Float32Array, sampleRate: number, opts: PrepareOptions = {}): Prepared {
  const at16k = resample(pcm, sampleRate, SAMPLE_RATE);
  if (at16k.length === 0) return { kind: 'silent', rms: 0, reason: 'empty' };
  const { samples, droppedSeconds } = capDuration(at16k, opts.maxSeconds ?? MAX_RECORDING_SECONDS);
  const level = rmsInt16(samples);
  if (isSilent(samples, opts.silenceRms ?? 20)) return { kind: 'silent', rms: level, reason: 'below-threshold' };
  if (opts.vad !== true) return { kind: 'speech', samples, rms: level, droppedSeconds, trimmedSeconds: 0 };
  const trim = trimSilence(samples, opts.vadOptions);
  if (trim.samples.length === 0) return { kind: 'silent', rms: level, reason: 'no-speech-detected' };
  return { kind: 'speech', samples: trim.samples, rms: level, droppedSeconds, trimmedSeconds: (samples.length - trim.samples.length) / SAMPLE_RATE };
}
