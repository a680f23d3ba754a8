import { readPcm, speechWav } from './audio-fixtures.ts';

/*
 * A dictation as a person speaks one: sentences synthesised by espeak-ng (cached), joined with pauses,
 * with a little silence before (the pre-roll) and after (the key-up comes a moment after the last word).
 * 16 kHz mono. Used by the transcribe-while-speaking tests and benchmark B11.
 */

/** Sentences of plain English (espeak's en-us voice), each about 2–3 s. */
export const EN_SENTENCES = [
  'please send the quarterly report to the whole team before friday',
  'the meeting moves to three thirty in the small conference room',
  'remind me to call the bank about the new account tomorrow',
  'we shipped the fix for the login bug this morning',
  'add milk eggs and coffee to the shopping list',
  'the train leaves at eight so we should meet at the station',
  'thanks for the quick review I will merge it after lunch',
  'can you check whether the printer on the second floor works',
  'our flight lands at nine in the evening local time',
  'the draft needs one more pass before it goes out',
  'book a table for four at the italian place on saturday',
  'the new build is faster and uses less memory than before',
] as const;

/** Sentences joined with `pauseSeconds` of silence, `leadSeconds` before and `tailSeconds` after. */
export function dictationClip(sentences: readonly string[], opts: { pauseSeconds?: number; leadSeconds?: number; tailSeconds?: number; voice?: string } = {}): Float32Array {
  const rate = 16000;
  const gap = Math.round((opts.pauseSeconds ?? 0.7) * rate);
  const parts = sentences.map((s) => readPcm(speechWav(s, opts.voice !== undefined ? { voice: opts.voice } : {})).samples);
  const lead = Math.round((opts.leadSeconds ?? 0.3) * rate);
  const tail = Math.round((opts.tailSeconds ?? 0.2) * rate);
  const total = lead + tail + parts.reduce((n, p) => n + p.length, 0) + gap * Math.max(0, parts.length - 1);
  const out = new Float32Array(total);
  let at = lead;
  parts.forEach((p, i) => {
    out.set(p, at);
    at += p.length + (i < parts.length - 1 ? gap : 0);
  });
  return out;
}

/**
 * A dictation of at least `seconds` that ends with `last` (the other sentences of EN_SENTENCES first, in
 * order): what is left to decode at key-up is the same phrase whatever the length before it.
 */
export function clipEndingWith(last: string, seconds: number, opts: { pauseSeconds?: number } = {}): Float32Array {
  const others = EN_SENTENCES.filter((s) => s !== last);
  for (let n = 0; n <= others.length; n++) {
    const clip = dictationClip([...others.slice(0, n), last], opts);
    if (clip.length >= seconds * 16000 || n === others.length) return clip;
  }
  throw new Error('unreachable');
}

/** The first sentences of EN_SENTENCES that make at least `seconds` of dictation. */
export function clipOfAbout(seconds: number, opts: { pauseSeconds?: number } = {}): Float32Array {
  for (let n = 1; n <= EN_SENTENCES.length; n++) {
    const clip = dictationClip(EN_SENTENCES.slice(0, n), opts);
    if (clip.length >= seconds * 16000 || n === EN_SENTENCES.length) return clip;
  }
  throw new Error('unreachable');
}
