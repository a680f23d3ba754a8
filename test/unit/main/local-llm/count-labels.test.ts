import { describe, expect, it } from 'vitest';
import { parseModeText } from '../../../../src/main/enhance/modes.ts';
import { budgetReport, buildStepRequest } from '../../../../src/main/enhance/request-builder.ts';
import { budgetText } from '../../../../src/cli/commands/enhance.ts';
import { testSettings } from '../enhance/enhance-fixture.ts';

/**
 * The dry run and the budget report say which token counts are exact and which are bounds, and max_tokens
 * comes from the exact count where the model's tokenizer exists (a byte bound shrank it by a slack that grew
 * with the history: 257 to 3,077 in the field).
 */

const mode = parseModeText('proofread', '---\nlabel: 校对\n---\n你是校对助手，只改错字。');
const src = { builder: null, vocabulary: null, retriever: null, warn: () => {} };
const note = Array.from({ length: 40 }, (_, i) => `第${i}条备注：萍萍负责听写的发布计划。`).join('\n');

describe('token count labels and max_tokens', () => {
  it('a Qwen model: the request count is exact, equals the report, and max_tokens is the window minus it', async () => {
    const s = testSettings({ model: 'qwen2.5:7b', contextNote: note, maxOutputTokens: 100_000, contextWindow: 4096 });
    const built = await buildStepRequest(mode, '今天天气很好', s, src, undefined);
    const report = budgetReport(s.model, built);
    expect(built.tokenMethod).toBe('bpe');
    expect(report.requestCount).toEqual({ tokens: report.promptTokens, method: 'exact' });
    expect(built.promptTokens).toBe(report.promptTokens);
    expect(built.body.max_tokens).toBe(4096 - report.promptTokens);
    expect(budgetText(report)).toMatch(/prompt +\d+ \(exact\)/);
    expect(budgetText(report)).toContain(`from the exact prompt count ${report.promptTokens}`);
  });

  it('a model without a known tokenizer: the request count is labelled a byte bound, the parts an estimate', async () => {
    const s = testSettings({ model: 'glm-4.7', contextNote: note, maxOutputTokens: 100_000, contextWindow: 100_000 });
    const built = await buildStepRequest(mode, '今天天气很好', s, src, undefined);
    const report = budgetReport(s.model, built);
    expect(report.method).toBe('estimate');
    expect(report.requestCount.method).toBe('bound');
    expect(report.requestCount.tokens).toBeGreaterThanOrEqual(report.promptTokens);
    expect(budgetText(report)).toContain('byte upper bound');
  });
});
