import fs from 'node:fs';
import path from 'node:path';
import { removalSpans } from '../../../../src/main/text-rules/pipeline.ts';
import { isCjk, isWordChar } from '../../../../src/main/text-rules/text-chars.ts';

/** One labelled sentence: the text as dictated, and which of its positions a careful editor removes. */
export interface Labelled {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly gold: ReadonlySet<number>;
}

const DIR = path.resolve(import.meta.dirname, '../../../fixtures/text-rules');

/** The corpus: every `*.txt` of test/fixtures/text-rules, brackets turned into labels. */
export function loadCorpus(): Labelled[] {
  const out: Labelled[] = [];
  for (const file of fs.readdirSync(DIR).filter((f) => f.endsWith('.txt')).sort()) {
    fs.readFileSync(path.join(DIR, file), 'utf8').split('\n').forEach((raw, n) => {
      if (raw.trim() === '' || raw.startsWith('#')) return;
      let text = '';
      const gold = new Set<number>();
      let inside = false;
      for (const c of raw) {
        if (c === '[' || c === ']') inside = c === '[';
        else {
          if (inside) for (let k = 0; k < c.length; k += 1) gold.add(text.length + k);
          text += c;
        }
      }
      out.push({ file, line: n + 1, text, gold });
    });
  }
  return out;
}

/** Scored units: letters, digits and Chinese characters (a seam's punctuation and spaces are the mender's). */
const scored = (text: string, i: number): boolean => isCjk(text[i]) || isWordChar(text[i]);

/** Precision and recall of the removal stages over the corpus, with the sentences they got wrong. */
export function scoreCorpus(corpus: readonly Labelled[]): { precision: number; recall: number; sentences: number; wrong: string[] } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const wrong: string[] = [];
  for (const s of corpus) {
    const removed = new Set<number>();
    for (const span of removalSpans(s.text, { fillers: true, selfCorrections: true })) for (let i = span.start; i < span.end; i += 1) removed.add(i);
    let bad = false;
    for (let i = 0; i < s.text.length; i += 1) {
      if (!scored(s.text, i)) continue;
      const r = removed.has(i);
      const g = s.gold.has(i);
      if (r && g) tp += 1;
      else if (r) fp += 1;
      else if (g) fn += 1;
      if (r !== g) bad = true;
    }
    if (bad) wrong.push(`${s.file}:${s.line} ${s.text} → removed ${JSON.stringify([...removed].sort((a, b) => a - b).map((i) => s.text[i]).join(''))}`);
  }
  return { precision: tp / (tp + fp), recall: tp / (tp + fn), sentences: corpus.length, wrong };
}
