import { describe, expect, it } from 'vitest';
import {
  WINDOW_KINDS,
  isAllowedNavigation,
  isOwnPage,
  navigationAction,
  pageUrl,
  permissionDecision,
  windowSpec,
} from '../../../../src/main/app/window-policy.ts';
import type { OwnPages, WindowKind } from '../../../../src/main/app/window-policy.ts';
import { isAllowedExternalUrl } from '../../../../src/main/ipc/external-urls.ts';

// A packaged app's windows: DevTools off (no console in a shipped window); development passes `devTools: true`.
const paths = { preload: '/app/out/preload/index.cjs', devTools: false };
const own: OwnPages = { rendererDir: '/app/out/renderer' };
const dev: OwnPages = { rendererDir: '/app/out/renderer', devServerUrl: 'http://localhost:5173' };
// A stand-in allow-list so these tests do not depend on the real one's contents (tested by the ipc helper).
const allowHttpsExample = (url: string): boolean => url.startsWith('https://example.com/');

describe('windowSpec: every window is locked down (docs/dev/ARCHITECTURE.md, convention 5)', () => {
  for (const kind of WINDOW_KINDS) {
    it(`${kind}: context isolation, sandbox, no Node, no webview, web security on`, () => {
      const wp = windowSpec(kind, paths).webPreferences;
      expect(wp).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webviewTag: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        spellcheck: false,
        disableBlinkFeatures: 'Auxclick',
        preload: '/app/out/preload/index.cjs',
      });
    });
    it(`${kind}: DevTools only in development (packaged: devTools false)`, () => {
      expect(windowSpec(kind, paths).webPreferences?.devTools).toBe(false);
      expect(windowSpec(kind, { ...paths, devTools: true }).webPreferences?.devTools).toBe(true);
    });
    it(`${kind}: never shown before it is ready`, () => {
      expect(windowSpec(kind, paths).show).toBe(false);
    });
  }

  it('panel is frameless, always on top and kept out of the taskbar', () => {
    expect(windowSpec('panel', paths)).toMatchObject({ frame: false, alwaysOnTop: true, skipTaskbar: true, show: false });
    // A non-activating NSPanel on macOS only (keeps the target app active and its selection intact).
    expect(windowSpec('panel', paths, 'darwin')).toMatchObject({ type: 'panel', alwaysOnTop: true });
    for (const platform of ['linux', 'win32'] as const) expect(windowSpec('panel', paths, platform)).not.toHaveProperty('type');
    for (const kind of ['settings', 'history', 'capture', 'indicator'] as const) expect(windowSpec(kind, paths, 'darwin')).not.toHaveProperty('type');
  });

  /**
   * Whether each window is throttled in the background, as a mapped type over WindowKind: a new kind of
   * window does not compile until its policy is stated here. Two windows do their work while hidden:
   * capture pulls audio frames at full rate, and the indicator plays the start sound before the recording
   * starts (src/main/dictation/sounding-capture.ts), while it is still hidden, and it is never shown at all
   * with feedback.visual_indicator off, yet still plays the sounds; while shown it animates the level meter.
   */
  const THROTTLED: { readonly [K in WindowKind]: boolean } = { panel: true, settings: true, history: true, capture: false, indicator: false, onboarding: true };

  it('capture and the indicator are not throttled in the background (they work while hidden); every other window is', () => {
    // The list the other tests iterate over is every kind the app makes.
    expect([...WINDOW_KINDS].sort()).toEqual(Object.keys(THROTTLED).sort());
    for (const kind of WINDOW_KINDS) expect(windowSpec(kind, paths).webPreferences?.backgroundThrottling, kind).toBe(THROTTLED[kind]);
  });
});

describe('permissionDecision: only the capture window gets the microphone', () => {
  const captureUrl = pageUrl('capture', own);
  const permissions = ['media', 'geolocation', 'notifications', 'clipboard-read', 'display-capture', 'openExternal', 'midi', 'hid'];

  for (const kind of WINDOW_KINDS) {
    for (const permission of permissions) {
      const expected = kind === 'capture' && permission === 'media';
      it(`${kind} × ${permission} → ${expected ? 'allow' : 'deny'}`, () => {
        const v = permissionDecision(kind, permission, { mediaTypes: ['audio'], requestingUrl: pageUrl(kind, own), isMainFrame: true }, own);
        expect(v.allow).toBe(expected);
        expect(v.reason).not.toBe('');
      });
    }
  }

  it('capture may not have the camera, nor audio+video, nor an unspecified media type', () => {
    for (const mediaTypes of [['video'], ['audio', 'video'], [], undefined]) {
      const details = mediaTypes === undefined ? { requestingUrl: captureUrl } : { mediaTypes, requestingUrl: captureUrl };
      expect(permissionDecision('capture', 'media', details, own).allow).toBe(false);
    }
  });

  it('denies web contents the factory did not create, sub-frames and foreign pages', () => {
    expect(permissionDecision(undefined, 'media', { mediaTypes: ['audio'] }, own).allow).toBe(false);
    expect(permissionDecision('capture', 'media', { mediaTypes: ['audio'], isMainFrame: false, requestingUrl: captureUrl }, own).allow).toBe(false);
    expect(permissionDecision('capture', 'media', { mediaTypes: ['audio'], requestingUrl: 'https://evil.example/' }, own).allow).toBe(false);
    expect(permissionDecision('capture', 'media', { mediaTypes: ['audio'], requestingUrl: pageUrl('settings', own) }, own).allow).toBe(false);
  });
});

