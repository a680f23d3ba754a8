/**
 * The first-run window in real Chromium over the real main-side services: on this computer (the recommended
 * card, a download over real HTTP from the mirror the user typed, pause keeping the partial file, resume with
 * a Range request, the model chosen once installed) and with a cloud provider (URL, key, a real transcription
 * request to the local OpenAI-compatible server, refused key said in the UI language), then the try-out step.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { SERVED_MODEL, startModelMirror } from '../helpers/browser-settings-services.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../helpers/openai-test-server.ts';

const harness = useBrowserHarness();

describe('onboarding window', () => {
  let mirror: Awaited<ReturnType<typeof startModelMirror>>;
  let speech: OpenAiTestServer;
  beforeAll(async () => {
    mirror = await startModelMirror();
    speech = await startOpenAiTestServer({
      transcription: (req) =>
        req.headers.authorization === 'Bearer good-key' ? { kind: 'text', text: '你好' } : { kind: 'fault', fault: { kind: 'http', status: 401, message: 'Incorrect API key provided' } },
    });
  });
  afterAll(async () => {
    await mirror?.close();
    await speech?.close();
  });

  it('on this computer: recommended card, download from the typed mirror with progress, pause keeps the part, resume sends Range, then try and finish', async () => {
    const w = await harness.open('onboarding', { speechModelInstalled: false, viewport: { width: 600, height: 560 } });
    const { page } = w;
    await page.getByText('Tingxie turns what you say into text').waitFor();
    expect(await page.getByRole('radio', { name: /On this computer/ }).isChecked()).toBe(true);
    await saveScreenshot(page, 'onboarding-choose-en');
    await page.getByRole('button', { name: 'Next' }).click();

    const card = page.getByTestId(`model-${SERVED_MODEL}`);
    await card.getByText('Recommended').waitFor();
    await card.getByText(/MB · Fastest · Chinese, English and 97 more languages/).waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    // The mirror setting is honoured: downloads come from the address typed here.
    await page.getByLabel('Download address').fill(mirror.origin);
    await page.getByLabel('Download address').press('Enter');
    await expect.poll(() => w.configStore.get().asr.local.models_mirror).toBe(mirror.origin);

    await page.getByRole('button', { name: `Download ${SERVED_MODEL}` }).click();
    await page.getByRole('progressbar', { name: `Downloading ${SERVED_MODEL}` }).waitFor();
    await page.getByRole('button', { name: `Pause ${SERVED_MODEL}` }).click();
    await card.getByText(/^Paused at /).waitFor();
    const part = path.join(w.dataDir, 'models', `ggml-${SERVED_MODEL}.bin.part`);
    const kept = fs.statSync(part).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(mirror.size);
    expect(mirror.requests.length).toBe(1);
    await saveScreenshot(page, 'onboarding-local-paused-en');

    await page.getByRole('button', { name: `Resume ${SERVED_MODEL}` }).click();
    await page.getByText(`“${SERVED_MODEL}” is installed and will be used.`).waitFor({ timeout: 15_000 });
    expect(mirror.requests.at(-1)?.range).toMatch(/^bytes=\d+-$/);
    expect(Number(/\d+/.exec(mirror.requests.at(-1)?.range ?? '')?.[0])).toBeGreaterThanOrEqual(kept);
    expect(fs.statSync(path.join(w.dataDir, 'models', `ggml-${SERVED_MODEL}.bin`)).size).toBe(mirror.size);
    expect(w.configStore.get().asr).toMatchObject({ engine: 'local', local: { model: SERVED_MODEL } });
    await card.getByText('In use').waitFor();

    // AI (onboarding-ai.test.ts), microphone, permissions and hotkey (onboarding-steps.test.ts tests them), then the try-out.
    for (const heading of ['Tidy the text and learn from your corrections', 'Check your microphone', 'Allow what Tingxie needs', 'Choose your dictation key']) {
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Click in the box, hold Right Alt while you speak, then let go.').waitFor();
    // The try-out follows the real dictation events main broadcasts.
    w.broadcast('dictation:event', { kind: 'state', sessionId: 's1', state: 'recording', previous: 'idle', mode: 'proofread' });
    await page.getByText('Listening…').waitFor();
    w.broadcast('dictation:event', { kind: 'asr', sessionId: 's1', text: 'hello world', language: 'en' });
    w.broadcast('dictation:event', { kind: 'done', sessionId: 's1', outcome: 'pasted' });
    await page.getByText('It works. You can dictate into any app the same way.').waitFor();
    await page.getByText('“hello world”').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => w.onboardingCalls).toEqual(['close']);
    expect(w.problems).toEqual([]);
  });

  it('a cloud provider (zh): URL and key, a refused key said in Chinese, then a real transcription request passes', async () => {
    const w = await harness.open('onboarding', { speechModelInstalled: false, locale: 'zh-CN', viewport: { width: 600, height: 560 } });
    const { page } = w;
    await page.getByRole('radio', { name: /使用云端服务/ }).check();
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByLabel('服务商').selectOption('custom');
    await page.getByLabel('服务地址').fill(speech.baseURL);
    await page.getByLabel('服务地址').press('Enter');
    await expect.poll(() => w.configStore.get().asr.remote.base_url).toBe(speech.baseURL);
    expect(await page.getByRole('button', { name: '下一步' }).isDisabled()).toBe(true);

    await page.getByLabel('API 密钥').fill('bad-key');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('已设置').waitFor();
    await page.getByRole('button', { name: '测试' }).click();
    await expect.poll(() => page.getByTestId('speech-check').innerText()).toMatch(/拒绝了这个 API 密钥/);
    expect(await page.getByRole('button', { name: '下一步' }).isDisabled()).toBe(true);

    await page.getByLabel('API 密钥').fill('good-key');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByRole('button', { name: '测试' }).click();
    await expect.poll(() => page.getByTestId('speech-check').innerText()).toMatch(/^可以使用：127\.0\.0\.1:\d+ 用 whisper-1 识别了测试音频/);
    const last = speech.requests.at(-1);
    expect(last?.path).toBe('/v1/audio/transcriptions');
    expect(last?.fields?.model).toBe('whisper-1');
    expect(w.configStore.get().asr.engine).toBe('remote');
    await saveScreenshot(page, 'onboarding-cloud-zh');
    for (let i = 0; i < 5; i++) await page.getByRole('button', { name: '下一步' }).click();
    await page.getByText('试一次听写').waitFor();
    // The key is named as the OS names it, in Chinese.
    await page.getByText('点击下面的文本框，按住 右 Alt 说话，然后松开。').waitFor();
    await page.getByRole('button', { name: '稍后设置' }).click();
    await expect.poll(() => w.onboardingCalls).toEqual(['close']);
    expect(w.problems).toEqual([]);
  });
});
