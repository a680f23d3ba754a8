/** What a saved config change re-applies in the running app: the hotkeys, the capture, the login item, the tray. */
import type { AppHotkeys } from './hotkeys.ts';
import type { SetTrayProblem } from './tray-problems.ts';

/** What {@link reactToConfigChanges} re-applies. */
export interface ConfigReactionsDeps {
  /** Saved config changes (ConfigStore.onChange); returns the unsubscribe function. */
  readonly onChange: (listener: (change: { readonly keyPath: string }) => void) => () => void;
  readonly hotkeys: Pick<AppHotkeys, 'apply'>;
  readonly setProblem: SetTrayProblem;
  /** Sends the device and pre-roll to the capture page. */
  readonly configureCapture: () => void;
  /** Applies app.launch_at_login. */
  readonly launchAtLogin: () => void;
  /** Writes the tray's dictation fields (modes, toggles, retry). */
  readonly updateTray: () => void;
}

/** Re-applies, on each saved change, what depends on the changed part ('' = the whole config); returns the unsubscribe function. */
export function reactToConfigChanges(deps: ConfigReactionsDeps): () => void {
  return deps.onChange(({ keyPath }) => {
    const top = keyPath.split('.')[0] ?? '';
    if (keyPath === '' || top === 'hotkeys' || top === 'recording' || top === 'feedback') {
      const s = deps.hotkeys.apply();
      if (s.hookError === null && (s.toggle === null || s.toggle.registered) && s.problems.length === 0) deps.setProblem('hotkeys', null);
    }
    if (keyPath === '' || top === 'audio') deps.configureCapture();
    if (keyPath === '' || keyPath.startsWith('app.launch_at_login') || keyPath === 'app') deps.launchAtLogin();
    deps.updateTray();
  });
}
