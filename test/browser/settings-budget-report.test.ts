import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { startOllamaShowServer, type OllamaShowServer } from '../helpers/ollama-show-server.ts';

/**
 * Settings › AI's token budget report in real Chromium over the real IPC stack: the default
 * provider is a local server answering like Ollama, whose /api/show says num_ctx 2048 for qwen2.5:7b. The
 * report shows each part of the prompt counted by Qwen's own tokenizer, the 2048 window and where it came
 * from, the remaining budget and that nothing was dropped; a GLM model is marked as an estimate.
 */

const harness = useBrowserHarness();
let ollama: OllamaShowServer;

beforeEach(async () => {
  ollama = await startOllamaShowServer({ 'qwen2.5:7b': { arch: 'qwen2', contextLength: 32768, numCtx: 2048 }, 'glm4:9b': { arch: 'chatglm', contextLength: 131072 } });
});
afterEach(async () => {
  await ollama.close();
});

function config(model: string, language: 'en' | 'zh'): string {
  return JSON.stringify({
    version: 2,
    ui: { language },
    ai_enhance: { enabled: true, providers: { ollama: { kind: 'ollama', base_url: ollama.baseURL, models: [model] } }, default_provider: 'ollama', default_model: model },
  });
}

async function rows(model: string, language: 'en' | 'zh'): Promise<{ method: string | null; rows: Record<string, string>; caption: string }> {
  const w = await harness.open('settings', { configText: config(model, language), viewport: { width: 900, height: 900 } });
  await w.page.getByRole('tab', { name: 'AI' }).click();
  // The report sits under History injection's "Advanced" disclosure.
  await w.page.getByTestId('ai-history-advanced').locator('summary').click();
  const table = w.page.getByTestId('budget-report');
  await table.waitFor({ timeout: 15_000 });
  const cells = await table.locator('tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? '']));
  expect(w.problems).toEqual([]);
  return { method: await table.getAttribute('data-method'), rows: Object.fromEntries(cells), caption: (await table.locator('caption').textContent()) ?? '' };
}

describe('Settings › AI: token budget report', () => {
  it('shows exact Qwen counts, the window Ollama serves (num_ctx 2048), what remains and what was dropped', async () => {
    const r = await rows('qwen2.5:7b', 'en');
    expect(r.method).toBe('exact');
    expect(r.caption).toBe('Token budget of a dictation (qwen2.5:7b)');
    expect(r.rows.Counted).toBe('exact (qwen2 tokenizer)');
    expect(r.rows['Context window']).toBe('2,048 (Ollama num_ctx)');
    expect(Number(r.rows['System prompt']?.replace(/,/g, ''))).toBeGreaterThan(50);
    expect(r.rows.History).toBe('0 (0 lines)');
    expect(Number(r.rows.Remaining?.replace(/,/g, ''))).toBeGreaterThan(0);
    expect(Number(r.rows.Remaining?.replace(/,/g, ''))).toBeLessThan(2048);
    expect(r.rows.Dropped).toBe('nothing');
    expect(ollama.hits.get('/api/show')).toBeGreaterThanOrEqual(1);
  });

  it('marks a model without a known tokenizer as an estimate (zh)', async () => {
    const r = await rows('glm4:9b', 'zh');
    expect(r.method).toBe('estimate');
    expect(r.rows['计数']).toBe('估算（此模型没有已知的分词器）');
    expect(r.rows['上下文窗口']).toBe('4,096（Ollama 默认值）');
  });
});
