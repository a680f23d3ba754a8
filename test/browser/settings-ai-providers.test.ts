import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../helpers/openai-test-server.ts';

/**
 * Settings › AI's provider picker in real Chromium over the real IPC stack, with two providers whose servers are
 * local strict emulations of DeepSeek and Groq (test/helpers/strict-providers.ts): every provider is listed and
 * edited apart from the others, a provider is added from a preset, and Verify — a real dictation's request sent
 * by main — is red with what to change, then green once it is changed.
 */

const harness = useBrowserHarness();
let deepseek: OpenAiTestServer;
let groq: OpenAiTestServer;

beforeEach(async () => {
  deepseek = await startOpenAiTestServer({ strict: 'deepseek', models: ['deepseek-v4-flash', 'deepseek-v4-pro'] });
  groq = await startOpenAiTestServer({ strict: 'groq', models: ['llama-3.3-70b-versatile', 'qwen/qwen3-32b'] });
});
afterEach(async () => {
  await deepseek.close();
  await groq.close();
});

/** Two providers: DeepSeek with a retired model name; Groq set up as "other" with the old generic thinking field. */
function twoProviders(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version: 2,
    ai_enhance: {
      enabled: true,
      providers: {
        deepseek: { kind: 'deepseek', base_url: deepseek.baseURL, models: ['deepseek-chat'] },
        groq: { kind: 'other', base_url: groq.baseURL, models: ['qwen/qwen3-32b'], extra_body: { chat_template_kwargs: { enable_thinking: false } } },
      },
      default_provider: 'deepseek',
      default_model: 'deepseek-chat',
    },
    ...over,
  });
}

async function openAi(configText: string): Promise<HarnessWindow> {
  const w = await harness.open('settings', { configText, viewport: { width: 900, height: 900 } });
  await w.page.getByRole('switch', { name: /preview|预览/i }).waitFor();
  await w.page.getByRole('tab', { name: 'AI' }).click();
  await w.page.getByTestId('provider-editor').waitFor();
  return w;
}

const providers = (w: HarnessWindow) => w.configStore.get().ai_enhance.providers;

async function verify(w: HarnessWindow): Promise<string> {
  const result = w.page.getByTestId('verify-result');
  await w.page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect.poll(() => result.getAttribute('data-verdict'), { timeout: 15_000 }).not.toMatch(/^(idle|running)$/);
  return (await result.textContent()) ?? '';
}

