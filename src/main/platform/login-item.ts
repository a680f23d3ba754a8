/**
 * Launch at login: Electron's login items on macOS and Windows; on Linux (which Electron does not
 * cover) an XDG autostart entry, ~/.config/autostart/tingxie.desktop.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The XDG autostart entry that starts `exec` at login. */
export function autostartEntry(exec: string): string {
  // Desktop-entry Exec quoting: the path in double quotes, with " ` $ \ escaped.
  const quoted = `"${exec.replace(/(["`$\\])/g, '\\$1')}"`;
  return ['[Desktop Entry]', 'Type=Application', 'Name=Tingxie', 'Comment=Hold a key, speak, get clean text.', `Exec=${quoted}`, 'X-GNOME-Autostart-enabled=true', 'Terminal=false', ''].join('\n');
}

/** Path of the Linux autostart file (XDG_CONFIG_HOME honoured). */
export function autostartFile(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'autostart', 'tingxie.desktop');
}

/** Sets launch-at-login. `setLoginItem` is Electron's app.setLoginItemSettings (macOS, Windows). */
export function applyLaunchAtLogin(enabled: boolean, opts: { readonly platform: NodeJS.Platform; readonly execPath: string; readonly setLoginItem: (s: { openAtLogin: boolean }) => void; readonly file?: string }): void {
  if (opts.platform !== 'linux') {
    opts.setLoginItem({ openAtLogin: enabled });
    return;
  }
  const file = opts.file ?? autostartFile();
  if (enabled) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, autostartEntry(process.env.APPIMAGE || opts.execPath));
  } else {
    fs.rmSync(file, { force: true });
  }
}
