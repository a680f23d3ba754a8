#!/usr/bin/env node
// Writes Tingxie's start/stop sounds (assets/sounds/{start,stop}.wav): two short soft chimes, 16-bit
// mono PCM at 44.1 kHz, synthesised here so the repository has no opaque binary of unknown origin.
// Their lengths must stay within SOUND_MS in src/main/platform/sounds.ts (a unit test checks).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const RATE = 44_100;

/** A chime: notes of `freqs` one after another, each with a quick attack and an exponential decay. */
function chime(freqs, noteMs) {
  const per = Math.round((RATE * noteMs) / 1000);
  const out = new Int16Array(per * freqs.length);
  freqs.forEach((f, n) => {
    for (let i = 0; i < per; i++) {
      const t = i / RATE;
      const env = Math.min(1, i / (RATE * 0.004)) * Math.exp(-t * 28) * Math.min(1, (per - i) / (RATE * 0.004));
      const v = Math.sin(2 * Math.PI * f * t) * 0.8 + Math.sin(4 * Math.PI * f * t) * 0.12;
      out[n * per + i] = Math.round(Math.max(-1, Math.min(1, v * env * 0.5)) * 32767);
    }
  });
  return out;
}

function wav(samples) {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(RATE, 24);
  h.writeUInt32LE(RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

const dir = path.join(import.meta.dirname, '..', 'assets', 'sounds');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'start.wav'), wav(chime([660, 880], 60)));
writeFileSync(path.join(dir, 'stop.wav'), wav(chime([880, 587], 60)));
console.log(`make-sounds: wrote ${dir}/start.wav and stop.wav`);
