/**
 * macOS permission checks with a clear explanation when one is missing: the microphone (recording) and
 * Accessibility (the global key hook and the paste keystroke). Other platforms need neither. The
 * messages are pure so they are tested and translated in one place; `checkMacPermissions` is the
 * Electron glue.
 */
import { systemPreferences } from 'electron';

/** One missing permission and what it breaks. */
export interface PermissionProblem {
  readonly permission: 'microphone' | 'accessibility';
  readonly message: string;
}

/** The problems for a microphone status (Electron's getMediaAccessStatus) and the Accessibility trust flag. */
export function permissionProblems(microphone: string, accessibility: boolean): readonly PermissionProblem[] {
  const out: PermissionProblem[] = [];
  if (microphone === 'denied' || microphone === 'restricted') {
    out.push({
      permission: 'microphone',
      message: 'Tingxie cannot use the microphone. Allow it in System Settings → Privacy & Security → Microphone, then restart Tingxie.',
    });
  }
  if (!accessibility) {
    out.push({
      permission: 'accessibility',
      message:
        'Tingxie needs the Accessibility permission to see the hold-to-talk key and to paste into other apps. Allow it in System Settings → Privacy & Security → Accessibility (after an update, remove Tingxie there and add it again), then restart Tingxie.',
    });
  }
  return out;
}

/** Checks (and, where the OS lets an app ask, requests) the macOS permissions; empty elsewhere. */
export async function checkMacPermissions(): Promise<readonly PermissionProblem[]> {
  if (process.platform !== 'darwin') return [];
  let mic = systemPreferences.getMediaAccessStatus('microphone');
  if (mic === 'not-determined') mic = (await systemPreferences.askForMediaAccess('microphone')) ? 'granted' : 'denied';
  // `true` shows the system prompt once if the app is not trusted yet.
  const trusted = systemPreferences.isTrustedAccessibilityClient(false) || systemPreferences.isTrustedAccessibilityClient(true);
  return permissionProblems(mic, trusted);
}
