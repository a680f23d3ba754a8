/**
 * The setup guide's microphone, permissions and hotkey steps in real Chromium over the real IPC stack, at the
 * window's default size in English and Chinese, light and dark: the microphone test's level moves and the
 * recording is played back (the app's own tester over a stand-in capture link: browser-onboarding.ts; the
 * whole-app scenario runs the real capture window), a permission check turns green while the step shows,
 * the pane button asks main for the right permission, and a recorded key is checked (a typing key refused,
 * a shortcut modifier questioned, a good key saved) and tested with the hook's down/up readout.
 */
import { describe, expect, it } from 'vitest';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

const harness = useBrowserHarness();
/** The window's default size (window-policy.ts ONBOARDING_SIZE; that module is not imported here: it pulls in Electron). */
const viewport = { width: 600, height: 560 };

/** Opens the guide and clicks Next until `heading` shows (the speech model counts as installed). */
async function openAt(heading: RegExp, opts: { locale?: string; colorScheme?: 'light' | 'dark' } = {}): Promise<HarnessWindow> {
  const w = await harness.open('onboarding', { viewport, locale: opts.locale ?? 'en-US', colorScheme: opts.colorScheme ?? 'light' });
  const next = w.page.getByRole('button', { name: /^(Next|下一步)$/ });
  for (let i = 0; i < 7 && !(await w.page.getByRole('heading', { name: heading }).isVisible()); i++) {
    await expect.poll(() => next.isEnabled(), { timeout: 10_000 }).toBe(true);
    await next.click();
  }
  await w.page.getByRole('heading', { name: heading }).waitFor();
  return w;
}

