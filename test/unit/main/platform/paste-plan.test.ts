import { describe, expect, it } from 'vitest';
import { displayServer, isTerminalClass, keysFor, parseWmClass, restoreDecision, transientMarkers } from '../../../../src/main/platform/paste-plan.ts';

describe('terminal detection', () => {
  it('parses xprop WM_CLASS output', () => {
    expect(parseWmClass('WM_CLASS(STRING) = "gnome-terminal-server", "Gnome-terminal"\n')).toEqual(['gnome-terminal-server', 'gnome-terminal']);
    expect(parseWmClass('WM_CLASS:  not found.\n')).toEqual([]);
  });
  it.each([
    [['xterm', 'xterm'], true],
    [['gnome-terminal-server', 'gnome-terminal'], true],
    [['alacritty', 'Alacritty'], true],
    [['org.wezfurlong.wezterm'], true],
    [['kitty'], true],
    [['chromium', 'Chromium'], false],
    [['code', 'Code'], false],
    [[], false],
  ])('%j → terminal %s', (cls, terminal) => expect(isTerminalClass(cls)).toBe(terminal));

  it('terminals on Linux paste with Ctrl+Shift+V, elsewhere the platform default', () => {
    const term = { id: '1', wmClass: ['konsole', 'konsole'] };
    expect(keysFor('paste', 'linux', term)).toBe('ctrl+shift+v');
    expect(keysFor('copy', 'linux', term)).toBe('ctrl+shift+c');
    expect(keysFor('paste', 'linux', { id: '2', wmClass: ['firefox'] })).toBe('ctrl+v');
    expect(keysFor('paste', 'linux', null)).toBe('ctrl+v');
    expect(keysFor('paste', 'darwin', { id: 'com.apple.Terminal' })).toBe('cmd+v');
    expect(keysFor('paste', 'win32', null)).toBe('ctrl+v');
  });
});

describe('display server', () => {
  it.each([
    [{ XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }, 'wayland'],
    [{ XDG_SESSION_TYPE: 'x11', DISPLAY: ':0' }, 'x11'],
    [{ DISPLAY: ':1' }, 'x11'],
    [{ WAYLAND_DISPLAY: 'wayland-0' }, 'wayland'],
    [{}, 'none'],
  ])('%j → %s', (env, expected) => expect(displayServer(env)).toBe(expected));
});

describe('transient clipboard markers', () => {
  it('names the formats each OS’s clipboard managers honour', () => {
    expect(transientMarkers('darwin').map((m) => m.format)).toContain('org.nspasteboard.TransientType');
    expect(transientMarkers('darwin').map((m) => m.format)).toContain('org.nspasteboard.ConcealedType');
    const win = transientMarkers('win32');
    expect(win.map((m) => m.format)).toEqual(expect.arrayContaining(['ExcludeClipboardContentFromMonitorProcessing', 'CanIncludeInClipboardHistory']));
    expect([...(win.find((m) => m.format === 'CanIncludeInClipboardHistory')?.data ?? [1])]).toEqual([0, 0, 0, 0]);
    expect(transientMarkers('linux')).toEqual([{ format: 'x-kde-passwordManagerHint', data: new TextEncoder().encode('secret') }]);
  });
});

describe('restoreDecision', () => {
  it('restores only when enabled, pasted, and the clipboard still holds what was written', () => {
    expect(restoreDecision({ enabled: true, pasted: true, written: 'x', current: 'x' })).toEqual({ restore: true });
    expect(restoreDecision({ enabled: false, pasted: true, written: 'x', current: 'x' })).toEqual({ restore: false, reason: 'disabled' });
    expect(restoreDecision({ enabled: true, pasted: false, written: 'x', current: 'x' })).toEqual({ restore: false, reason: 'paste-failed' });
    expect(restoreDecision({ enabled: true, pasted: true, written: 'x', current: 'user copied this' })).toEqual({ restore: false, reason: 'changed' });
    expect(restoreDecision({ enabled: true, pasted: true, written: 'x', current: null })).toEqual({ restore: false, reason: 'changed' });
  });
});

describe('submit keys per platform', () => {
  it('Enter and Shift+Enter everywhere; the modifier chord is Cmd+Enter on macOS, Ctrl+Enter elsewhere', async () => {
    const { submitKeysFor } = await import('../../../../src/main/platform/paste-plan.ts');
    expect(['darwin', 'win32', 'linux'].map((p) => submitKeysFor('enter', p as NodeJS.Platform))).toEqual(['Return', 'Return', 'Return']);
    expect(submitKeysFor('shift+enter', 'win32')).toBe('shift+Return');
    expect(submitKeysFor('mod+enter', 'darwin')).toBe('cmd+Return');
    expect(submitKeysFor('mod+enter', 'win32')).toBe('ctrl+Return');
    expect(submitKeysFor('mod+enter', 'linux')).toBe('ctrl+Return');
  });
});
