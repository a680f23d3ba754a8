import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isOwnFrameUrl, TrustedSenders } from '../../../../src/main/ipc/trusted-senders.ts';
import { FakeContents } from './ipc-harness.ts';

const rendererDir = path.resolve('/opt/tingxie/resources/app.asar/out/renderer');
const page = 'app://tingxie/settings/index.html';

describe('isOwnFrameUrl', () => {
  const own = { rendererDir };
  it('accepts our built pages on app://tingxie/ (query and hash ignored)', () => {
    expect(isOwnFrameUrl(page, own)).toBe(true);
    expect(isOwnFrameUrl(`${page}?tab=audio#x`, own)).toBe(true);
  });
  it('refuses other app:// hosts, credentials and the bare origin', () => {
    for (const url of ['app://evil/settings/index.html', 'app://user:pw@tingxie/settings/index.html', 'app://tingxie/', 'app://tingxie', 'app://tingxie:1/x.html']) {
      expect(isOwnFrameUrl(url, own), url).toBe(false);
    }
  });
  it('refuses every file:// URL, even the built page itself (pages are never loaded from file://)', () => {
    expect(isOwnFrameUrl(pathToFileURL(path.join(rendererDir, 'settings', 'index.html')).href, own)).toBe(false);
    expect(isOwnFrameUrl('file:///etc/passwd', own)).toBe(false);
    expect(isOwnFrameUrl(pathToFileURL(`${rendererDir}-evil/settings/index.html`).href, own)).toBe(false);
    expect(isOwnFrameUrl(`file://${rendererDir}/../../secrets.html`, own)).toBe(false);
    expect(isOwnFrameUrl(`file://${rendererDir}/%2e%2e/x.html`, own)).toBe(false);
    expect(isOwnFrameUrl(pathToFileURL(rendererDir).href, own)).toBe(false);
    expect(isOwnFrameUrl('file://server/share/out/renderer/settings/index.html', own)).toBe(false);
  });
  it('refuses other schemes, garbage and the dev server when none is configured', () => {
    for (const url of ['', 'about:blank', 'data:text/html,hi', 'https://evil.example/', 'http://localhost:5173/settings/index.html', 'not a url']) {
      expect(isOwnFrameUrl(url, own)).toBe(false);
    }
  });
  it('accepts the dev server origin under its base path only', () => {
    const dev = { rendererDir, devServerUrl: 'http://localhost:5173/' };
    expect(isOwnFrameUrl('http://localhost:5173/settings/index.html', dev)).toBe(true);
    expect(isOwnFrameUrl('http://localhost:5174/settings/index.html', dev)).toBe(false);
    expect(isOwnFrameUrl('http://127.0.0.1:5173/settings/index.html', dev)).toBe(false);
    expect(isOwnFrameUrl('http://user@localhost:5173/settings/index.html', dev)).toBe(false);
    const based = { rendererDir, devServerUrl: 'http://localhost:5173/app' };
    expect(isOwnFrameUrl('http://localhost:5173/app/panel/index.html', based)).toBe(true);
    expect(isOwnFrameUrl('http://localhost:5173/other/panel/index.html', based)).toBe(false);
  });
});

describe('TrustedSenders', () => {
  it('trusts added webContents on our pages until they are destroyed', () => {
    const trusted = new TrustedSenders({ rendererDir });
    const a = new FakeContents(1);
    const b = new FakeContents(2);
    trusted.add(a, 'settings');
    trusted.add(b, 'capture');
    expect(trusted.has(1, page)).toBe(true);
    expect(trusted.isTrustedSender({ id: 2, frameUrl: page })).toBe(true);
    expect(trusted.has(3, page)).toBe(false);
    expect(trusted.has(1, 'https://evil.example/')).toBe(false);
    a.destroy();
    expect(trusted.has(1, page)).toBe(false);
    expect(trusted.contents().map((c) => c.id)).toEqual([2]);
    expect(trusted.size).toBe(1);
  });
  it('knows each sender\'s window kind and what that kind may call (per-window scopes)', () => {
    const trusted = new TrustedSenders({ rendererDir });
    trusted.add(new FakeContents(1), 'capture');
    trusted.add(new FakeContents(2), 'settings');
    const capture = trusted.scopeOf({ id: 1, frameUrl: 'app://tingxie/capture/index.html' });
    expect(capture?.kind).toBe('capture');
    expect(capture?.mayCall('capture:frames')).toBe(true);
    for (const ch of ['secrets:set', 'history:delete-all', 'dictation:deliver'] as const) expect(capture?.mayCall(ch), ch).toBe(false);
    expect(trusted.scopeOf({ id: 2, frameUrl: page })?.mayCall('secrets:set')).toBe(true);
    expect(trusted.scopeOf({ id: 3, frameUrl: page })).toBeUndefined();
  });
  it('ignores an already destroyed webContents', () => {
    const trusted = new TrustedSenders({ rendererDir });
    const c = new FakeContents(5);
    c.destroy();
    trusted.add(c, 'settings');
    expect(trusted.has(5, page)).toBe(false);
  });
});
