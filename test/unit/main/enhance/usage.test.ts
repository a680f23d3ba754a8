import { describe, expect, it } from 'vitest';
import { readUsage, usageFromChunk } from '../../../../src/main/enhance/usage.ts';

describe('usage read-back in every documented shape', () => {
  it('OpenAI: chunk.usage with prompt_tokens_details.cached_tokens', () => {
    expect(usageFromChunk({ choices: [], usage: { prompt_tokens: 1200, completion_tokens: 12, prompt_tokens_details: { cached_tokens: 1024 } } })).toEqual({ prompt_tokens: 1200, completion_tokens: 12, cached_tokens: 1024 });
  });

  it('DeepSeek: prompt_cache_hit_tokens', () => {
    expect(readUsage({ prompt_tokens: 900, completion_tokens: 5, prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 260 })?.cached_tokens).toBe(640);
  });

  it('Moonshot: usage inside choices[0], cached_tokens at the top of usage', () => {
    const chunk = { choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 300, completion_tokens: 9, total_tokens: 309, cached_tokens: 256 } }] };
    expect(usageFromChunk(chunk)).toEqual({ prompt_tokens: 300, completion_tokens: 9, cached_tokens: 256 });
  });

  it('Groq without stream_options: x_groq.usage', () => {
    expect(usageFromChunk({ choices: [], x_groq: { usage: { prompt_tokens: 40, completion_tokens: 4 } } })?.prompt_tokens).toBe(40);
  });

  it('a placeholder 0 in one field does not hide the count in another; no usage is null', () => {
    expect(readUsage({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 0 }, prompt_cache_hit_tokens: 8 })?.cached_tokens).toBe(8);
    expect(usageFromChunk({ choices: [{ delta: { content: 'a' } }], usage: null })).toBeNull();
    expect(readUsage({ total_tokens: 3 })).toBeNull();
  });
});
