import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CorrectionRetriever } from '../../../../src/main/enhance/correction-retrieval.ts';
import { Enhancer } from '../../../../src/main/enhance/enhancer.ts';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import type { StoredRecord } from '../../../../src/shared/history/record.ts';
import { confirmed, testSettings } from './enhance-fixture.ts';

/**
 * Retrieval of older corrections against the real history service: JSONL files (active and archives)
 * plus the SQLite index in a temp folder, changed through the service's own edit/delete/rotate/clear.
 */

const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function stored(i: number, ts: string, over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    id: `OLD${String(i).padStart(7, '0')}`, timestamp: ts, asr_text: `普通的第${i}句`, enhanced_text: null, final_text: `普通的第${i}句`, enhance_mode: 'proofread',
    preview_enabled: true, stt_model: 'whisper', llm_model: 'm', user_corrected: false, audio_duration: 1, language: 'zh', source: 'voice', outcome: 'confirmed', ...over,
  };
}

function writeArchive(dir: string, month: string, records: readonly StoredRecord[]): void {
  const p = historyPaths(dir).archive(month);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

async function open(dir: string, maxRecords = 5): Promise<{ svc: HistoryService; enhancer: Enhancer }> {
  const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, maxRecords, rotateMinBytes: 0, warn: () => {} });
  const enhancer = await Enhancer.open(
    { dataDir: dir, history: svc.store, corrections: svc, vocabulary: null, provider: (id) => ({ id, baseURL: 'http://127.0.0.1:9/v1', apiKey: undefined }) },
    testSettings({ history: { enabled: true, maxEntries: 2, refreshThreshold: 10, maxHistoryChars: 6000 } }),
  );
  closers.push(async () => {
    enhancer.close();
    await svc.close();
  });
  return { svc, enhancer };
}

const systemFor = async (e: Enhancer, text: string): Promise<string> => (await e.buildRequest(text))?.request.messages[0]?.content ?? '';

