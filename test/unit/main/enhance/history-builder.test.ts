import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { formatHistoryLine, HistoryBuilder, HISTORY_LRU_SIZE } from '../../../../src/main/enhance/history-builder.ts';
import { buildSystemPrompt } from '../../../../src/main/enhance/prompt.ts';
import type { NewHistoryRecord } from '../../../../src/shared/history/record.ts';

let dir: string;
let store: HistoryStore;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  store = await HistoryStore.open({ dataDir: dir, warn: () => {} });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function rec(mode: string, asr: string, final = asr, preview = true): NewHistoryRecord {
  return {
    asr_text: asr, enhanced_text: final, final_text: final, enhance_mode: mode, preview_enabled: preview, stt_model: 's', llm_model: 'l',
    user_corrected: asr !== final, audio_duration: 1, language: 'zh', source: 'voice',
  };
}

const limits = { maxEntries: 3, refreshThreshold: 6, maxHistoryChars: 6000 };

describe('history lines', () => {
  it('shows unchanged records once and changed ones as the shorter of arrow and inline diff', () => {
    expect(formatHistoryLine('现在测试一下。', '现在测试一下。')).toBe('- 现在测试一下。');
    expect(formatHistoryLine('果果今天在公园里遇到了平平。', '果果今天在公园里遇到了萍萍。')).toBe('- 果果今天在公园里遇到了[平平→萍萍]。');
    expect(formatHistoryLine('abc', 'xyz')).toBe('- abc → xyz');
    expect(formatHistoryLine('第一行\n第二行', '第一行\n第二行')).toBe('- 第一行⏎第二行');
  });
});

describe('incremental per-mode builder', () => {
  it('first build takes the last max_entries, appends while under the threshold, rebuilds at it', async () => {
    for (let i = 0; i < 5; i++) await store.log(rec('proofread', `句子${i}`));
    const b = new HistoryBuilder(store);
    const first = await b.build('proofread', limits);
    expect(first.kind).toBe('first');
    expect(first.lines).toEqual(['- 句子2', '- 句子3', '- 句子4']);
    await store.log(rec('proofread', '句子5'));
    const appended = await b.build('proofread', limits);
    expect(appended.kind).toBe('append');
    expect(appended.lines).toEqual(['- 句子2', '- 句子3', '- 句子4', '- 句子5']);
    await store.log(rec('proofread', '句子6'));
    expect((await b.build('proofread', limits)).kind).toBe('append'); // 5 lines < 6
    await store.log(rec('proofread', '句子7'));
    const rebuilt = await b.build('proofread', limits); // would reach 6 → rebuild from the last 3
    expect(rebuilt.kind).toBe('rebuild-threshold');
    expect(rebuilt.lines).toEqual(['- 句子5', '- 句子6', '- 句子7']);
  });

  it('reads nothing when nothing was logged, and ignores other modes and unconfirmed records', async () => {
    await store.log(rec('proofread', '甲'));
    const b = new HistoryBuilder(store);
    await b.build('proofread', limits);
    expect(b.reads).toBe(1);
    expect((await b.build('proofread', limits)).kind).toBe('cached');
    expect(b.reads).toBe(1);
    await store.log(rec('translate_en', '乙'));
    await store.log(rec('proofread', '丙', '丙', false)); // direct mode: never injected
    const again = await b.build('proofread', limits);
    expect(again.kind).toBe('unchanged');
    expect(again.lines).toEqual(['- 甲']);
  });

  it('rebuilds when the character cap would be reached', async () => {
    const b = new HistoryBuilder(store);
    await store.log(rec('proofread', '短句。'));
    await b.build('proofread', { maxEntries: 10, refreshThreshold: 50, maxHistoryChars: 100 });
    await store.log(rec('proofread', '很长的一句话'.repeat(20)));
    const r = await b.build('proofread', { maxEntries: 10, refreshThreshold: 50, maxHistoryChars: 100 });
    expect(r.kind).toBe('rebuild-threshold');
    expect(r.chars).toBeLessThan(200);
  });

  it('rebuilds when the anchor record is deleted or edited', async () => {
    for (let i = 0; i < 3; i++) await store.log(rec('proofread', `句子${i}`));
    const b = new HistoryBuilder(store);
    await b.build('proofread', limits);
    const last = (await store.getRecent({ mode: 'proofread', n: 1 }))[0];
    expect(last).toBeDefined();
    await store.update(last?.id ?? '', { final_text: '句子二改过' });
    const edited = await b.build('proofread', limits);
    expect(edited.kind).toBe('rebuild-anchor');
    expect(edited.lines.at(-1)).toBe('- 句子[2→二改过]');
    await store.delete(last?.id ?? '');
    const deleted = await b.build('proofread', limits);
    expect(deleted.kind).toBe('rebuild-anchor');
    expect(deleted.lines).toEqual(['- 句子0', '- 句子1']);
  });

  it('keeps modes apart (chains read each step) and evicts beyond 16 modes', async () => {
    await store.log(rec('proofread', '校对'));
    await store.log(rec('translate_en', '翻译', 'translate'));
    const b = new HistoryBuilder(store);
    expect((await b.build('proofread', limits)).lines).toEqual(['- 校对']);
    expect((await b.build('translate_en', limits)).lines).toEqual(['- 翻译 → translate']);
    for (let i = 0; i < HISTORY_LRU_SIZE; i++) await b.build(`m${i}`, limits);
    expect(b.cachedModes()).toHaveLength(HISTORY_LRU_SIZE);
    expect(b.cachedModes()).not.toContain('proofread');
  });

  it('gives byte-identical prompts up to the first line appended since the last rebuild', async () => {
    for (let i = 0; i < 3; i++) await store.log(rec('proofread', `前缀测试${i}`));
    const b = new HistoryBuilder(store);
    const prompt = async (vocab: string): Promise<string> =>
      buildSystemPrompt({
        modePrompt: '校对。', lang: 'zh', thinking: false, historyEnabled: true, vocabularyEnabled: true,
        historyLines: (await b.build('proofread', limits)).lines, vocabulary: [{ wrong: vocab, right: '萍萍' }], retrieved: [], contextNote: '', inputContext: '',
      });
    const p1 = await prompt('平平');
    await store.log(rec('proofread', '新的一句'));
    const p2 = await prompt('瓶瓶');
    const stable = p1.slice(0, p1.indexOf('\n\n词库'));
    expect(p2.startsWith(stable)).toBe(true);
    expect(p2.slice(stable.length).startsWith('\n- 新的一句')).toBe(true);
  });
});
