import { pinyin } from 'pinyin-pro';

/**
 * Toneless pinyin through pinyin-pro (https://pinyin-pro.cn/use/pinyin.html): the readings of one
 * character (`multiple: true` lists every reading of a polyphone, so 行 matches both xing and hang) and the
 * reading of a word in context. Same-pinyin rules compare toneless syllables: the engine's wrong
 * character often has another tone (平 ping2 / 品 pin3 differ in more than tone and never match; 萍 / 苹 / 平
 * are all ping).
 */

const readings = new Map<string, readonly string[]>();

/** Every toneless reading of the character `c` (cached; [] for a non-Chinese character). */
export function readingsOf(c: string): readonly string[] {
  let r = readings.get(c);
  if (r === undefined) {
    r = pinyin(c, { toneType: 'none', multiple: true, type: 'array', nonZh: 'removed' }).filter((x) => x !== '');
    if (readings.size > 50_000) readings.clear();
    readings.set(c, r);
  }
  return r;
}

/** The toneless syllables of `word`, one per character, read in context. */
export function syllablesOf(word: string): string[] {
  return pinyin(word, { toneType: 'none', type: 'array' });
}
