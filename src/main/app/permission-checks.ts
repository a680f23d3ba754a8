/**
 * The setup guide's permission checks as pure functions of what was read (onboarding-permissions.ts reads
 * the OS; the tests call these without Electron).
 */
import type { CaptureStatus } from '../../shared/ipc/dictation-types.ts';
import type { PermissionCheck } from '../../shared/ipc/onboarding-contract.ts';

/** A getMediaAccessStatus answer as a check state ('restricted' is a denial the user cannot lift). */
export function mediaState(status: string): PermissionCheck['state'] {
  if (status === 'granted') return 'granted';
  if (status === 'denied' || status === 'restricted') return 'denied';
  if (status === 'not-determined') return 'not-determined';
  return 'unknown';
}

/** The microphone as the capture window last saw it. */
export function captureState(status: CaptureStatus | null): PermissionCheck['state'] {
  if (status === null) return 'unknown';
  return status.state === 'error' ? 'denied' : 'granted';
}

/** The checks for this OS, pure over what was read (unit-tested without Electron). */
export function permissionChecks(platform: string, read: { readonly os: PermissionCheck['state'] | null; readonly capture: PermissionCheck['state']; readonly trusted: boolean | null; readonly hook: boolean }): PermissionCheck[] {
  // The OS says granted but the device did not open (or the reverse): the capture window's word wins once it spoke.
  const mic = read.capture !== 'unknown' && read.os !== 'not-determined' ? read.capture : (read.os ?? read.capture);
  const checks: PermissionCheck[] = [{ id: 'microphone', state: mic, canOpen: platform === 'darwin' || platform === 'win32' }];
  if (platform === 'darwin') checks.push({ id: 'accessibility', state: read.trusted === true ? 'granted' : 'denied', canOpen: true });
  checks.push({ id: 'key-hook', state: read.hook ? 'granted' : 'denied', canOpen: platform === 'darwin' });
  return checks;
}
