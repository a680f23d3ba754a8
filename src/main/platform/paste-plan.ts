/**
 * Pure decisions of text insertion: which keystroke pastes into a target (terminals on Linux take
 * Ctrl+Shift+V), which display server a Linux session runs, which clipboard formats mark an entry as
 * transient for clipboard managers, and whether the user's clipboard may be restored afterwards.
 */

/** The window text is pasted into, as remembered at key-down. */
export interface FocusTarget {
  /** Platform handle: X11 window id, macOS bundle id, Windows HWND (decimal). */
  readonly id: string;
  /** X11 WM_CLASS (instance and class, lower case) — how terminals are recognised. */
  readonly wmClass?: readonly string[];
  /** X11 WM_CLASS as the app wrote it ("Slack"): the input context's app name. */
  readonly wmClassAsWritten?: readonly string[];
  /** Readable app name for messages and logs. */
  readonly app?: string;
}

/** Linux session kinds that change how keys are sent. */
export type DisplayServer = 'x11' | 'wayland' | 'none';

/** The keystroke that pastes (or copies) in a target, or the Enter chord sent after a paste (SubmitKey). */
export type PasteKeys = 'cmd+v' | 'ctrl+v' | 'ctrl+shift+v' | 'cmd+c' | 'ctrl+c' | 'ctrl+shift+c' | 'Return' | 'shift+Return' | 'ctrl+Return' | 'cmd+Return';

/** The key pressed after a paste lands (config output.submit_key, an app rule's `submit`): `mod` is Cmd on macOS, Ctrl elsewhere. */
export type SubmitKey = 'enter' | 'shift+enter' | 'mod+enter';

/** The chord of a submit key on `platform`. */
export function submitKeysFor(submit: SubmitKey, platform: NodeJS.Platform): PasteKeys {
  if (submit === 'enter') return 'Return';
  if (submit === 'shift+enter') return 'shift+Return';
  return platform === 'darwin' ? 'cmd+Return' : 'ctrl+Return';
}

/** X11 WM_CLASS values (lower case) of terminal emulators, which paste with Ctrl+Shift+V. */
const TERMINAL_CLASSES: ReadonlySet<string> = new Set([
  'xterm', 'uxterm', 'gnome-terminal', 'gnome-terminal-server', 'org.gnome.terminal', 'kgx', 'org.gnome.console', 'ptyxis',
  'org.gnome.ptyxis', 'konsole', 'org.kde.konsole', 'yakuake', 'xfce4-terminal', 'terminator', 'tilix', 'com.gexperts.tilix',
  'alacritty', 'kitty', 'org.wezfurlong.wezterm', 'wezterm', 'foot', 'footclient', 'urxvt', 'rxvt', 'rxvt-unicode', 'st',
  'st-256color', 'lxterminal', 'mate-terminal', 'qterminal', 'terminology', 'guake', 'tilda', 'sakura', 'cool-retro-term',
  'hyper', 'tabby', 'warp', 'dev.warp.warp', 'ghostty', 'com.mitchellh.ghostty', 'blackbox', 'com.raggesilver.blackbox',
  'deepin-terminal', 'termite', 'contour', 'eterm', 'aterm', 'roxterm', 'terminix', 'io.elementary.terminal', 'pantheon-terminal',
]);

/** Whether an X11 WM_CLASS (either part) names a terminal emulator. */
export function isTerminalClass(wmClass: readonly string[] | undefined): boolean {
  return (wmClass ?? []).some((c) => TERMINAL_CLASSES.has(c.trim().toLowerCase()));
}

/** Parses `xprop -id W WM_CLASS` output: `WM_CLASS(STRING) = "xterm", "XTerm"` → ['xterm', 'XTerm'] (as written). */
export function parseWmClassAsWritten(xpropOutput: string): readonly string[] {
  const m = /WM_CLASS\([^)]*\)\s*=\s*(.*)$/m.exec(xpropOutput);
  if (m?.[1] === undefined) return [];
  return [...m[1].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1] ?? '');
}

