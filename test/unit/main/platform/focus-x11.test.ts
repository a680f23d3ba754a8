// x11Focus's queries, with the helper commands recorded (test/unit/platform-x11 runs them for real):
// the paste asks only for the focused window's id, and a query that failed (no window manager:
// `getactivewindow` has no _NET_ACTIVE_WINDOW) is not paid again on every paste.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => ({ calls: [] as string[], wm: false }));
vi.mock('../../../../src/main/platform/run-command.ts', () => ({
  runCommand: async (cmd: string, args: readonly string[]) => {
    const line = [cmd, ...args].join(' ');
    h.calls.push(line);
    if (line === 'xdotool getactivewindow') return h.wm ? { code: 0, stdout: '42\n', stderr: '' } : { code: 1, stdout: '', stderr: 'Your windowmanager claims not to support _NET_ACTIVE_WINDOW' };
    if (line === 'xdotool getwindowfocus') return { code: 0, stdout: '42\n', stderr: '' };
    if (cmd === 'xprop') return { code: 0, stdout: 'WM_CLASS(STRING) = "xterm", "XTerm"\n', stderr: '' };
    return { code: 0, stdout: '', stderr: '' };
  },
  describeFailure: (cmd: string) => `${cmd} failed`,
}));

const { x11Focus } = await import('../../../../src/main/platform/focus.ts');

beforeEach(() => {
  h.calls = [];
  h.wm = false;
});

describe('x11Focus', () => {
  it('current() falls back to the input focus without a window manager, and reads WM_CLASS', async () => {
    const f = x11Focus({});
    expect(await f.current()).toEqual({ id: '42', wmClass: ['xterm', 'xterm'], wmClassAsWritten: ['xterm', 'XTerm'], app: 'xterm' });
    expect(h.calls).toEqual(['xdotool getactivewindow', 'xdotool getwindowfocus', 'xprop -id 42 WM_CLASS']);
  });

  it('focusedId() asks one query and no WM_CLASS once it knows which query answers', async () => {
    const f = x11Focus({});
    await f.current();
    h.calls = [];
    expect(await f.focusedId?.()).toBe('42');
    expect(h.calls).toEqual(['xdotool getwindowfocus']);
  });

  it('asks for the active window first where a window manager answers (a desktop)', async () => {
    h.wm = true;
    const f = x11Focus({});
    expect(await f.focusedId?.()).toBe('42');
    expect(h.calls).toEqual(['xdotool getactivewindow']);
  });
});