describe('navigation: windows stay on their own page', () => {
  it('each kind loads app://tingxie/<kind>/index.html (never file://), or the dev server page', () => {
    for (const kind of WINDOW_KINDS) expect(pageUrl(kind, own)).toBe(`app://tingxie/${kind}/index.html`);
    expect(pageUrl('history', dev)).toBe('http://localhost:5173/history/index.html');
  });

  it('allows the own page (hash/query changes) and nothing else', () => {
    for (const kind of WINDOW_KINDS) {
      const self = pageUrl(kind, own);
      expect(isAllowedNavigation(kind, self, own)).toBe(true);
      expect(isAllowedNavigation(kind, `${self}#section`, own)).toBe(true);
      for (const other of WINDOW_KINDS.filter((k) => k !== kind)) {
        expect(isAllowedNavigation(kind, pageUrl(other, own), own)).toBe(false);
      }
    }
    const refused = [
      'https://example.com/',
      'http://localhost:5173/settings/index.html',
      'file:///etc/passwd',
      'file:///app/out/renderer/settings/index.html',
      'file:///app/out/renderer/settings/../../../secret.html',
      'app://tingxie/settings/../history/index.html',
      'app://tingxie/settings/other.html',
      'app://evil/settings/index.html',
      'app://user:pw@tingxie/settings/index.html',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'not a url',
      '',
    ];
    for (const url of refused) expect(isAllowedNavigation('settings', url, own), url).toBe(false);
  });

  it('in dev, only the dev server page of the same kind is own; credentials in the URL are refused', () => {
    expect(isOwnPage('settings', 'http://localhost:5173/settings/index.html?x=1', dev)).toBe(true);
    expect(isOwnPage('settings', 'http://localhost:5174/settings/index.html', dev)).toBe(false);
    expect(isOwnPage('settings', 'http://user:pw@localhost:5173/settings/index.html', dev)).toBe(false);
    expect(isOwnPage('settings', 'file:///app/out/renderer/settings/index.html', dev)).toBe(false);
    expect(isOwnPage('settings', 'app://tingxie/settings/index.html', dev)).toBe(false);
  });

  it('links: allow-listed https goes to the system browser, the rest is denied; window.open never opens a window', () => {
    const self = pageUrl('settings', own);
    expect(navigationAction('settings', self, own, allowHttpsExample, false)).toEqual({ kind: 'allow' });
    expect(navigationAction('settings', self, own, allowHttpsExample, true)).toEqual({ kind: 'deny' });
    expect(navigationAction('settings', 'https://example.com/docs', own, allowHttpsExample, false)).toEqual({
      kind: 'open-external',
      url: 'https://example.com/docs',
    });
    expect(navigationAction('settings', 'https://example.com/docs', own, allowHttpsExample, true)).toEqual({
      kind: 'open-external',
      url: 'https://example.com/docs',
    });
    expect(navigationAction('settings', 'https://evil.example/', own, allowHttpsExample, true)).toEqual({ kind: 'deny' });
    expect(navigationAction('settings', 'http://example.com/docs', own, () => false, false)).toEqual({ kind: 'deny' });
  });
});

describe('links through the real allow-list (src/main/ipc/external-urls.ts)', () => {
  it('only https links to allow-listed hosts leave the app, to the system browser', () => {
    const act = (url: string): string => navigationAction('settings', url, own, isAllowedExternalUrl, true).kind;
    expect(act('https://github.com/tingxie/tingxie')).toBe('open-external');
    expect(act('https://platform.openai.com/api-keys')).toBe('open-external');
    for (const url of [
      'http://github.com/',
      'https://github.com.evil.example/',
      'https://user:pw@github.com/',
      'https://github.com:8443/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://example.org/',
    ]) {
      expect(act(url), url).toBe('deny');
    }
  });
});
