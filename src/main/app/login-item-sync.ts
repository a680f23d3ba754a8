/** Keeps the OS login item in step with app.launch_at_login (the decision is platform/login-item.ts). */
import { app } from 'electron';
import { applyLaunchAtLogin } from '../platform/login-item.ts';
import type { Notify } from './app-notices.ts';

/** Returns the call that applies the setting now; a refusal by the OS is said, never thrown. */
export function launchAtLoginSync(deps: { readonly enabled: () => boolean; readonly notify: Notify }): () => void {
  return () => {
    try {
      applyLaunchAtLogin(deps.enabled(), { platform: process.platform, execPath: process.execPath, setLoginItem: (s) => app.setLoginItemSettings(s) });
    } catch (err) {
      deps.notify('warning', { code: 'launch-at-login-failed', reason: String(err) });
    }
  };
}
