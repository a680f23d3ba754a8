import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeLlmLauncher } from '../../../../src/main/enhance/local-llm/llm-launcher.ts';
import type { LoadParams, PromptPiece } from '../../../../src/main/enhance/local-llm/llm-protocol.ts';
import { LocalLlm, LocalLlmError } from '../../../../src/main/enhance/local-llm/local-llm.ts';
import { chatPieces } from '../../../../src/main/enhance/local-llm/local-provider.ts';
import { tokenCounterFor } from '../../../../src/main/enhance/token-count.ts';
import { ensureRandomQwenGguf } from '../../../helpers/gguf-writer.ts';

/**
 * The built-in engine on real llama.cpp (node-llama-cpp's prebuilt CPU binary) with a random-weight GGUF
 * that has the real Qwen2.5 tokenizer (test/helpers/gguf-writer.ts): token counts, per-mode KV-cache reuse
 * across a mode switch, the LRU bound, cancellation, a crash survived, and the idle unload. The answers
 * are gibberish: only tokens, caches and the process are asserted.
 */

let model: string;
const env = { ...process.env, TINGXIE_LLM_GPU: 'off' };
const params = (over: Partial<LoadParams> = {}): LoadParams => ({ modelPath: model, contextSize: 1024, threads: 1, maxSequences: 2, memoryBudgetBytes: 2 ** 31, ...over });
const clients: LocalLlm[] = [];
function client(idleUnloadMs = 0): LocalLlm {
  const c = new LocalLlm({ launcher: nodeLlmLauncher({ env }), idleUnloadMs: () => idleUnloadMs });
  clients.push(c);
  return c;
}

function request(modePrompt: string, history: string[], input: string): { prefix: PromptPiece[]; all: PromptPiece[]; stable: string } {
  const stable = `${modePrompt}\n\n---\n对话记录：\n${history.join('\n')}`;
  const system = `${stable}\n\n当前输入环境：\n- 微信\n---`;
  return { ...chatPieces([{ role: 'system', content: system }, { role: 'user', content: input }], stable, { thinking: false, model: 'qwen2.5-0.5b.gguf' }), stable };
}

const HISTORY = Array.from({ length: 12 }, (_, i) => `- 第${i}条：我们明天下午三点在会议室讨论听写的发布计划。`);
const gen = { maxTokens: 4, temperature: 0, ignoreEos: true };

beforeAll(() => {
  model = ensureRandomQwenGguf();
}, 120_000);
afterAll(async () => {
  for (const c of clients) await c.shutdown();
});

describe('local LLM engine (real llama.cpp, random weights, real Qwen2.5 tokenizer)', { timeout: 180_000 }, () => {
  it("counts the prompt's tokens as the Qwen2.5 tokenizer does, with ChatML's markers as single tokens", async () => {
    const llm = client();
    const r = request('你是校对助手，只改错字。', HISTORY, '今天天气很好，我们去公园吧');
    const out = await llm.chat(params(), { key: 'proofread', pieces: r.all, gen });
    const qwen = tokenCounterFor('qwen2.5:7b');
    expect(qwen.method).toBe('bpe');
    const markers = r.all.filter((p) => p.special === true).length;
    const text = r.all.filter((p) => p.special !== true).reduce((n, p) => n + qwen.count(p.text), 0);
    expect(out.promptTokens).toBe(markers + text);
    expect(out.completionTokens).toBe(4);
    expect(out.cachedTokens).toBe(0);
    // Dictated text that spells a marker stays text (several tokens), never the marker token itself.
    const asText = await llm.chat(params(), { key: 'proofread', pieces: chatPieces([{ role: 'user', content: '<|im_end|>' }], '', { thinking: false, model: 'm' }).all, gen });
    const plain = await llm.chat(params(), { key: 'proofread', pieces: chatPieces([{ role: 'user', content: '' }], '', { thinking: false, model: 'm' }).all, gen });
    expect(asText.promptTokens - plain.promptTokens).toBeGreaterThanOrEqual(4);
  });

  it('keeps one warm sequence per mode: a switch and back reuses each mode’s prefix; one sequence loses it', async () => {
    const llm = client();
    const a = request('你是校对助手，只改错字。', HISTORY, '第一句话');
    const b = request('Translate the text into English.', HISTORY, '第二句话');
    const warmA = await llm.warm(params(), 'proofread', a.prefix);
    expect(warmA.reused).toBe(0);
    const a1 = await llm.chat(params(), { key: 'proofread', pieces: a.all, gen });
    expect(a1.cachedTokens).toBe(warmA.tokens); // everything warmed at key-down was reused at key-up
    const b1 = await llm.chat(params(), { key: 'translate', pieces: b.all, gen });
    expect(b1.cachedTokens).toBe(0);
    const a2 = await llm.chat(params(), { key: 'proofread', pieces: request('你是校对助手，只改错字。', HISTORY, '第三句话').all, gen });
    expect(a2.cachedTokens).toBeGreaterThanOrEqual(warmA.tokens); // the switch to translate did not evict proofread
    expect(a2.cachedTokens / a2.promptTokens).toBeGreaterThan(0.85);
    expect(llm.status()).toMatchObject({ state: 'ready', sequences: 2 });
    expect(llm.status().memory?.contextBytes).toBeGreaterThan(0);

    const one = client();
    await one.chat(params({ maxSequences: 1 }), { key: 'proofread', pieces: a.all, gen });
    await one.chat(params({ maxSequences: 1 }), { key: 'translate', pieces: b.all, gen });
    const back = await one.chat(params({ maxSequences: 1 }), { key: 'proofread', pieces: a.all, gen });
    expect(back.cachedTokens).toBeLessThan(10); // the only sequence went to translate: proofread starts over
  });

  it('cancels a running answer, survives a crash mid-answer and restarts on the next request', async () => {
    const llm = client();
    const r = request('你是校对助手。', HISTORY, '一句话');
    const ac = new AbortController();
    const cancelled = llm.chat(params(), { key: 'p', pieces: r.all, gen: { maxTokens: 400, temperature: 0, ignoreEos: true }, signal: ac.signal, onDelta: () => ac.abort() });
    expect((await cancelled).finish).toBe('cancelled');

    let firstDelta: () => void = () => {};
    const streaming = new Promise<void>((res) => (firstDelta = res));
    const dying = llm.chat(params(), { key: 'p', pieces: r.all, gen: { maxTokens: 100_000, temperature: 0, ignoreEos: true }, onDelta: () => firstDelta() });
    await streaming;
    const pid = llm.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid as number, 'SIGKILL');
    await expect(dying).rejects.toSatisfy((e) => e instanceof LocalLlmError && e.code === 'engine-crashed');
    expect(llm.status()).toMatchObject({ state: 'stopped', crashes: 1 });
    const after = await llm.chat(params(), { key: 'p', pieces: r.all, gen });
    expect(after.completionTokens).toBe(4);
    expect(llm.pid).not.toBe(pid);
  });

  it('unloads after the idle time and loads again on the next request', async () => {
    const llm = client(300);
    const r = request('你是校对助手。', ['- 一'], '二');
    await llm.chat(params(), { key: 'p', pieces: r.all, gen });
    const pid = llm.pid;
    expect(llm.status().state).toBe('ready');
    await expect.poll(() => llm.status().state, { timeout: 5000 }).toBe('stopped');
    await llm.chat(params(), { key: 'p', pieces: r.all, gen });
    expect(llm.pid).not.toBe(pid);
  });
});
