/**
 * The setup guide's permission checks, live (the window asks again every few seconds, so a check turns
 * green as soon as the user flips the switch), and the buttons that open the right system pane.
 *
 * - macOS: the microphone through systemPreferences.getMediaAccessStatus / askForMediaAccess and
 *   Accessibility through isTrustedAccessibilityClient (https://www.electronjs.org/docs/latest/api/system-preferences):
 *   the global key hook and the paste keystroke need it. The panes are opened by their
 *   `x-apple.systempreferences:` addresses; Input Monitoring (Privacy_ListenEvent) has no Electron check, so
 *   the key hook's own start is its check.
 * - Windows: getMediaAccessStatus('microphone') (the same page: macOS and Windows) and the microphone privacy
 *   page `ms-settings:privacy-microphone`
 *   (https://learn.microsoft.com/en-us/windows/apps/develop/launch/launch-settings-app). No other permission.
 * - Linux: no permission API; the capture window's own report (the microphone opened or not) and the key
 *   hook's start are the checks; on Wayland the hook sees X11 apps only (hotkeys.ts says why).
 * Everywhere the microphone check also reads the capture window's last report, which is what recording uses.
 */
import { shell, systemPreferences } from 'electron';
import type { CaptureStatus } from '../../shared/ipc/dictation-types.ts';
import type { PermissionId, PermissionReport } from '../../shared/ipc/onboarding-contract.ts';
import type { DisplayServer } from '../platform/paste-plan.ts';
import { captureState, mediaState, permissionChecks } from './permission-checks.ts';

/** What the checks read. */
export interface PermissionDeps {
  readonly platform: NodeJS.Platform;
  readonly session: DisplayServer;
  /** The capture window's last ready/error report (null before it reported). */
  readonly capture: () => CaptureStatus | null;
  /** Whether the global key hook runs. */
  readonly hookRunning: () => boolean;
}

const MAC_PANES: Readonly<Record<PermissionId, string>> = {
  microphone: 'x-apple.systempreferences:com.apple.preference.security?Privacy_Microphone',
  accessibility: 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility',
  'key-hook': 'x-apple.systempreferences:com.apple.preference.security?Privacy_ListenEvent',
};

/** Reads the checks now. */
export function readPermissions(deps: PermissionDeps): PermissionReport {
  const mediaOs = deps.platform === 'darwin' || deps.platform === 'win32' ? mediaState(systemPreferences.getMediaAccessStatus('microphone')) : null;
  const trusted = deps.platform === 'darwin' ? systemPreferences.isTrustedAccessibilityClient(false) : null;
  return {
    platform: deps.platform,
    session: deps.platform === 'linux' ? deps.session : null,
    checks: permissionChecks(deps.platform, { os: mediaOs, capture: captureState(deps.capture()), trusted, hook: deps.hookRunning() }),
  };
}

/** Opens the pane for `id` (or the OS's own prompt when it has not asked yet); false where there is none. */
export async function openPermissionPane(platform: NodeJS.Platform, id: PermissionId): Promise<boolean> {
  if (platform === 'darwin') {
    if (id === 'microphone' && systemPreferences.getMediaAccessStatus('microphone') === 'not-determined') {
      await systemPreferences.askForMediaAccess('microphone');
      return true;
    }
    // `true` shows the system's own prompt once, which also adds Tingxie to the list in the pane.
    if (id === 'accessibility') systemPreferences.isTrustedAccessibilityClient(true);
    await shell.openExternal(MAC_PANES[id]);
    return true;
  }
  if (platform === 'win32' && id === 'microphone') {
    await shell.openExternal('ms-settings:privacy-microphone');
    return true;
  }
  return false;
}