/** Parses `xprop -id W WM_CLASS` output, lower case: `WM_CLASS(STRING) = "xterm", "XTerm"` → ['xterm', 'xterm']. */
export function parseWmClass(xpropOutput: string): readonly string[] {
  return parseWmClassAsWritten(xpropOutput).map((c) => c.toLowerCase());
}

/** The Linux display server from the environment (Wayland sessions usually also set DISPLAY for XWayland). */
export function displayServer(env: Readonly<Record<string, string | undefined>>): DisplayServer {
  const type = env.XDG_SESSION_TYPE?.toLowerCase();
  if (type === 'wayland' || (type === undefined && env.WAYLAND_DISPLAY)) return 'wayland';
  if (env.DISPLAY) return 'x11';
  if (env.WAYLAND_DISPLAY) return 'wayland';
  return 'none';
}

/** The paste (or copy) keystroke for a platform and target. */
export function keysFor(op: 'paste' | 'copy', platform: NodeJS.Platform, target: FocusTarget | null): PasteKeys {
  if (platform === 'darwin') return op === 'paste' ? 'cmd+v' : 'cmd+c';
  // Terminals on Linux bind Ctrl+V/C to the TTY (literal-next / interrupt); their clipboard keys add Shift.
  if (platform === 'linux' && isTerminalClass(target?.wmClass)) return op === 'paste' ? 'ctrl+shift+v' : 'ctrl+shift+c';
  return op === 'paste' ? 'ctrl+v' : 'ctrl+c';
}

/** One extra clipboard format written next to the text. */
export interface ClipboardMarker {
  /** The OS format name (pasteboard type, Windows registered format, X11 target). */
  readonly format: string;
  readonly data: Uint8Array;
}

/**
 * Formats that ask clipboard managers and clipboard history to skip the entry Tingxie writes only to
 * paste it: nspasteboard.org's markers on macOS, Windows' clipboard-history/monitor opt-outs, KDE
 * Klipper's password hint on Linux (also honoured by some other managers).
 */
export function transientMarkers(platform: NodeJS.Platform): readonly ClipboardMarker[] {
  switch (platform) {
    case 'darwin':
      return [
        { format: 'org.nspasteboard.TransientType', data: new Uint8Array(0) },
        { format: 'org.nspasteboard.ConcealedType', data: new Uint8Array(0) },
        { format: 'org.nspasteboard.AutoGeneratedType', data: new Uint8Array(0) },
      ];
    case 'win32':
      return [
        // Presence is the signal (any data); the two DWORD formats must be 0 to opt out.
        { format: 'ExcludeClipboardContentFromMonitorProcessing', data: new Uint8Array(4) },
        { format: 'CanIncludeInClipboardHistory', data: new Uint8Array(4) },
        { format: 'CanUploadToCloudClipboard', data: new Uint8Array(4) },
      ];
    case 'linux':
      return [{ format: 'x-kde-passwordManagerHint', data: new TextEncoder().encode('secret') }];
    default:
      return [];
  }
}

/** Why the user's clipboard is or is not put back after a paste. */
export type RestoreDecision =
  | { readonly restore: true }
  | { readonly restore: false; readonly reason: 'disabled' | 'changed' | 'paste-failed' };

/**
 * Whether to restore the user's clipboard: only when the setting is on, the paste went through (a
 * failed paste leaves the text there for the user to paste by hand), and the clipboard still holds what
 * Tingxie wrote — if it changed meanwhile the user (or an app) copied something newer, which wins.
 */
export function restoreDecision(input: { readonly enabled: boolean; readonly pasted: boolean; readonly written: string; readonly current: string | null }): RestoreDecision {
  if (!input.enabled) return { restore: false, reason: 'disabled' };
  if (!input.pasted) return { restore: false, reason: 'paste-failed' };
  if (input.current !== input.written) return { restore: false, reason: 'changed' };
  return { restore: true };
}
