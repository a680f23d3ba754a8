// Input context on X11 against a real X server (Xvfb): a real window whose class and
// title are known (xmessage: WM_CLASS "<-name>", "Xmessage"), focused as the user's app would be at
// key-down, read through the same xdotool/xprop calls the app makes.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputContextLine } from '../../../src/main/enhance/input-context-line.ts';
import { x11Focus } from '../../../src/main/platform/focus.ts';
import { domainIn, windowTitleOf, x11InputContext } from '../../../src/main/platform/input-context.ts';
import { runCommand } from '../../../src/main/platform/run-command.ts';
import { missingX11Tools, startXvfb, type Xvfb } from '../../helpers/xvfb.ts';

const hasXmessage = (process.env.PATH ?? '').split(path.delimiter).some((d) => d !== '' && fs.existsSync(path.join(d, 'xmessage')));
const missing = [...missingX11Tools(), ...(hasXmessage ? [] : ['xmessage (apt package x11-utils)'])];
if (missing.length > 0) console.warn(`X11 input-context tests skipped: missing ${missing.join(', ')}`);

describe.skipIf(missing.length > 0)('input context on X11 (Xvfb, a real window)', () => {
  let x: Xvfb;
  let win: ChildProcess | undefined;
  let id = '';
  const TITLE = 'PR #12 · GitHub — Mozilla Firefox';
  beforeAll(async () => {
    x = await startXvfb();
    win = spawn('xmessage', ['-name', 'tingxie-probe', '-title', TITLE, 'a window the user dictates into'], { env: x.env, stdio: 'ignore' });
    // xmessage maps its window within ~100 ms alone; with the whole suite on two cores it can take seconds.
    const end = Date.now() + 20_000;
    while (id === '' && Date.now() < end) {
      const r = await runCommand('xdotool', ['search', '--name', 'PR #12'], { env: x.env, timeoutMs: 2000 });
      id = r.stdout.trim().split('\n')[0] ?? '';
      if (id === '') await new Promise((r) => setTimeout(r, 50));
    }
    // The user's app has the keyboard focus at key-down (no window manager here: windowfocus).
    await runCommand('xdotool', ['windowfocus', '--sync', id], { env: x.env, timeoutMs: 2000 });
  }, 30_000);
  afterAll(async () => {
    win?.kill();
    await x?.stop();
  });

  it('basic: the app name (WM_CLASS class) and the instance as bundle_id, no title', async () => {
    expect(id).toMatch(/^\d+$/);
    const ctx = await x11InputContext(x.env).capture('basic');
    expect(ctx).toEqual({ app_name: 'Xmessage', bundle_id: 'tingxie-probe' });
    expect(inputContextLine(ctx, 'basic')).toBe('Xmessage');
  });

  it('detailed: adds the window title', async () => {
    const ctx = await x11InputContext(x.env).capture('detailed');
    expect(ctx).toEqual({ app_name: 'Xmessage', bundle_id: 'tingxie-probe', window_title: TITLE });
    expect(inputContextLine(ctx, 'detailed')).toBe(`Xmessage, ${JSON.stringify(TITLE)}`);
  });

  it('detailed: a UTF-8 title (set through _NET_WM_NAME) comes back as written, with the domain when the title has a URL', async () => {
    const title = '会议纪要 https://www.example.org/doc?id=1 - 飞书';
    await runCommand('xdotool', ['set_window', '--name', title, id], { env: x.env, timeoutMs: 2000 });
    const ctx = await x11InputContext(x.env).capture('detailed');
    expect(ctx).toEqual({ app_name: 'Xmessage', bundle_id: 'tingxie-probe', window_title: title, browser_domain: 'example.org' });
  });

  it('key-down asks the shared focus port twice (paste target, input context) and one lookup answers both', async () => {
    const focus = x11Focus(x.env);
    let lookups = 0;
    const counted = { current: () => (lookups++, focus.current()) };
    const pasteTarget = focus.current();
    const [target, ctx] = await Promise.all([pasteTarget, x11InputContext(x.env, counted).capture('basic')]);
    expect(lookups).toBe(1);
    // The same run: the paste's target is the very object the input context read its class from.
    expect(await counted.current()).not.toBe(target); // a later call looks again (nothing is cached after the run)
    expect(target).toMatchObject({ id, wmClass: ['tingxie-probe', 'xmessage'], wmClassAsWritten: ['tingxie-probe', 'Xmessage'] });
    expect(ctx).toEqual({ app_name: 'Xmessage', bundle_id: 'tingxie-probe' });
    const a = focus.current();
    expect(focus.current()).toBe(a);
    await a;
  });

  it('without a display it says nothing (null), never throws', async () => {
    expect(await x11InputContext({ ...x.env, DISPLAY: ':1999' }).capture('detailed')).toBeNull();
  });
});

describe('domainIn', () => {
  it.each([
    ['Issue · https://github.com/o/r/issues/1', 'github.com'],
    ['http://localhost:3000/x', undefined],
    ['plain title - Mozilla Firefox', undefined],
    ['HTTPS://WWW.Example.COM:8443/', 'example.com'],
  ])('%s → %s', (title, domain) => {
    expect(domainIn(title)).toBe(domain);
  });
});

describe('windowTitleOf (xprop output)', () => {
  it.each([
    ['_NET_WM_NAME(UTF8_STRING) = "会议纪要 - 飞书"\nWM_NAME(STRING) = "x"', '会议纪要 - 飞书'],
    // Without a UTF-8 locale xprop escapes the bytes in octal.
    ['_NET_WM_NAME(UTF8_STRING) = "\\344\\274\\232 \\"q\\""', '会 "q"'],
    ['_NET_WM_NAME:  not found.\nWM_NAME(COMPOUND_TEXT) = "PR #12 · GitHub"', 'PR #12 · GitHub'],
    ['_NET_WM_NAME:  not found.\nWM_NAME:  not found.', ''],
  ])('%s → %s', (out, title) => {
    expect(windowTitleOf(out)).toBe(title);
  });
});