describe('Settings › AI: providers', () => {
  it('lists every provider, keeps each one’s settings apart, and Verify goes red → green as the advice is followed', async () => {
    const w = await openAi(twoProviders());
    const { page } = w;
    // Both providers are listed; the one dictations use is marked, and its settings are open.
    await expect.poll(() => page.getByRole('radio').count()).toBe(2);
    expect(await page.getByRole('radio', { name: /^deepseek/ }).isChecked()).toBe(true);
    expect(await page.getByTestId('provider-item-deepseek').textContent()).toContain('used for dictation');
    expect(await page.getByTestId('provider-item-groq').textContent()).toBe('groqOther (OpenAI-compatible) · qwen/qwen3-32b');
    expect(await page.getByTestId('provider-uses').textContent()).toBe('Dictations use “deepseek” with the model deepseek-chat.');
    expect(await page.getByLabel('Base URL of “deepseek”').inputValue()).toBe(deepseek.baseURL);
    expect(await page.getByLabel('Provider type').inputValue()).toBe('deepseek');

    // Verify sends a real dictation: the retired name is refused, and the provider's current models are named.
    const red = await verify(w);
    expect(red).toBe(
      'Failed: The provider does not offer the model “deepseek-chat”: “The supported API model names are deepseek-v4-pro or deepseek-v4-flash, but you passed deepseek-chat.”: choose a current one. This provider offers “deepseek-v4-flash”, “deepseek-v4-pro”.',
    );
    // The model is chosen from the provider's own list (its /models), free text still allowed.
    const model = page.getByLabel('Model of “deepseek”');
    await expect.poll(() => page.getByTestId('provider-model-list').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([
      'deepseek-v4-flash', 'deepseek-v4-pro', 'deepseek-chat',
    ]);
    expect(await page.getByText('The provider lists 2 models; any other id is accepted too.').count()).toBe(1);
    // Typed, then Verify at once: the field commits as it loses focus, and Verify waits for that save.
    await model.fill('deepseek-v4-flash');
    const green = await verify(w);
    expect(w.configStore.get().ai_enhance.default_model).toBe('deepseek-v4-flash');
    expect(providers(w).deepseek?.models).toEqual(['deepseek-v4-flash', 'deepseek-chat']);
    expect(green).toMatch(/^Works: a test dictation was cleaned by deepseek-v4-flash in \d+\.\d s: “um so tomorrow at three pm/);
    expect(await page.getByTestId('verify-result').getAttribute('class')).toContain('status-set');
    // What reached the server is the dictation's request: the mode's prompt, thinking off, usage asked for.
    const sent = deepseek.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.json as Record<string, unknown>;
    expect(sent).toMatchObject({ model: 'deepseek-v4-flash', stream: true, stream_options: { include_usage: true }, thinking: { type: 'disabled' } });

    // A draft typed for one provider never lands on another: switch with an uncommitted URL in deepseek's field.
    const dsUrl = page.getByLabel('Base URL of “deepseek”');
    await dsUrl.fill(`${deepseek.baseURL}/`);
    await page.getByRole('radio', { name: /^groq/ }).check();
    const groqUrl = page.getByLabel('Base URL of “groq”');
    expect(await groqUrl.inputValue()).toBe(groq.baseURL);
    await expect.poll(() => providers(w).groq?.base_url).toBe(groq.baseURL);
    // Editing groq's URL writes groq's key only.
    await groqUrl.fill('http://127.0.0.1:9/v1');
    await groqUrl.press('Enter');
    await expect.poll(() => providers(w).groq?.base_url).toBe('http://127.0.0.1:9/v1');
    expect(providers(w).deepseek?.base_url).toMatch(new RegExp(`^${deepseek.baseURL.replace(/[.]/g, '\\.')}/?$`));
    await groqUrl.fill(groq.baseURL);
    await groqUrl.press('Enter');
    await expect.poll(() => providers(w).groq?.base_url).toBe(groq.baseURL);
    await page.getByRole('radio', { name: /^deepseek/ }).check();
    expect(await page.getByLabel('Base URL of “deepseek”').inputValue()).toMatch(new RegExp(`^${deepseek.baseURL.replace(/[.]/g, '\\.')}/?$`));
    await page.getByRole('radio', { name: /^groq/ }).check();

    // Groq as "other" with chat_template_kwargs in extra_body: red, and the sentence says where the field comes from.
    expect(await page.getByLabel('Extra request fields (extra_body, JSON)').inputValue()).toContain('"chat_template_kwargs"');
    const groqRed = await verify(w);
    expect(groqRed).toContain('Failed: The provider refused “chat_template_kwargs”: “property \'chat_template_kwargs\' is unsupported”. It is set in this provider’s extra_body: remove it there.');
    // Follow the advice: the provider's own type, and no extra field.
    await page.getByLabel('Provider type').selectOption('groq');
    await expect.poll(() => providers(w).groq?.kind).toBe('groq');
    const extra = page.getByLabel('Extra request fields (extra_body, JSON)');
    // extra_body sits under the provider's "Advanced" disclosure.
    await page.getByTestId('provider-advanced').locator('summary').click();
    await extra.fill('{ not json');
    await extra.blur();
    await page.getByText('Enter a JSON object, e.g. {"top_p": 0.9}.').waitFor();
    await extra.fill('');
    await extra.blur();
    await expect.poll(() => providers(w).groq?.extra_body).toEqual({});
    expect(await verify(w)).toMatch(/^Works: a test dictation was cleaned by qwen\/qwen3-32b/);
    const groqSent = groq.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.json as Record<string, unknown>;
    expect(groqSent).toMatchObject({ reasoning_effort: 'none' });
    expect(groqSent).not.toHaveProperty('chat_template_kwargs');

    // The key is per provider.
    await page.getByLabel('API key for provider “groq”').fill('gsk-test-groq-0123456789');
    await page.locator('form').filter({ has: page.locator('#api-key') }).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => w.secretStore.get('provider:groq')).toBe('gsk-test-groq-0123456789');
    expect(w.secretStore.has('provider:deepseek')).toBe(false);

    // Groq for dictation: the default provider and its model change together; deepseek can now be deleted, groq cannot.
    await page.getByRole('button', { name: 'Use for dictation' }).click();
    await expect.poll(() => w.configStore.get().ai_enhance.default_provider).toBe('groq');
    await expect.poll(() => w.configStore.get().ai_enhance.default_model).toBe('qwen/qwen3-32b');
    await expect.poll(() => page.getByTestId('provider-uses').textContent()).toBe('Dictations use “groq” with the model qwen/qwen3-32b.');
    expect(await page.getByRole('button', { name: 'Delete provider “groq”' }).isDisabled()).toBe(true);
    expect(w.problems).toEqual([]);
  });

  it('adds a provider from a preset (kind, documented URL, current models), refuses a taken name, deletes one', async () => {
    const w = await openAi(twoProviders());
    const { page } = w;
    await page.getByLabel('Preset').selectOption('ollama');
    // The add form's own Name field (the mode form on the same tab has one too).
    const name = page.getByRole('form', { name: 'Add a provider' }).getByLabel('Name', { exact: true });
    expect(await name.inputValue()).toBe('ollama');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await expect.poll(() => providers(w).ollama).toEqual({ kind: 'ollama', base_url: 'http://localhost:11434/v1', models: ['qwen2.5:7b', 'qwen3:8b', 'gemma3:12b', 'llama3.1:8b'] });
    // The new provider is listed and open; the others are untouched.
    await expect.poll(() => page.getByRole('radio').count()).toBe(3);
    expect(await page.getByRole('radio', { name: /^ollama/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Base URL of “ollama”').inputValue()).toBe('http://localhost:11434/v1');
    expect(await page.getByLabel('Model of “ollama”').inputValue()).toBe('qwen2.5:7b');
    expect(providers(w).deepseek?.base_url).toBe(deepseek.baseURL);
    expect(providers(w).groq?.base_url).toBe(groq.baseURL);
    // The next one of that preset gets a free name; a taken name is refused before anything is saved.
    expect(await name.inputValue()).toBe('ollama-2');
    await name.fill('groq');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByText('A provider named “groq” already exists.').waitFor();
    expect(providers(w).groq?.kind).toBe('other');
    // Deleting: the default provider cannot be; another one can, with its key.
    await w.secretStore.set('provider:ollama', 'sk-ollama-unused-0123');
    await page.getByRole('button', { name: 'Delete provider “ollama”' }).click();
    await expect.poll(() => Object.keys(providers(w)).sort()).toEqual(['deepseek', 'groq']);
    await expect.poll(() => w.secretStore.has('provider:ollama')).toBe(false);
    await expect.poll(() => page.getByRole('radio').count()).toBe(2);
    expect(await page.getByRole('radio', { name: /^deepseek/ }).isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete provider “deepseek”' }).isDisabled()).toBe(true);
    expect(w.problems).toEqual([]);
  });

  it('in Chinese: the list, Verify’s sentence and the prompt-cache report below a provider’s minimum', async () => {
    const openai = await startOpenAiTestServer({ strict: 'openai', models: ['gpt-5-mini'] });
    try {
      const config = JSON.parse(twoProviders({ ui: { language: 'zh' } })) as { ai_enhance: Record<string, unknown> & { providers: Record<string, unknown> } };
      config.ai_enhance.providers.openai = { kind: 'other', base_url: openai.baseURL, models: ['gpt-5-mini'] };
      const w = await harness.open('settings', { configText: JSON.stringify(config), viewport: { width: 900, height: 900 } });
      const { page } = w;
      await page.getByRole('switch', { name: /预览/ }).waitFor();
      await page.getByRole('tab', { name: 'AI' }).click();
      await page.getByTestId('provider-editor').waitFor();
      expect(await page.getByTestId('provider-item-deepseek').textContent()).toContain('用于听写');
      expect(await page.getByTestId('provider-uses').textContent()).toBe('听写使用“deepseek”的模型 deepseek-chat。');
      // DeepSeek: prefix units, no minimum — the report says the prompt is cached.
      await expect.poll(() => page.getByTestId('cache-report').textContent()).toMatch(/^你的提示词约 [\d,]+ token；DeepSeek 缓存重复的提示词前缀，没有最低长度/);
      // OpenAI's gpt-5-mini under "other": max_tokens refused, because of the type.
      await page.getByRole('radio', { name: /^openai/ }).check();
      const result = page.getByTestId('verify-result');
      await page.getByRole('button', { name: '验证', exact: true }).click();
      await expect.poll(() => result.getAttribute('data-verdict'), { timeout: 15_000 }).toBe('refused');
      expect(await result.textContent()).toMatch(/^失败：服务商拒绝了“max_tokens”：“Unsupported parameter: 'max_tokens' is not supported with this model\. Use 'max_completion_tokens' instead\.”。听写发送它是因为服务商类型是“Other \(OpenAI-compatible\)”：请选择与该服务器相符的类型/);
      await page.getByLabel('服务商类型').selectOption('openai');
      await expect.poll(() => providers(w).openai?.kind).toBe('openai');
      await page.getByRole('button', { name: '验证', exact: true }).click();
      await expect.poll(() => result.getAttribute('data-verdict'), { timeout: 15_000 }).toBe('ok');
      expect(await result.textContent()).toMatch(/^可以使用：gpt-5-mini 在 [\d.]+ 秒内整理了一段测试听写：“嗯明天下午三点/);
      // OpenAI for dictation, history injection off: the ~300-token prompt is below OpenAI's 1,024 — said, with what to raise.
      await page.getByRole('button', { name: '用于听写' }).click();
      await expect.poll(() => w.configStore.get().ai_enhance.default_provider).toBe('openai');
      await expect.poll(() => page.getByTestId('cache-report').getAttribute('data-verdict')).toBe('below-minimum');
      expect(await page.getByTestId('cache-report').textContent()).toMatch(/^你的提示词约 \d+ token；OpenAI 从 1,024 token 起才缓存，按 128 token 为单位。要用上缓存，请开启“注入最近确认的听写”，并把“重建后的条数”设为 \d+–\d+；在此之前不会有缓存。$/);
      expect(w.problems).toEqual([]);
    } finally {
      await openai.close();
    }
  });
});
