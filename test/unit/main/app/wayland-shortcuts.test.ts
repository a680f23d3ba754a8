import { describe, expect, it } from 'vitest';
import { enablePortalShortcuts, PORTAL_FEATURE } from '../../../../src/main/app/wayland-shortcuts.ts';

/** app.commandLine as Chromium keeps it: the last value of a switch wins. */
function commandLine(initial: Record<string, string> = {}) {
  const switches = new Map(Object.entries(initial));
  return { switches, appendSwitch: (n: string, v?: string) => void switches.set(n, v ?? ''), getSwitchValue: (n: string) => switches.get(n) ?? '' };
}

describe('the GlobalShortcuts portal switch (Electron ≥ 35, Wayland)', () => {
  it('is enabled in a Linux Wayland session, keeping features already enabled', () => {
    const c = commandLine({ 'enable-features': 'WaylandWindowDecorations' });
    expect(enablePortalShortcuts(c, 'linux', { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' })).toBe(true);
    expect(c.switches.get('enable-features')).toBe(`WaylandWindowDecorations,${PORTAL_FEATURE}`);
    enablePortalShortcuts(c, 'linux', { XDG_SESSION_TYPE: 'wayland' });
    expect(c.switches.get('enable-features')).toBe(`WaylandWindowDecorations,${PORTAL_FEATURE}`);
  });

  it('is left alone on X11, Windows and macOS', () => {
    for (const [platform, env] of [['linux', { XDG_SESSION_TYPE: 'x11', DISPLAY: ':0' }], ['win32', {}], ['darwin', {}]] as const) {
      const c = commandLine();
      expect(enablePortalShortcuts(c, platform, env)).toBe(false);
      expect(c.switches.size).toBe(0);
    }
  });
});
