// PasteService with in-memory ports: the OS parts (clipboard, focus, keystrokes) are fakes here
// because this tests the ordering and decisions; test/unit/platform-x11 runs the real ones on Xvfb.
import { describe, expect, it } from 'vitest';
import type { FocusPort } from '../../../../src/main/platform/focus.ts';
import type { FocusTarget, PasteKeys } from '../../../../src/main/platform/paste-plan.ts';
import { PasteService, type ClipboardPort } from '../../../../src/main/platform/paste.ts';

const XTERM: FocusTarget = { id: '42', wmClass: ['xterm', 'xterm'], app: 'xterm' };
const PANEL: FocusTarget = { id: '77', wmClass: ['tingxie', 'tingxie'], app: 'tingxie' };

function fakes(opts: { failKeys?: boolean; failFocus?: boolean; target?: FocusTarget | null } = {}) {
  const log: string[] = [];
  // The window focused now: the target at key-down; a test moves it (the preview panel took the focus).
  let focused: FocusTarget | null = opts.target === undefined ? XTERM : opts.target;
  let board = 'user text';
  const clipboard: ClipboardPort = {
    readText: async () => board,
    snapshot: async () => ({ saved: board }),
    restore: async (s) => {
      board = (s as { saved: string }).saved;
      log.push(`restore:${board}`);
    },
    writeTransient: async (t) => {
      board = t;
      log.push(`transient:${t}`);
    },
    writeText: async (t) => {
      board = t;
      log.push(`copy:${t}`);
    },
  };
  const focus: FocusPort = {
    current: async () => focused,
    activate: async (t) => {
      log.push(`focus:${t.id}`);
      if (opts.failFocus) throw new Error('window is gone');
      focused = t;
    },
  };
  const keys = {
    send: async (k: PasteKeys) => {
      log.push(`keys:${k}`);
      if (opts.failKeys) throw new Error('xdotool is not installed');
    },
  };
  const sleeps: number[] = [];
  const service = new PasteService({
    platform: 'linux',
    clipboard,
    focus,
    keys,
    restoreClipboard: () => true,
    sleep: async (ms) => {
      sleeps.push(ms);
      await new Promise((r) => setTimeout(r, 1));
    },
  });
  return { service, log, sleeps, setBoard: (t: string) => (board = t), board: () => board, focus: (t: FocusTarget | null) => (focused = t) };
}

