import fs from 'node:fs';
import type { HistoryIndex } from '../src/main/history/index/history-index.ts';
import { listHistoryFiles } from '../src/main/history/index/index-sync.ts';
import type { Vocabulary } from './lib/generate.ts';
import { pct, timeMs, type BenchEntry } from './lib/report.ts';

/**
 * The 25 B1 queries: 10 rare (tail of the Zipf vocabulary), 10 common, 5 of 1–2 characters. The short
 * ones mix common words with a rare 2-character name (a mid-tail name of the vocabulary; its match count
 * is reported) so the n-gram path is measured where a scan would have to read everything.
 */
export function b1Queries(v: Vocabulary): { rare: string[]; common: string[]; short: string[] } {
  const rare = [
    ...v.projects.slice(-5),
    ...v.names.filter((n) => [...n].length >= 3).slice(-5),
  ];
  const common = ['公园里', '会议纪要', 'meeting', 'GitHub', '的时候', '项目进度', 'TypeScript', '没问题', '吃了面条', 'please review'];
  const rareShort = v.names.slice(1500).find((n) => [...n].length === 2) ?? '萍萍';
  const short = ['萍萍', rareShort, '会议', 'PR', '果'];
  return { rare, common, short };
}

/** WenZi's way: read every JSONL file, parse every line, case-insensitive substring scan, newest 100. */
export function naiveSearch(dataDir: string, text: string): number {
  const needle = text.toLowerCase();
  const hits: { timestamp: string }[] = [];
  for (const f of listHistoryFiles(dataDir)) {
    let content: string;
    try {
      content = fs.readFileSync(f.path, 'utf8');
    } catch {
      continue;
    }
    for (const line of content.split('\n')) {
      if (!line) continue;
      const r = JSON.parse(line) as { timestamp: string; asr_text: string; enhanced_text: string | null; final_text: string };
      if (
        r.asr_text.toLowerCase().includes(needle) ||
        (r.enhanced_text ?? '').toLowerCase().includes(needle) ||
        r.final_text.toLowerCase().includes(needle)
      ) hits.push(r);
    }
  }
  hits.sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1));
  return hits.slice(0, 100).length;
}

/** B1: index search (newest 100, archives included; the total is fetched separately) vs the naive scan. */
export function runB1(index: HistoryIndex, dataDir: string, v: Vocabulary, baselineRuns: number): BenchEntry {
  const qs = b1Queries(v);
  index.query({ text: 'warm-up-xyz', includeArchived: true, facets: false, count: false });
  // The page the user sees first: newest 100 matches, without waiting for the total.
  const page = (text: string) => index.query({ text, includeArchived: true, facets: false, count: false });
  const t3 = [...qs.rare, ...qs.common].map((text) => timeMs(() => page(text)));
  const tShort = qs.short.map((text) => timeMs(() => page(text)));
  // "Page X / Y" a moment later: the total (each query once, so the count cache does not flatter it).
  const totals: number[] = [];
  const count = (text: string): number => timeMs(() => totals.push(index.countMatches({ text, includeArchived: true, facets: false }).total));
  const c3 = [...qs.rare, ...qs.common].map(count);
  const cShort = qs.short.map(count);
  const tFacets = timeMs(() => index.countMatches({ text: qs.common[1] ?? '会议纪要', includeArchived: true, facets: true }));
  const baseTexts = [qs.rare[0] ?? '', qs.common[0] ?? '', qs.short[1] ?? ''].slice(0, Math.max(1, baselineRuns));
  const base = baseTexts.map((t) => timeMs(() => naiveSearch(dataDir, t)));
  const baseMin = Math.min(...base);
  const p95Long = pct(t3, 95);
  const p95Short = pct(tShort, 95);
  const rLong = baseMin / p95Long;
  const rShort = baseMin / p95Short;
  const figures: Record<string, number | string> = {
    index_p50_ms_3plus: pct(t3, 50),
    index_p95_ms_3plus: p95Long,
    index_p95_ms_rare: pct(t3.slice(0, 10), 95),
    index_p95_ms_common: pct(t3.slice(10), 95),
    index_p95_ms_short: p95Short,
    count_p95_ms_3plus: pct(c3, 95),
    count_p95_ms_short: pct(cShort, 95),
    count_with_facets_ms: tFacets,
    rare_matches_median: pct(totals.slice(0, 10), 50),
    common_matches_median: pct(totals.slice(10, 20), 50),
    naive_scan_min_ms: baseMin,
    naive_scan_runs: base.length,
    ratio_3plus: rLong,
    ratio_short: rShort,
  };
  qs.short.forEach((text, i) => {
    figures[`short_${i + 1}_query`] = text;
    figures[`short_${i + 1}_ms`] = tShort[i] ?? NaN;
    figures[`short_${i + 1}_matches`] = totals[20 + i] ?? NaN;
  });
  return {
    ratio: rLong,
    target: 'naive/index >= 500x at p95 (>=3 chars) and >= 20x (1-2 chars)',
    pass: rLong >= 500 && rShort >= 20,
    figures,
  };
}
