import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { NewHistoryRecord } from '../../src/shared/history/record.ts';

/** A fresh temp data folder; remove it with `rmTempDir`. */
export function makeTempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
}

/** Removes a temp folder made by `makeTempDir`. */
export function rmTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Call at a test file's top level: returns a maker of temp data folders, each removed after the test that made it. */
export function useTempDirs(): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    dirs.splice(0).forEach(rmTempDir);
  });
  return () => {
    const d = makeTempDir();
    dirs.push(d);
    return d;
  };
}

/** Store options that silence the store's warnings (tests assert on outcomes, not on log lines). */
export const quiet = { warn: (): void => undefined };

/** A complete new record with small defaults; override what the test cares about. */
export function newRecord(overrides: Partial<NewHistoryRecord> = {}): NewHistoryRecord {
  return {
    asr_text: '果果今天在公园里遇到了平平。',
    enhanced_text: '果果今天在公园里遇到了平平。',
    final_text: '果果今天在公园里遇到了萍萍。',
    enhance_mode: 'proofread',
    preview_enabled: true,
    stt_model: 'funasr-paraformer',
    llm_model: 'qwen2.5:7b',
    user_corrected: true,
    audio_duration: 3.2,
    language: 'zh',
    source: 'voice',
    ...overrides,
  };
}

/** A WenZi-style line (no id, none of Tingxie's extra fields). */
export function wenziLine(timestamp: string, text = '你好', extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    timestamp,
    asr_text: text,
    enhanced_text: text,
    final_text: text,
    enhance_mode: 'proofread',
    preview_enabled: true,
    stt_model: 'funasr',
    llm_model: 'qwen',
    user_corrected: false,
    audio_duration: 1.5,
    ...extra,
  });
}

/** Non-blank lines of a file (empty when missing). */
export function fileLines(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
}

/** `count` sequential timestamps one minute apart starting at `startIso`. */
export function minuteTimestamps(startIso: string, count: number): string[] {
  const t0 = Date.parse(startIso);
  return Array.from({ length: count }, (_, i) => new Date(t0 + i * 60_000).toISOString());
}

/** Polls `cond` every 20 ms; true once it holds, false when `ms` ran out first. */
export async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