describe('PasteService', () => {
  it('writes transient text, re-focuses the remembered terminal the panel took the focus from, pastes with Ctrl+Shift+V, then restores', async () => {
    const f = fakes();
    f.service.rememberTarget();
    f.focus(PANEL);
    const r = await f.service.run('hello', 'paste');
    expect(r).toMatchObject({ ok: true, keys: 'ctrl+shift+v' });
    expect(await r.finished).toBe('restored');
    expect(f.log).toEqual(['transient:hello', 'focus:42', 'keys:ctrl+shift+v', 'restore:user text']);
    expect(f.sleeps).toEqual([60, 1000]);
  });

  it('a submit key follows the paste after a settle wait (Ctrl+Enter off macOS), before the clipboard is restored', async () => {
    const f = fakes({ target: { id: '5', wmClass: ['slack', 'Slack'], app: 'Slack' } });
    f.service.rememberTarget();
    const r = await f.service.run('hello', 'paste', 'mod+enter');
    expect(r).toMatchObject({ ok: true, keys: 'ctrl+v ctrl+Return' });
    expect(await r.finished).toBe('restored');
    expect(f.log).toEqual(['transient:hello', 'keys:ctrl+v', 'keys:ctrl+Return', 'restore:user text']);
    expect(f.sleeps).toEqual([250, 1000]);
    // Copy-only output never presses anything.
    const c = await f.service.run('x', 'copy', 'enter');
    expect(c.keys).toBeUndefined();
    expect(f.log.at(-1)).toBe('copy:x');
  });

  it('does not re-focus or wait when the focus never left the target (preview off): the keystroke follows the write', async () => {
    const f = fakes();
    f.service.rememberTarget();
    const r = await f.service.run('hello', 'paste');
    expect(r).toMatchObject({ ok: true, keys: 'ctrl+shift+v' });
    expect(await r.finished).toBe('restored');
    expect(f.log).toEqual(['transient:hello', 'keys:ctrl+shift+v', 'restore:user text']);
    expect(f.sleeps).toEqual([1000]);
  });

  it('re-focuses when the focus cannot be read now (never paste into the wrong app)', async () => {
    const f = fakes();
    f.service.rememberTarget();
    await f.service.remembered();
    f.focus(null);
    const r = await f.service.run('hello', 'paste');
    expect(r.ok).toBe(true);
    expect(f.log.slice(0, 3)).toEqual(['transient:hello', 'focus:42', 'keys:ctrl+shift+v']);
    expect(f.sleeps[0]).toBe(60);
  });

  it('asks only for the focused window id when the focus port can (no WM_CLASS lookup per paste)', async () => {
    const calls: string[] = [];
    const focus: FocusPort = {
      current: async () => (calls.push('current'), XTERM),
      focusedId: async () => (calls.push('focusedId'), XTERM.id),
      activate: async () => void calls.push('activate'),
    };
    const service = new PasteService({ platform: 'linux', clipboard: { readText: async () => '', snapshot: async () => null, restore: async () => undefined, writeTransient: async () => undefined, writeText: async () => undefined }, focus, keys: { send: async () => undefined }, restoreClipboard: () => false, sleep: async () => undefined });
    service.rememberTarget();
    expect((await service.run('x', 'paste')).ok).toBe(true);
    expect(calls).toEqual(['current', 'focusedId']);
  });

  it('gets the keystroke ready at key-down (rememberTarget), not at paste time', async () => {
    const calls: string[] = [];
    const focus: FocusPort = { current: async () => XTERM, activate: async () => undefined };
    const keys = { prepare: () => void calls.push('prepare'), send: async () => void calls.push('send') };
    const service = new PasteService({ platform: 'linux', clipboard: { readText: async () => '', snapshot: async () => null, restore: async () => undefined, writeTransient: async () => undefined, writeText: async () => undefined }, focus, keys, restoreClipboard: () => false, sleep: async () => undefined });
    service.rememberTarget();
    expect(calls).toEqual(['prepare']);
    await service.run('x', 'paste');
    expect(calls).toEqual(['prepare', 'send']);
  });

  it('restores the clipboard only after the keystroke was sent', async () => {
    const f = fakes();
    f.service.rememberTarget();
    const r = await f.service.run('hello', 'paste');
    await r.finished;
    expect(f.log.indexOf('restore:user text')).toBeGreaterThan(f.log.indexOf('keys:ctrl+shift+v'));
  });

  it('serializes pastes: the second snapshot is taken after the first restore', async () => {
    const f = fakes({ target: null });
    const [a, b] = await Promise.all([f.service.run('one', 'paste'), f.service.run('two', 'paste')]);
    await Promise.all([a.finished, b.finished]);
    expect(f.log).toEqual(['transient:one', 'keys:ctrl+v', 'restore:user text', 'transient:two', 'keys:ctrl+v', 'restore:user text']);
    expect(f.board()).toBe('user text');
  });

  it('does not restore when the user copied something meanwhile', async () => {
    const f = fakes({ target: null });
    const r = await f.service.run('dictated', 'paste');
    f.setBoard('copied by the user');
    expect(await r.finished).toBe('kept');
    expect(f.board()).toBe('copied by the user');
  });

  it('a failed keystroke leaves the text on the clipboard and says so', async () => {
    const f = fakes({ failKeys: true });
    f.service.rememberTarget();
    const r = await f.service.deliver('keep me', 'paste');
    expect(r.ok).toBe(false);
    expect(r.notice).toEqual({ code: 'paste-failed', reason: 'xdotool is not installed', app: 'xterm' });
    expect(f.board()).toBe('keep me');
  });

  it('a window that cannot be re-focused gets no keystroke (never paste into the wrong app)', async () => {
    const f = fakes({ failFocus: true });
    f.service.rememberTarget();
    f.focus(PANEL);
    const r = await f.service.deliver('x', 'paste');
    expect(r.ok).toBe(false);
    expect(f.log.some((l) => l.startsWith('keys:'))).toBe(false);
    expect(f.board()).toBe('x');
  });

  it('copy-only writes an ordinary clipboard entry and never restores', async () => {
    const f = fakes();
    const r = await f.service.run('copied', 'copy');
    expect(r.ok).toBe(true);
    expect(await r.finished).toBe('kept');
    expect(f.log).toEqual(['copy:copied']);
  });

  it('copySelection sends the copy keystroke, returns the selection and restores the clipboard', async () => {
    const f = fakes();
    const orig = f.log.length;
    const p = f.service.copySelection(500);
    // The target app "copies" once the keystroke arrived.
    const wait = setInterval(() => {
      if (f.log.includes('keys:ctrl+shift+c')) {
        f.setBoard('selected words');
        clearInterval(wait);
      }
    }, 1);
    expect(await p).toBe('selected words');
    expect(f.log.slice(orig).at(-1)).toBe('restore:user text');
  });
});
