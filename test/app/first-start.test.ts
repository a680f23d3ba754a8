/**
 * A new user's first start of the built app: an empty data folder and no speech model. The app comes
 * up (tray ready) and says what to do at once — the onboarding window opens (not Settings), the tray
 * shows the problem — finishing it with a cloud speech service makes the next dictation work, and a
 * dictation made without setting up is not a silent failure: onboarding comes back to the front, and
 * the audio is kept for "Retry Last Dictation".
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchApp, waitUntil } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { useScenarioSuite } from './harness/scenario-suite.ts';

const shots = path.resolve(import.meta.dirname, '../../test-results/app');

describe('the built app: first start without a speech model', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  beforeAll(() => {
    s = suite.scenario();
    fs.mkdirSync(shots, { recursive: true });
  });

  it.each([
    ['en-US', 'en', /not installed yet/, /No speech model is installed yet/],
    ['zh-CN', 'zh', /还没有安装/, /还没有安装语音模型/],
  ] as const)('%s: the onboarding window opens (not Settings); the tray says what is missing', async (locale, lang, _banner, trayLine) => {
    // A truly empty folder: no config.json either, as on a new machine (ui.language follows the system).
    const dataDir = s.dataDir({}, { noModel: true });
    fs.rmSync(path.join(dataDir, 'config.json'));
    const a = suite.track(launchApp({ dataDir, env: s.x.env, locale }));
    await a.waitForLog('ready');
    const state = await waitUntil(async () => {
      const st = await a.state();
      return st.windows.find((w) => w.url.includes('/onboarding/'))?.visible ? st : null;
    }, 15_000, 'onboarding to open');
    expect(state.windows.some((w) => w.url.includes('/settings/'))).toBe(false);
    expect(state.tray?.menu.some((m) => trayLine.test(m.label))).toBe(true);
    // One model story: the new install's model is the guide's first recommendation for the UI language,
    // and the tray names that same model.
    const model = lang === 'zh' ? 'sense-voice-small-int8' : 'base.en';
    const written = JSON.parse(fs.readFileSync(path.join(dataDir, 'config.json'), 'utf8')) as { asr: { local: { model: string } } };
    expect(written.asr.local.model).toBe(model);
    expect(state.tray?.menu.some((m) => m.label.includes(lang === 'zh' ? 'SenseVoice-Small' : 'Whisper Base (English only)'))).toBe(true);
    // The tray does not say "Ready" above the problem; it offers the guide and names the dictation key.
    expect(state.tray?.menu[0]?.label).toBe(lang === 'zh' ? 'Tingxie — 需要设置' : 'Tingxie — Set-up needed');
    expect(state.tray?.menu.some((m) => m.label === (lang === 'zh' ? '设置向导…' : 'Set Up…'))).toBe(true);
    expect(state.tray?.menu.some((m) => m.label === (lang === 'zh' ? '开始听写（或按住 右 Alt）' : 'Start Dictation (or hold Right Alt)'))).toBe(true);
    const onboarding = await a.page('onboarding');
    await onboarding.getByRole('radio', { name: lang === 'zh' ? /在这台电脑上/ : /On this computer/ }).waitFor();
    // The window's default size, as the app creates it: the first-start pictures (test-results/app).
    await onboarding.screenshot({ path: path.join(shots, `first-start-onboarding-${lang}.png`) });
    await onboarding.getByRole('button', { name: lang === 'zh' ? '下一步' : 'Next' }).click();
    await onboarding.locator('.model-card').first().waitFor();
    // The first card is the configured model, marked as the recommendation.
    await onboarding.getByTestId(`model-${model.replace(/[^a-z0-9]/gi, '-')}`).getByText(lang === 'zh' ? '推荐' : 'Recommended').waitFor();
    await onboarding.screenshot({ path: path.join(shots, `first-start-onboarding-models-${lang}.png`) });
  }, 60_000);

  it('finish onboarding with a cloud speech service (a real test request), then a dictation works and shows in the window', async () => {
    s.llm.setTranscription(() => ({ kind: 'text', text: 'hello from the cloud' }));
    const dataDir = s.dataDir({}, { noModel: true });
    const a = suite.track(launchApp({ dataDir, env: s.x.env, fakeAudio: s.speech }));
    await a.waitForLog('microphone ready');
    const page = await a.page('onboarding');
    await page.getByRole('radio', { name: /With a cloud provider/ }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Provider').selectOption('custom');
    await page.getByLabel('Service URL').fill(s.llm.baseURL);
    await page.getByLabel('Service URL').press('Enter');
    await page.getByLabel('API key').fill('sk-onboarding-test');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => page.getByTestId('speech-check').innerText(), { timeout: 15_000 }).toMatch(/^It works/);
    // AI, microphone, permissions and hotkey are passed as they are (first-start-setup.test.ts goes through them).
    for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Click in the box, hold Right Alt while you speak, then let go.').waitFor();
    await page.locator('#try-box').click();
    await s.xdotool('keydown', 'Alt_R');
    await new Promise((r) => setTimeout(r, 1500));
    await s.xdotool('keyup', 'Alt_R');
    await page.getByText('It works. You can dictate into any app the same way.').waitFor({ timeout: 20_000 });
    await page.getByText('“Hello world.”').or(page.getByText('“hello from the cloud”')).first().waitFor();
    const asr = s.llm.requests.filter((r) => r.path === '/v1/audio/transcriptions');
    expect(asr.length).toBeGreaterThanOrEqual(2); // the test request and the dictation
    expect(asr.at(-1)?.headers.authorization).toBe('Bearer sk-onboarding-test');
    await page.getByRole('button', { name: 'Done' }).click();
    await waitUntil(async () => !(await a.state()).windows.some((w) => w.url.includes('/onboarding/')), 5000, 'onboarding closed');
  }, 90_000);

  it('a dictation without a model: onboarding comes to the front again and the audio is kept for a retry', async () => {
    const dataDir = s.dataDir({}, { noModel: true });
    const a = suite.track(launchApp({ dataDir, env: s.x.env, fakeAudio: s.speech }));
    await a.waitForLog('microphone ready');
    // The user puts the guide off ("Set up later") and dictates anyway.
    const onboarding = await a.page('onboarding');
    await waitUntil(async () => (await a.state()).windows.find((w) => w.url.includes('/onboarding/'))?.visible, 15_000, 'onboarding shown');
    await onboarding.getByRole('button', { name: 'Set up later' }).click();
    await waitUntil(async () => !(await a.state()).windows.some((w) => w.url.includes('/onboarding/')), 5000, 'onboarding closed');
    await s.xdotool('keydown', 'Alt_R');
    await new Promise((r) => setTimeout(r, 2000));
    await s.xdotool('keyup', 'Alt_R');
    await waitUntil(async () => (await a.state()).windows.find((w) => w.url.includes('/onboarding/'))?.visible, 15_000, 'onboarding to reopen');
    const journal = path.join(dataDir, 'journal');
    expect(fs.readdirSync(journal).some((f) => f.endsWith('.wav'))).toBe(true);
    const retry = (await a.state()).tray?.menu.find((m) => m.label === 'Retry Last Dictation');
    expect(retry?.enabled).toBe(true);
  }, 60_000);
});
