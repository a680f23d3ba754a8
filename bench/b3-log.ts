import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HistoryService } from '../src/main/history/history-service.ts';
import type { NewHistoryRecord } from '../src/shared/history/record.ts';
import { ensureDataset } from './lib/generate.ts';
import { pct, type BenchEntry } from './lib/report.ts';

/** A fresh data folder holding the newest `n` generated records in the active file. */
function folderWith(n: number, cacheRoot: string): string {
  const src = ensureDataset(Math.max(n, 100), 7, cacheRoot, Math.max(n, 100));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-b3-'));
  fs.copyFileSync(path.join(src.dataDir, 'conversation_history.jsonl'), path.join(dir, 'conversation_history.jsonl'));
  return dir;
}

function input(i: number): NewHistoryRecord {
  return {
    asr_text: `基准测试记录 ${i} 今天在公园里遇到了平平`,
    enhanced_text: `基准测试记录 ${i} 今天在公园里遇到了萍萍。`,
    final_text: `基准测试记录 ${i} 今天在公园里遇到了萍萍。`,
    enhance_mode: 'proofread',
    preview_enabled: true,
    stt_model: 'whisper-base',
    llm_model: 'qwen2.5:7b',
    user_corrected: true,
    audio_duration: 3.2,
    language: 'zh',
    source: 'voice',
  };
}

/** p99 of `count` log() calls against a folder with `n` records (index ready first). */
async function measure(n: number, count: number, cacheRoot: string): Promise<{ p50: number; p99: number; max: number }> {
  const dataDir = folderWith(n, cacheRoot);
  const svc = await HistoryService.open({ dataDir, enabled: true, rebuildInline: true });
  try {
    for (let i = 0; i < 10; i++) await svc.log(input(-i));
    const t: number[] = [];
    for (let i = 0; i < count; i++) {
      const s = performance.now();
      await svc.log(input(i));
      t.push(performance.now() - s);
    }
    return { p50: pct(t, 50), p99: pct(t, 99), max: Math.max(...t) };
  } finally {
    await svc.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** B3: log() p99 at 20,000 active records (each log past 20,000 rotates) vs 100 records. */
export async function runB3(cacheRoot: string, count: number): Promise<BenchEntry> {
  const small = await measure(100, count, cacheRoot);
  const big = await measure(20_000, count, cacheRoot);
  const ratio = big.p99 / small.p99;
  return {
    ratio,
    target: 'p99 log() at 20,000 active records (rotating) / p99 at 100 records <= 2',
    pass: ratio <= 2,
    figures: {
      logs_per_case: count,
      p50_ms_100: small.p50,
      p99_ms_100: small.p99,
      p50_ms_20000: big.p50,
      p99_ms_20000: big.p99,
      max_ms_20000: big.max,
    },
  };
}
