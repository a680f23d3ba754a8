import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeWav } from '../../src/main/audio/wav.ts';
import { testCacheDir } from './whisper-model.ts';

/*
 * Speech fixtures made by the tests themselves: espeak-ng synthesises, sox converts to 16 kHz mono 16-bit
 * and pads with silence. Results are cached under test/.cache/audio by a hash of the recipe, so a run pays
 * for synthesis once. scripts/ensure-system-deps.mjs installs both tools.
 */

/** True when `tool` runs (espeak-ng, sox…). */
export function hasTool(tool: string): boolean {
  return spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
}

function cached(recipe: string, make: (out: string) => void): string {
  const key = createHash('sha1').update(recipe).digest('hex').slice(0, 16);
  const out = path.join(testCacheDir('audio'), `${key}.wav`);
  if (!fs.existsSync(out)) {
    const tmp = `${out}.${process.pid}.tmp.wav`;
    make(tmp);
    fs.renameSync(tmp, out); // atomic for parallel workers
  }
  return out;
}

/** espeak-ng speech as a 16 kHz mono 16-bit WAV. */
export function speechWav(text: string, opts: { voice?: string; wpm?: number; rate?: number } = {}): string {
  const voice = opts.voice ?? 'en-us';
  const wpm = opts.wpm ?? 150;
  const rate = opts.rate ?? 16000;
  return cached(`speech|${voice}|${wpm}|${rate}|${text}`, (out) => {
    const raw = `${out}.raw.wav`;
    execFileSync('espeak-ng', ['-v', voice, '-s', String(wpm), '-w', raw, text], { stdio: 'ignore' });
    execFileSync('sox', [raw, '-r', String(rate), '-c', '1', '-b', '16', out], { stdio: 'ignore' });
    fs.rmSync(raw, { force: true });
  });
}

/** `speechWav` with silence added before and after (seconds). */
export function paddedSpeechWav(text: string, before: number, after: number): string {
  const src = speechWav(text);
  return cached(`padded|${before}|${after}|${src}`, (out) => {
    execFileSync('sox', [src, out, 'pad', String(before), String(after)], { stdio: 'ignore' });
  });
}

/** sox-made audio from an arbitrary effect chain, e.g. ['synth', '3', 'sine', '440'] (16 kHz mono 16-bit). */
export function soxWav(args: readonly string[], rate = 16000): string {
  return cached(`sox|${rate}|${args.join(' ')}`, (out) => {
    execFileSync('sox', ['-n', '-r', String(rate), '-c', '1', '-b', '16', out, ...args], { stdio: 'ignore' });
  });
}

/** Decodes a fixture to mono float samples. */
export function readPcm(file: string): { samples: Float32Array; sampleRate: number } {
  const w = decodeWav(fs.readFileSync(file));
  if (w.channels !== 1) throw new Error(`${file}: expected mono`);
  return { samples: w.samples, sampleRate: w.sampleRate };
}

/** First and last sample index whose magnitude exceeds `threshold` (the speech boundaries of a clean TTS clip). */
export function energyBounds(samples: Float32Array, threshold = 0.02): { start: number; end: number } {
  let start = 0;
  while (start < samples.length && Math.abs(samples[start] as number) < threshold) start++;
  let end = samples.length - 1;
  while (end > start && Math.abs(samples[end] as number) < threshold) end--;
  return { start, end: end + 1 };
}
