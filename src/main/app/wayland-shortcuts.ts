/**
 * Global shortcuts in a Wayland session. Electron (≥ 35) can bind them through the desktop's
 * GlobalShortcuts portal (xdg-desktop-portal: KDE Plasma 6, GNOME 48+, Hyprland) when started with the
 * `GlobalShortcutsPortal` feature, as its globalShortcut documentation shows; without it, shortcuts are
 * X11 key grabs that only fire while an XWayland window has focus. The portal reports presses only
 * (Electron's callback has no release), so hold-to-talk cannot use it: hotkeys.ts registers the toggle
 * shortcut there and says that hold-to-talk works only in X11 apps. The switch must be set before the
 * app is ready.
 */
import type { CommandLine } from 'electron';
import { displayServer } from '../platform/paste-plan.ts';

/** The Chromium feature that routes globalShortcut through the portal. */
export const PORTAL_FEATURE = 'GlobalShortcutsPortal';

/**
 * Enables the portal feature in a Linux Wayland session, keeping any features already enabled on the
 * command line (the switch's last value wins in Chromium). Returns whether it did.
 */
export function enablePortalShortcuts(commandLine: Pick<CommandLine, 'appendSwitch' | 'getSwitchValue'>, platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): boolean {
  if (platform !== 'linux' || displayServer(env) !== 'wayland') return false;
  const features = commandLine.getSwitchValue('enable-features').split(',').map((f) => f.trim()).filter((f) => f !== '');
  if (!features.includes(PORTAL_FEATURE)) features.push(PORTAL_FEATURE);
  commandLine.appendSwitch('enable-features', features.join(','));
  return true;
}