describe('retrieval of older corrections from the full history', () => {
  it('finds an archived correction, follows edits, deletes, rotations, clears and index swaps without re-reading', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    dirs.push(dir);
    writeArchive(dir, '2024-03', [
      stored(1, '2024-03-05T10:00:00Z', { asr_text: '我们去找王小明吧', final_text: '我们去找汪晓明吧', user_corrected: true }),
      // Not preview-confirmed, and a cancelled session: never retrieved. A name fixed in another mode is
      // (proper nouns are shared across modes by default, `share_proper_nouns`).
      stored(2, '2024-03-06T10:00:00Z', { asr_text: '张伟明天到', final_text: '章维明天到', user_corrected: true, preview_enabled: false }),
      stored(3, '2024-03-07T10:00:00Z', { asr_text: '李雷在开会', final_text: '黎蕾在开会', user_corrected: true, enhance_mode: 'translate_en' }),
      stored(4, '2024-03-08T10:00:00Z', { asr_text: '赵敏来电话', final_text: '赵旻来电话', user_corrected: true, outcome: 'cancelled' }),
    ]);
    const { svc, enhancer } = await open(dir);
    // A correction in the active file, later rotated into an archive, and recent plain dictations.
    const active = await svc.log(confirmed('proofread', '请把报告发给孙丽丽', '请把报告发给孙莉莉'));
    for (let i = 0; i < 3; i++) await svc.log(confirmed('proofread', `最近的第${i}句`));
    await enhancer.correctionsLoaded();
    expect(enhancer.retrievalStats).toMatchObject({ state: 'ready', passes: 1, records: 3 }); // proofread ×2, translate_en ×1

    const sys = await systemFor(enhancer, '王小明说张伟明天和李雷见赵敏');
    expect(sys).toContain('相关的更早纠错：\n- 我们去找[王小→汪晓]明吧');
    expect(sys).toContain('- [李雷→黎蕾]在开会');
    expect(sys).not.toMatch(/章维|赵旻/);
    // Dynamic tail: after the history lines, and the text before it is what a request without retrieval sends.
    const plain = await systemFor(enhancer, '一句没有旧错误的话');
    const cut = sys.indexOf('相关的更早纠错');
    expect(cut).toBeGreaterThan(sys.indexOf('最近的第2句'));
    expect(plain.startsWith(sys.slice(0, cut - 1).trimEnd())).toBe(true);

    // Edit the archived record: the line follows the new text (no pass, one event).
    const oldKey = 'OLD0000001';
    await svc.update(oldKey, { final_text: '我们去找汪小明吧' });
    expect(await systemFor(enhancer, '王小明来了')).toContain('- 我们去找[王→汪]小明吧');
    // Two records share a pair; deleting the newer one shows the older one again (fetched from the index by key).
    await svc.log({ ...confirmed('proofread', '王小明今天请假', '汪小明今天请假'), timestamp: '2025-01-01T00:00:00Z' });
    expect(await systemFor(enhancer, '王小明来了')).toContain('- [王→汪]小明今天请假');
    const newer = (await svc.query({ text: '今天请假', includeArchived: true, pageSize: 5 })).rows[0]?.key ?? '';
    await svc.delete(newer);
    expect(await systemFor(enhancer, '王小明来了')).toContain('- 我们去找[王→汪]小明吧');
    await svc.delete(oldKey);
    expect(await systemFor(enhancer, '王小明来了')).not.toContain('相关的更早纠错');

    // Rotation moves the active correction into an archive; it stays retrievable.
    for (let i = 0; i < 6; i++) await svc.log(confirmed('proofread', `新的第${i}句`));
    await svc.settled();
    expect(svc.fileOfKey(active.record.id)).not.toBe('active');
    expect(await systemFor(enhancer, '孙丽丽到了吗')).toContain('- 请把报告发给孙[丽丽→莉莉]');
    expect(enhancer.retrievalStats?.passes).toBe(1);

    // An index swap (rebuild) runs one new pass; the table ends up the same.
    await svc.rebuildIndex();
    expect(await systemFor(enhancer, '孙丽丽到了吗')).toContain('孙[丽丽→莉莉]');
    expect(enhancer.retrievalStats?.passes).toBe(2);

    await svc.store.clear();
    expect(await systemFor(enhancer, '孙丽丽到了吗')).not.toContain('相关的更早纠错');
    expect(enhancer.retrievalStats?.records).toBe(0);
  });

  it('50,000 generated records: the pass is bounded and retrieval stays fast', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    dirs.push(dir);
    const surnames = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗';
    const given = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂';
    const name = (i: number): string => `${surnames[i % 20]}${given[Math.floor(i / 20) % 20]}${given[Math.floor(i / 400) % 20]}`;
    const byMonth = new Map<string, StoredRecord[]>();
    const activeLines: string[] = [];
    const start = Date.UTC(2023, 0, 1);
    for (let i = 0; i < 50_000; i++) {
      const ts = new Date(start + i * 600_000).toISOString();
      const corrected = i % 2 === 0;
      const wrong = name(i);
      const right = name((i * 37 + 4421) % 8000); // a different name: thousands of distinct pairs
      const r = stored(i, ts, corrected ? { asr_text: `明天和${wrong}开会讨论预算`, final_text: `明天和${right}开会讨论预算`, user_corrected: true } : {});
      if (i >= 45_000) activeLines.push(JSON.stringify(r));
      else byMonth.set(ts.slice(0, 7), [...(byMonth.get(ts.slice(0, 7)) ?? []), r]);
    }
    for (const [month, recs] of byMonth) writeArchive(dir, month, recs);
    fs.writeFileSync(historyPaths(dir).active, activeLines.join('\n') + '\n');

    const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, warn: () => {} });
    closers.push(() => svc.close());
    expect(svc.indexOrNull?.count()).toBe(50_000);

    // Capped table: the pass keeps the newest 5,000 corrections and reads no more rows than that.
    const capped = new CorrectionRetriever(svc, { limits: { maxRecords: 5_000, maxPairs: 20_000 } });
    await capped.whenLoaded();
    expect(capped.stats()).toMatchObject({ state: 'ready', records: 5_000, lastPassRows: 5_000 });
    const hit = capped.retrieve(`明天和${name(49_998)}开会`, 'proofread', new Set());
    expect(hit.length).toBeGreaterThanOrEqual(1);
    expect(hit.length).toBeLessThanOrEqual(3);
    for (const l of hit) expect(l).toMatch(/^- 明天和.*\[.*→.*\].*开会讨论预算$/);
    capped.close();

    // Full table: every one of the 25,000 corrections, archives included.
    const full = new CorrectionRetriever(svc);
    await full.whenLoaded();
    const stats = full.stats();
    expect(stats.records).toBe(25_000);
    expect(stats.lastPassRows).toBe(25_000);
    expect(stats.lastPassMs).toBeLessThan(15_000);
    const oldest = full.retrieve(`请问${name(0)}在吗`, 'proofread', new Set());
    expect(oldest.length).toBeGreaterThan(0);
    expect(oldest.join('\n')).toContain('开会讨论预算');

    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const text = `今天下午${name((i * 7919) % 8000)}和${name((i * 104729) % 8000)}一起去公园散步,顺便讨论一下明天的会议安排和预算问题`;
      const t = performance.now();
      full.retrieve(text, 'proofread', new Set());
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const p95 = times[Math.floor(times.length * 0.95)] ?? Infinity;
    console.log(`retrieval over 50k records: pass ${stats.lastPassMs.toFixed(0)} ms for ${stats.lastPassRows} rows, ${stats.pairs} pairs; retrieve p50 ${(times[1000] ?? 0).toFixed(4)} ms, p95 ${p95.toFixed(4)} ms`);
    expect(p95).toBeLessThan(0.25);
    full.close();

    // The whole prompt build through the enhancer with this table wired in (B8 measures it without).
    const enhancer = await Enhancer.open(
      { dataDir: dir, history: svc.store, corrections: svc, vocabulary: null, provider: (id) => ({ id, baseURL: 'http://127.0.0.1:9/v1', apiKey: undefined }) },
      testSettings({ model: 'qwen2.5:7b' }),
    );
    await enhancer.correctionsLoaded();
    const builds: number[] = [];
    let withRetrieval = 0;
    for (let i = 0; i < 400; i++) {
      const text = `今天下午${name((i * 7919) % 8000)}和${name((i * 104729) % 8000)}一起开会讨论预算`;
      const t = performance.now();
      const b = await enhancer.buildRequest(text);
      if (i >= 50) builds.push(performance.now() - t);
      if ((b?.request.retrieved ?? 0) > 0) withRetrieval++;
    }
    expect(withRetrieval).toBeGreaterThan(100);
    builds.sort((a, b) => a - b);
    const buildP95 = builds[Math.floor(builds.length * 0.95)] ?? Infinity;
    console.log(`buildRequest with retrieval over 50k records (${withRetrieval}/400 with retrieved lines): p50 ${(builds[175] ?? 0).toFixed(3)} ms, p95 ${buildP95.toFixed(3)} ms`);
    expect(buildP95).toBeLessThan(2); // the 1 ms target is B8's; a loaded test machine gets some slack
    enhancer.close();
  }, 60_000);
});
