import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { META_CONTENT_SECURITY_POLICY } from '../../src/shared/csp.ts';
import { rendererOutDir, useBrowserHarness, type HarnessWindow, type WindowName } from '../helpers/browser-harness.ts';

/** Every renderer entry loads cleanly in real Chromium, and the harness really catches what it should. */

const harness = useBrowserHarness();
let win: HarnessWindow | undefined;

const entries: readonly WindowName[] = ['panel', 'settings', 'history', 'capture', 'indicator'];

describe('built renderer', () => {
  it.each(entries)('%s/index.html keeps the meta CSP and Vite added no inline script or style', (name) => {
    const html = fs.readFileSync(path.join(rendererOutDir, name, 'index.html'), 'utf8');
    expect(html).toContain(`content="${META_CONTENT_SECURITY_POLICY}"`);
    for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) expect(tag).toMatch(/\bsrc=/);
    expect(html).not.toMatch(/<style\b|\sstyle=/i);
  });
});

describe('windows', () => {
  it('panel: idle without a session, nothing to confirm (no dictation service behind it here)', async () => {
    win = await harness.open('panel');
    await expect.poll(() => win?.page.getByTestId('panel-state').textContent()).toBe('Ready');
    expect(await win.page.getByTestId('panel-confirm').isDisabled()).toBe(true);
    expect(win.problems).toEqual([]);
  });

  it('panel follows ui.language', async () => {
    win = await harness.open('panel', { configText: '{"ui":{"language":"zh"}}' });
    await expect.poll(() => win?.page.getByTestId('panel-state').textContent()).toBe('就绪');
    // The label, then its key hint (a <kbd>, hidden from screen readers).
    expect(await win.page.getByTestId('panel-confirm').textContent()).toBe('粘贴↵');
    expect(win.problems).toEqual([]);
  });

  it('history: opens the History Browser on an empty history', async () => {
    win = await harness.open('history');
    await win.page.getByRole('heading', { name: 'Tingxie History' }).waitFor();
    await win.page.getByTestId('history-empty').waitFor();
    expect(await win.page.getByTestId('page-label').textContent()).toBe('Page 1 / 1');
    expect(win.problems).toEqual([]);
  });

  it('capture: loads nothing and reports nothing', async () => {
    win = await harness.open('capture');
    expect(await win.page.title()).toBe('Tingxie Capture');
    expect(await win.page.locator('#root').innerHTML()).toBe('');
    expect(win.problems).toEqual([]);
  });

  it('the bridge is the preload one: frozen, read-only, one method per channel', async () => {
    win = await harness.open('panel');
    const shape = await win.page.evaluate(() => {
      const w = window as unknown as { tingxie: Record<string, Record<string, unknown>> };
      const t = w.tingxie;
      return {
        domains: Object.keys(t).sort(),
        config: Object.keys(t.config ?? {}).sort(),
        frozen: Object.isFrozen(t) && Object.isFrozen(t.config),
        writable: Object.getOwnPropertyDescriptor(window, 'tingxie')?.writable,
      };
    });
    expect(shape).toEqual({
      domains: ['app', 'apps', 'capture', 'config', 'dictation', 'history', 'learning', 'models', 'modes', 'on', 'onboarding', 'providers', 'recordings', 'rules', 'secrets', 'vocabulary'],
      config: ['get', 'issues', 'set'],
      frozen: true,
      writable: false,
    });
    // A hostile call from page code is refused by the real dispatcher, not by the UI: the panel may not
    // change settings or keys at all (per-window scope, src/shared/ipc/window-scopes.ts), whatever the payload.
    const refused = await win.page.evaluate(async () => {
      const w = window as unknown as { tingxie: { config: { set(p: unknown): Promise<unknown> }; secrets: { set(p: unknown): Promise<unknown> } } };
      return [await w.tingxie.config.set({ keyPath: '__proto__.polluted', value: 1 }), await w.tingxie.secrets.set({ name: 'provider:openai', value: 'sk-x' })];
    });
    expect(refused).toMatchObject([
      { ok: false, error: { code: 'out-of-scope', message: 'config:set refused: the panel window may not call it' } },
      { ok: false, error: { code: 'out-of-scope', message: 'secrets:set refused: the panel window may not call it' } },
    ]);
    expect(win.secretStore.get('provider:openai')).toBeUndefined();
  });

  it('the harness catches CSP violations and console errors (so a clean run means something)', async () => {
    win = await harness.open('panel');
    await win.page.getByTestId('panel').waitFor();
    await win.page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.append(s);
      const st = document.createElement('style');
      st.textContent = 'body { color: red }';
      document.head.append(st);
    });
    await expect.poll(() => win?.problems.filter((p) => p.kind === 'csp-violation').length).toBeGreaterThanOrEqual(2);
    expect(await win.page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    expect(win.problems.some((p) => p.kind === 'console-error')).toBe(true);
  });
});
