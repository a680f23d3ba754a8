// PasteService with in-memory ports: the OS parts (clipboard, focus, keystrokes) are fakes here
// because this tests the ordering and decisions; test/unit/platform-x11 runs the real ones on Xvfb.
import { describe, expect, it } from 'vitest';
import type { FocusPort } from '../../../../src/main/platform/focus.ts';
import type { FocusTarget, PasteKeys } from '../../../../src/main/platform/paste-plan.ts';
import { PasteService, type ClipboardPort } from '../../../../src/main/platform/paste.ts';

function fakes(opts: { failKeys?: boolean; failFocus?: boolean; target?: FocusTarget | null } = {}) {
  const log: string[] = [];
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
    current: async () => (opts.target === undefined ? { id: '42', wmClass: ['xterm', 'xterm'], app: 'xterm' } : opts.target),
    activate: async (t) => {
      log.push(`focus:${t.id}`);
      if (opts.failFocus) throw new Error('window is gone');
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
  return { service, log, sleeps, setBoard: (t: string) => (board = t), board: () => board };
}

describe('PasteService', () => {
  it('writes transient text, re-focuses the remembered terminal, pastes with Ctrl+Shift+V, then restores', async () => {
    const f = fakes();
    f.service.rememberTarget();
    const r = await f.service.run('hello', 'paste');
    expect(r).toMatchObject({ ok: true, keys: 'ctrl+shift+v' });
    expect(await r.finished).toBe('restored');
    expect(f.log).toEqual(['transient:hello', 'focus:42', 'keys:ctrl+shift+v', 'restore:user text']);
    expect(f.sleeps).toEqual([60, 1000]);
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
