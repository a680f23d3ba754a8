/**
 * Whether two spellings sound alike: the test that tells a mis-recognition (the engine heard the sound
 * and wrote the wrong characters or word: 平平 → 萍萍, 在说 → 再说, cloud → Claude) from a rewrite (the
 * user changed what was said: 开心 → 高兴, happy → glad). Chinese compares toneless pinyin syllable by
 * syllable, every reading of a polyphonic character counted, with the confusions speech engines and
 * southern accents make (z/zh, c/ch, s/sh, n/l, f/h, r/l; an/ang, en/eng, in/ing) as near matches.
 * Readings come from pinyin-pro (https://pinyin-pro.cn/use/polyphonic.html). English compares a
 * consonant skeleton (a Soundex-style grouping, https://en.wikipedia.org/wiki/Soundex) and the letters.
 */
import { pinyin, polyphonic } from 'pinyin-pro';

const INITIALS = ['zh', 'ch', 'sh', 'b', 'p', 'm', 'f', 'd', 't', 'n', 'l', 'g', 'k', 'h', 'j', 'q', 'x', 'r', 'z', 'c', 's', 'y', 'w'];
const NEAR_INITIALS = new Set(['z|zh', 'c|ch', 's|sh', 'n|l', 'f|h', 'r|l']);
const NEAR_FINALS = new Set(['an|ang', 'en|eng', 'in|ing', 'ian|iang', 'uan|uang', 'on|ong']);

const near = (set: ReadonlySet<string>, x: string, y: string): boolean => set.has(`${x}|${y}`) || set.has(`${y}|${x}`);

function split(syllable: string): { readonly initial: string; readonly final: string } {
  const initial = INITIALS.find((i) => syllable.startsWith(i)) ?? '';
  return { initial, final: syllable.slice(initial.length) };
}

/** How alike two toneless syllables sound: 1 the same, 0.75 a near confusion, 0 different. */
export function syllableSimilarity(x: string, y: string): number {
  if (x === y) return 1;
  const a = split(x);
  const b = split(y);
  if (a.initial === b.initial && near(NEAR_FINALS, a.final, b.final)) return 0.75;
  if (a.final === b.final && near(NEAR_INITIALS, a.initial, b.initial)) return 0.75;
  return 0;
}

/** Every toneless reading of each character of `text` (a non-Han character reads as itself). */
export function readings(text: string): string[][] {
  return polyphonic(text, { toneType: 'none', type: 'array' }).map((r, i) => (r.length > 0 ? r : [Array.from(text)[i] ?? '']));
}

/** How alike two characters sound: the best pair of their readings. */
function charSimilarity(ra: readonly string[], rb: readonly string[]): number {
  let best = 0;
  for (const x of ra) for (const y of rb) best = Math.max(best, syllableSimilarity(x, y));
  return best;
}

/**
 * Whether Han text `a` could be a mis-hearing of `b`: the same number of characters and each pair sounding
 * the same or nearly (the changed characters only; the caller passes the changed part).
 */
export function hanSoundsAlike(a: string, b: string): boolean {
  const ra = readings(a);
  const rb = readings(b);
  if (ra.length !== rb.length || ra.length === 0) return false;
  return ra.every((r, i) => charSimilarity(r, rb[i] ?? []) >= 0.75);
}

/** The pinyin of Han text as one Latin word ("克劳德" → "kelaode"), for comparing across scripts. */
export function pinyinWord(text: string): string {
  return pinyin(text, { toneType: 'none', separator: '' }).replace(/[^a-z]/g, '');
}

const GROUP: Readonly<Record<string, string>> = {
  b: '1', p: '1', f: '1', v: '1', k: '2', g: '2', j: '2', q: '2', s: '7', z: '7', x: '7', S: '7', d: '3', t: '3', T: '3', l: '4', m: '5', n: '5', r: '6',
};

/** The consonant skeleton of a Latin spelling: cloud and Claude are both 2-4-3, Kubernetes and "cooper netties" 2-1-6-5-3-7. */
export function soundKey(word: string): string {
  const s = word
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/ph/g, 'f')
    .replace(/ck/g, 'k')
    .replace(/[cs]h/g, 'S')
    .replace(/th/g, 'T')
    .replace(/qu/g, 'k')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/c/g, 'k');
  let key = /^[aeiouy]/.test(s) ? 'V' : '';
  for (const ch of s) {
    const g = /[0-9]/.test(ch) ? ch : GROUP[ch];
    if (g !== undefined && !key.endsWith(g)) key += g;
  }
  return key;
}

/** Levenshtein distance (short strings only: words and skeletons). */
export function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** Whether two Latin spellings (spaces ignored) sound alike: the same skeleton or one step from it, or few letters apart. */
export function latinSoundsAlike(a: string, b: string): boolean {
  const x = a.toLowerCase().replace(/[^a-z0-9]/g, '');
  const y = b.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (x === '' || y === '') return false;
  if (x === y) return true;
  const kx = soundKey(x);
  const ky = soundKey(y);
  if (kx === ky && kx.length >= 2) return true;
  if (Math.min(kx.length, ky.length) >= 3 && levenshtein(kx, ky) <= 1) return true;
  return Math.min(x.length, y.length) >= 4 && levenshtein(x, y) / Math.max(x.length, y.length) <= 0.34;
}
