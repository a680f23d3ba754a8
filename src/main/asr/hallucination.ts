import type { AsrSegment } from './types.ts';

/*
 * Whisper hallucinates on silence and noise: it was trained on subtitles, so near-silent audio comes back
 * as "Thank you." or "字幕由Amara.org社区提供". The guard drops such segments when the audio is quiet, drops
 * segments the engine itself rates as likely non-speech, and collapses runaway repetition loops. It never
 * touches a segment of clearly loud audio that is not a loop: false drops lose real words.
 */

/** Phrases whisper emits on silence (normalised: lower case, no punctuation or spaces). */
const KNOWN_PHRASES = [
  'thankyou', 'thankyouverymuch', 'thanksforwatching', 'thankyouforwatching', 'pleasesubscribe',
  'subtitlesbytheamaraorgcommunity', 'you', 'bye', 'byebye', 'ohh', 'music', 'applause', 'silence',
  '字幕由amaraorg社区提供', '请不吝点赞订阅转发打赏支持明镜与点点栏目', '谢谢观看', '谢谢大家', '谢谢', '感谢观看',
  '字幕志愿者', '中文字幕', 'ご視聴ありがとうございました', 'untertitelderamaraorgcommunity', 'soustitresréalisésparlacommunautédamaraorg',
];

function normalise(text: string): string {
  return text.toLocaleLowerCase().replace(/[\p{P}\p{S}\s]+/gu, '');
}

/** Inputs of the guard. */
export interface GuardInput {
  readonly segments: readonly AsrSegment[];
  /** RMS of the audio on the int16 scale. */
  readonly rmsInt16: number;
  /** Below this RMS (int16 scale) the audio counts as near-silent; default 3× the silence threshold of 20. */
  readonly quietRms?: number;
  /** Per-segment no-speech probability, where the binding exposes it (same order as segments). */
  readonly noSpeechProb?: readonly (number | undefined)[];
}

/** Kept and dropped segments. */
export interface GuardResult {
  readonly kept: AsrSegment[];
  readonly dropped: AsrSegment[];
}

/** True when `text` is one of whisper's silence phrases. */
export function isKnownHallucination(text: string): boolean {
  const n = normalise(text);
  return n !== '' && KNOWN_PHRASES.includes(n);
}

/** Collapses a phrase repeated 4+ times in a row ("ok ok ok ok ok…") to one occurrence. */
export function collapseRepetition(text: string): string {
  return text.replace(/(.{1,40}?)(?:[\s,，。.]*\1){3,}/gu, '$1');
}

/** Applies the guard. */
export function guardHallucinations(input: GuardInput): GuardResult {
  const quiet = input.rmsInt16 < (input.quietRms ?? 60);
  const kept: AsrSegment[] = [];
  const dropped: AsrSegment[] = [];
  input.segments.forEach((seg, i) => {
    const noSpeech = input.noSpeechProb?.[i];
    const empty = normalise(seg.text) === '';
    if (empty || (quiet && isKnownHallucination(seg.text)) || (noSpeech !== undefined && noSpeech > 0.6 && (quiet || (seg.confidence ?? 1) < 0.4))) {
      dropped.push(seg);
      return;
    }
    const text = collapseRepetition(seg.text);
    kept.push(text === seg.text ? seg : { ...seg, text });
  });
  return { kept, dropped };
}