describe('setup guide: microphone, permissions, hotkey', () => {
  it.each([
    ['en-US', 'en', 'light', /Check your microphone/, 'Test', /Did you hear yourself/],
    ['zh-CN', 'zh', 'dark', /检查麦克风/, '测试', /听到自己的声音了吗/],
  ] as const)('%s microphone (%s): the level moves while speaking, then the 2 s are played back', async (locale, lang, scheme, heading, test, done) => {
    const w = await openAt(heading, { locale, colorScheme: scheme });
    const { page } = w;
    expect(await page.getByLabel(lang === 'zh' ? '麦克风' : 'Microphone').inputValue()).toBe('');
    await page.getByRole('button', { name: test, exact: true }).click();
    // The meter follows the tester's level events while the 2 seconds run.
    await expect.poll(() => page.getByTestId('mic-level').evaluate((m) => (m as HTMLMeterElement).value), { timeout: 3000 }).toBeGreaterThan(0.3);
    await saveScreenshot(page, `onboarding-mic-recording-${lang}-${scheme}`);
    await page.getByTestId('mic-status').getByText(done).waitFor({ timeout: 8000 });
    await saveScreenshot(page, `onboarding-mic-done-${lang}-${scheme}`);
    // Silence is said as silence, not as success.
    w.onboarding.os.silentMic = true;
    await page.getByRole('button', { name: lang === 'zh' ? '再测一次' : 'Test again' }).click();
    await page.getByTestId('mic-status').getByText(lang === 'zh' ? /什么也没听到/ : /Nothing was heard/).waitFor({ timeout: 8000 });
    expect(w.problems).toEqual([]);
  });

  it('permissions on macOS: Accessibility turns green while the step shows; the buttons ask for the right pane', async () => {
    const w = await harness.open('onboarding', { viewport });
    w.onboarding.os.platform = 'darwin';
    w.onboarding.os.session = null;
    w.onboarding.os.microphone = 'not-determined';
    w.onboarding.os.trusted = false;
    w.onboarding.os.hook = false;
    const { page } = w;
    for (let i = 0; i < 4; i++) {
      await expect.poll(() => page.getByRole('button', { name: 'Next' }).isEnabled(), { timeout: 10_000 }).toBe(true);
      await page.getByRole('button', { name: 'Next' }).click();
    }
    await page.getByRole('heading', { name: 'Allow what Tingxie needs' }).waitFor();
    const acc = page.getByTestId('perm-accessibility');
    await acc.getByText('Not allowed yet').waitFor();
    await page.getByTestId('perm-microphone').getByText('Not asked yet').waitFor();
    await saveScreenshot(page, 'onboarding-permissions-mac-en');
    await page.getByTestId('perm-microphone').getByRole('button', { name: 'Allow…' }).click();
    await acc.getByRole('button', { name: 'Open System Settings' }).click();
    await page.getByTestId('perm-key-hook').getByRole('button', { name: 'Open System Settings' }).click();
    await expect.poll(() => w.onboarding.opened).toEqual(['microphone', 'accessibility', 'key-hook']);
    // The user flips the switch in System Settings: the row turns green without a click here.
    w.onboarding.os.trusted = true;
    w.onboarding.os.hook = true;
    await acc.getByText('Allowed', { exact: true }).waitFor({ timeout: 4000 });
    expect(await acc.getByRole('button').count()).toBe(0);
    expect(await acc.evaluate((e) => e.className)).toContain('perm-granted');
    expect(w.problems).toEqual([]);
  });

  it.each([
    ['en-US', 'en', 'light', 'x11'],
    ['zh-CN', 'zh', 'dark', 'wayland'],
  ] as const)('%s permissions on Linux (%s, %s): what applies is said, the checks are green', async (locale, lang, scheme, session) => {
    const w = await harness.open('onboarding', { viewport, locale, colorScheme: scheme });
    w.onboarding.os.session = session;
    const next = w.page.getByRole('button', { name: lang === 'zh' ? '下一步' : 'Next' });
    for (let i = 0; i < 4; i++) {
      await expect.poll(() => next.isEnabled(), { timeout: 10_000 }).toBe(true);
      await next.click();
    }
    const { page } = w;
    await page.getByTestId('perm-microphone').getByText(lang === 'zh' ? '已允许' : 'Allowed', { exact: true }).waitFor();
    await page.getByText(session === 'wayland' ? /Wayland/ : /Linux asks for no permission/).waitFor();
    expect(await page.getByTestId('perm-accessibility').count()).toBe(0);
    await saveScreenshot(page, `onboarding-permissions-linux-${lang}-${scheme}`);
    expect(w.problems).toEqual([]);
  });

  it.each([
    ['en-US', 'en', 'light', 'Right Alt', 'Right Ctrl'],
    ['zh-CN', 'zh', 'dark', '右 Alt', '右 Ctrl'],
  ] as const)('%s hotkey (%s): record, checked, saved; the hook readout says down and up', async (locale, lang, scheme, alt, ctrl) => {
    const w = await openAt(lang === 'zh' ? /选择听写键/ : /Choose your dictation key/, { locale, colorScheme: scheme });
    const { page } = w;
    await expect.poll(() => w.onboarding.watching).toBe(true);
    const recorder = page.getByRole('button', { name: new RegExp(lang === 'zh' ? '听写键' : 'Dictation key') });
    await recorder.getByText(alt).waitFor();
    // A key that types is refused, with the reason.
    await recorder.click();
    await page.keyboard.press('KeyA');
    await page.getByTestId('key-verdict').getByText(lang === 'zh' ? /会输入字符/ : /types a character/).waitFor();
    expect(w.configStore.get().hotkeys).toEqual({ alt_r: true });
    // Left Ctrl works but is questioned; "Use anyway" saves it.
    await recorder.click();
    await page.keyboard.down('ControlLeft');
    await page.keyboard.up('ControlLeft');
    await page.getByTestId('key-verdict').getByText(lang === 'zh' ? /很多快捷键都用到/ : /part of many shortcuts/).waitFor();
    await saveScreenshot(page, `onboarding-hotkey-warning-${lang}-${scheme}`);
    // Right Ctrl is a good key: saved at once.
    await recorder.click();
    await page.keyboard.down('ControlRight');
    await page.keyboard.up('ControlRight');
    await expect.poll(() => w.configStore.get().hotkeys).toEqual({ ctrl_r: true });
    await recorder.getByText(ctrl).waitFor();
    // The readout follows the key events main sends while the step watches.
    w.broadcast('onboarding:key', { kind: 'down', key: 'ctrl_r' });
    await page.getByTestId('key-test').getByText(lang === 'zh' ? `${ctrl}：已按下` : `${ctrl}: down`).waitFor();
    await saveScreenshot(page, `onboarding-hotkey-down-${lang}-${scheme}`);
    w.broadcast('onboarding:key', { kind: 'up', key: 'ctrl_r' });
    await page.getByTestId('key-test').getByText(lang === 'zh' ? /已松开/ : /up\. The key works/).waitFor();
    // Leaving the step stops the watch, so the key dictates again.
    await page.getByRole('button', { name: lang === 'zh' ? '下一步' : 'Next' }).click();
    await expect.poll(() => w.onboarding.watching).toBe(false);
    await page.getByText(lang === 'zh' ? `按住 ${ctrl} 说话` : `hold ${ctrl} while you speak`).waitFor();
    await saveScreenshot(page, `onboarding-try-${lang}-${scheme}`);
    expect(w.problems).toEqual([]);
  });

  it.each([
    ['en-US', 'en', 'light'],
    ['zh-CN', 'zh', 'dark'],
  ] as const)('%s speech step (%s): the multilingual choice shows the multilingual recommendations', async (locale, lang, scheme) => {
    const w = await harness.open('onboarding', { viewport, locale, colorScheme: scheme, speechModelInstalled: false });
    const { page } = w;
    await page.getByRole('button', { name: lang === 'zh' ? '下一步' : 'Next' }).click();
    await page.getByTestId('models').locator('.model-card').first().waitFor();
    // The UI language's list first (the test catalog's served model), then the multilingual one, best first.
    expect(await page.locator('.model-card h3').allInnerTexts()).toEqual(['tiny-test']);
    await page.getByRole('radio', { name: lang === 'zh' ? '多种语言' : 'Several languages' }).check();
    await expect.poll(() => page.locator('.model-card h3').allInnerTexts()).toEqual(['sense-voice-test', 'tiny-test']);
    await page.getByTestId('model-sense-voice-test').getByText(lang === 'zh' ? '推荐' : 'Recommended').waitFor();
    await saveScreenshot(page, `onboarding-speech-multi-${lang}-${scheme}`);
    expect(w.problems).toEqual([]);
  });
});
