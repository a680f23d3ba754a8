/**
 * A new user's first start of the built app: an empty data folder and no speech model. The app comes
 * up (tray ready) and says what to do at once — Settings opens on Speech with the model to download,
 * the tray shows the problem — and a dictation made anyway is not a silent failure: Settings comes
 * back to the front, and the audio is kept for "Retry Last Dictation".
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, waitUntil, type RunningApp } from './harness/launch-app.ts';
import { startScenario, type Scenario } from './harness/scenario.ts';

const shots = path.resolve(import.meta.dirname, '../../test-results/app');

describe('the built app: first start without a speech model', () => {
  let s: Scenario;
  let app: RunningApp | null = null;
  beforeAll(async () => {
    s = await startScenario();
    fs.mkdirSync(shots, { recursive: true });
  }, 60_000);
  afterEach(async () => {
    if (app !== null && app.process.exitCode === null) await app.kill();
    app = null;
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each([
    ['en-US', 'en', /not installed yet/, /No speech model is installed yet/],
    ['zh-CN', 'zh', /还没有安装/, /还没有安装语音模型/],
  ] as const)('%s: Settings opens on Speech saying which model to download; the tray says it too', async (locale, lang, banner, trayLine) => {
    // A truly empty folder: no config.json either, as on a new machine (ui.language follows the system).
    const dataDir = s.dataDir({}, { noModel: true });
    fs.rmSync(path.join(dataDir, 'config.json'));
    const a = launchApp({ dataDir, env: s.x.env, locale });
    app = a;
    await a.waitForLog('ready');
    const state = await waitUntil(async () => {
      const st = await a.state();
      return st.windows.find((w) => w.url.includes('/settings/'))?.visible ? st : null;
    }, 15_000, 'Settings to open');
    expect(state.tray?.menu.some((m) => trayLine.test(m.label))).toBe(true);
    const settings = await a.page('settings');
    await expect.poll(() => settings.getByTestId('model-missing').innerText(), { timeout: 10_000 }).toMatch(banner);
    expect(await settings.getByTestId('model-missing').innerText()).toContain('base');
    await expect(settings.getByRole('tab', { selected: true }).innerText()).resolves.toMatch(lang === 'zh' ? /语音/ : /Speech/);
    await settings.screenshot({ path: path.join(shots, `first-start-settings-${lang}.png`) });
  }, 60_000);

  it('a dictation without a model: Settings comes to the front again and the audio is kept for a retry', async () => {
    const dataDir = s.dataDir({}, { noModel: true });
    const a = launchApp({ dataDir, env: s.x.env, fakeAudio: s.speech });
    app = a;
    await a.waitForLog('microphone ready');
    // The user closes Settings and dictates anyway.
    const settings = await a.page('settings');
    await settings.close();
    await waitUntil(async () => !(await a.state()).windows.some((w) => w.url.includes('/settings/')), 5000, 'Settings closed');
    await s.xdotool('keydown', 'Alt_R');
    await new Promise((r) => setTimeout(r, 2000));
    await s.xdotool('keyup', 'Alt_R');
    await waitUntil(async () => (await a.state()).windows.find((w) => w.url.includes('/settings/'))?.visible, 15_000, 'Settings to reopen');
    const journal = path.join(dataDir, 'journal');
    expect(fs.readdirSync(journal).some((f) => f.endsWith('.wav'))).toBe(true);
    const retry = (await a.state()).tray?.menu.find((m) => m.label === 'Retry Last Dictation');
    expect(retry?.enabled).toBe(true);
  }, 60_000);
});
