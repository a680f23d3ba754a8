/**
 * The app://tingxie/ protocol (Electron security checklist item 18,
 * https://www.electronjs.org/docs/latest/tutorial/security): serves the built renderer
 * folder only, with correct MIME types and the CSP header, and refuses traversal, other hosts, other
 * methods and file types it does not ship. Real files in a temp folder, real web Responses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SCHEME_PRIVILEGES, appUrl, resolveAppRequest, serveAppRequest } from '../../../../src/main/app/app-protocol.ts';
import { CONTENT_SECURITY_POLICY } from '../../../../src/shared/csp.ts';

let root: string;
let rendererDir: string;
const logged: Record<string, unknown>[] = [];
const log = (message: string, fields: Record<string, unknown>): void => void logged.push({ message, ...fields });
const get = (url: string, method = 'GET'): Promise<Response> => serveAppRequest({ url, method }, rendererDir, log);

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-proto-'));
  rendererDir = path.join(root, 'out', 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'settings'), { recursive: true });
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'settings', 'index.html'), '<!doctype html><title>s</title>');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'a b.js'), 'export {}');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'x.css'), 'body{}');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'start.wav'), Buffer.from('RIFF'));
  fs.writeFileSync(path.join(rendererDir, 'assets', 'x.js.map'), '{}');
  // Secrets next to the renderer folder, which traversal must never reach.
  fs.writeFileSync(path.join(root, 'secrets.json'), '{"k":"sk-secret"}');
  fs.mkdirSync(path.join(root, 'out', 'renderer-evil'), { recursive: true });
  fs.writeFileSync(path.join(root, 'out', 'renderer-evil', 'x.js'), 'evil');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('app:// protocol', () => {
  it('is registered standard + secure (relative module scripts, secure context for the microphone), nothing more', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } });
  });

  it('serves the built pages with their MIME type, nosniff, and the CSP header on HTML', async () => {
    const html = await get(appUrl('settings/index.html'));
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await html.text()).toContain('<title>s</title>');
    const js = await get('app://tingxie/assets/a%20b.js');
    expect([js.status, js.headers.get('content-type'), js.headers.get('content-security-policy')]).toEqual([200, 'text/javascript; charset=utf-8', null]);
    expect((await get('app://tingxie/assets/x.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await get('app://tingxie/assets/start.wav')).headers.get('content-type')).toBe('audio/wav');
    const head = await get('app://tingxie/settings/index.html', 'HEAD');
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('refuses path traversal in every spelling, and never reads outside the renderer folder', async () => {
    const attempts = [
      'app://tingxie/..%2Fsecrets.json',
      'app://tingxie/..%2F..%2Fsecrets.json',
      'app://tingxie/settings/..%2F..%2F..%2Fsecrets.json',
      'app://tingxie/%2e%2e%2f%2e%2e%2fsecrets.json',
      'app://tingxie/..%5C..%5Csecrets.json',
      'app://tingxie/settings\\..\\..\\..\\secrets.json',
      'app://tingxie/%2Fetc%2Fpasswd',
      'app://tingxie/settings/index.html%00.js',
      'app://tingxie/../renderer-evil/x.js',
      'app://tingxie/%E0%A4%A',
    ];
    for (const url of attempts) {
      const r = await get(url);
      expect(r.status, url).toBeGreaterThanOrEqual(400);
      expect(await r.text(), url).not.toContain('sk-secret');
    }
    // The URL parser folds plain ../ away first: it then asks for a file inside the folder, which is missing.
    expect(resolveAppRequest('app://tingxie/../../secrets.json', 'GET', rendererDir)).toEqual({ kind: 'file', file: path.join(rendererDir, 'secrets.json'), mime: 'application/json; charset=utf-8' });
    expect((await get('app://tingxie/../../secrets.json')).status).toBe(404);
    expect(logged.some((l) => l.reason === 'path traversal refused')).toBe(true);
  });

  it('refuses other hosts, credentials, other methods, directories, unknown types and missing files', async () => {
    const cases: [string, string, number][] = [
      ['app://evil/settings/index.html', 'GET', 404],
      ['app://user:pw@tingxie/settings/index.html', 'GET', 404],
      ['app://tingxie:8080/settings/index.html', 'GET', 404],
      ['file:///etc/passwd', 'GET', 404],
      ['app://tingxie/settings/index.html', 'POST', 405],
      ['app://tingxie/settings/index.html', 'PUT', 405],
      ['app://tingxie/', 'GET', 404],
      ['app://tingxie/settings', 'GET', 404],
      ['app://tingxie/settings/', 'GET', 404],
      ['app://tingxie/assets/x.js.map', 'GET', 404],
      ['app://tingxie/settings/missing.html', 'GET', 404],
      ['not a url', 'GET', 400],
    ];
    for (const [url, method, status] of cases) expect((await get(url, method)).status, `${method} ${url}`).toBe(status);
  });
});
