/**
 * Input context (WenZi's `ai_enhance.input_context`): which app the user is dictating
 * into, read at key-down. `basic` = the app's name; `detailed` adds the window title and, where the OS
 * exposes it, the browser's domain. Stored on the history record in WenZi's object shape
 * (`{"app_name", "bundle_id", "window_title"?, "browser_domain"?}`) so both apps read each other's files;
 * the prompt gets only the readable part (never `bundle_id`, as in WenZi).
 *
 * Per platform:
 * - X11 (and XWayland windows): `xdotool getactivewindow` (or `getwindowfocus` without a window manager),
 *   `xprop WM_CLASS` (app name = the class, e.g. "firefox"/"Slack"; `bundle_id` = the instance name),
 *   `xdotool getwindowname` (the title, UTF-8 whatever property type the app used). X11 does not expose
 *   a browser's URL: no `browser_domain`.
 * - macOS: `lsappinfo` (name and bundle id, no permission needed). The window title and the browser's
 *   URL need Accessibility / Automation calls Tingxie does not make yet: not captured.
 * - Windows: the foreground window's executable (`WeChat.exe`: app name `WeChat`, `bundle_id` the file
 *   name) and, at `detailed`, its title, through user32/kernel32 (win32-app.ts). No `browser_domain`.
 * - Native Wayland: nothing (null): the prompt and the record go without.
 */
import type { InputContextPort } from '../ports/input-context-port.ts';
import type { DisplayServer } from './paste-plan.ts';
import { x11Focus, type FocusPort } from './focus.ts';
import { runCommand } from './run-command.ts';
import { loadWin32App, win32InputContext } from './win32-app.ts';

/** Titles are cut to this many characters (a prompt line, not a document). */
const MAX_TITLE = 200;

function clean(s: string, max = MAX_TITLE): string {
  // Control characters (a newline in a title) would break the prompt's one-line form.
  return s.replace(/\p{Cc}+/gu, ' ').trim().slice(0, max);
}

/** Decodes an xprop string value: `\ooo` octal escapes are bytes of the (UTF-8) text, `\x` is `x`. */
export function unescapeXprop(value: string): string {
  const chars = Array.from(value);
  const bytes: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    let ch = chars[i] ?? '';
    if (ch === '\\' && i + 1 < chars.length) {
      const oct = /^[0-7]{3}$/.test(chars.slice(i + 1, i + 4).join('')) ? chars.slice(i + 1, i + 4).join('') : null;
      if (oct !== null) {
        bytes.push(parseInt(oct, 8));
        i += 3;
        continue;
      }
      ch = chars[++i] ?? '';
      if (ch === 'n') ch = ' ';
    }
    bytes.push(...Buffer.from(ch, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The window title from `xprop _NET_WM_NAME WM_NAME` output: the EWMH UTF-8 name first, else WM_NAME. */
export function windowTitleOf(xpropOutput: string): string {
  for (const prop of ['_NET_WM_NAME', 'WM_NAME']) {
    const m = new RegExp(`^${prop}(?:\\([^)]*\\))?\\s*=\\s*"(.*)"\\s*$`, 'm').exec(xpropOutput);
    if (m?.[1] !== undefined) return unescapeXprop(m[1]);
  }
  return '';
}

/** The host of the first http(s) URL in `text`, if any (titles of some browsers and extensions carry it). */
export function domainIn(text: string): string | undefined {
  const m = /\bhttps?:\/\/([a-z0-9.-]+\.[a-z]{2,})(?::\d+)?(?:[/?#]|\s|$)/i.exec(text);
  return m?.[1]?.toLowerCase().replace(/^www\./, '');
}

/**
 * X11 through xdotool/xprop (`env` selects the display in tests). The focused window and its WM_CLASS
 * come from the focus port's lookup — the app passes the paste's port, so the key-down's two questions
 * (where to paste, which app this is) share one xdotool + xprop run (focus.ts).
 */
export function x11InputContext(env?: NodeJS.ProcessEnv, focus: Pick<FocusPort, 'current'> = x11Focus(env)): InputContextPort {
  return {
    async capture(level) {
      const target = await focus.current();
      if (target === null) return null;
      // UTF-8 output where the system has the locale; octal escapes (decoded below) where it does not.
      const title = level === 'detailed' ? await runCommand('xprop', ['-id', target.id, '_NET_WM_NAME', 'WM_NAME'], { timeoutMs: 1500, env: { ...(env ?? process.env), LC_ALL: 'C.UTF-8' } }) : null;
      const wmClass = target.wmClassAsWritten ?? target.wmClass ?? [];
      const appName = clean(wmClass[1] ?? wmClass[0] ?? '', 100);
      if (appName === '') return null;
      const windowTitle = title !== null && title.code === 0 ? clean(windowTitleOf(title.stdout)) : '';
      const domain = windowTitle === '' ? undefined : domainIn(windowTitle);
      return {
        app_name: appName,
        bundle_id: clean(wmClass[0] ?? appName, 100),
        ...(windowTitle !== '' ? { window_title: windowTitle } : {}),
        ...(domain !== undefined ? { browser_domain: domain } : {}),
      };
    },
  };
}

/** macOS through lsappinfo: name and bundle id (no title or URL, see the file comment). */
export function macInputContext(): InputContextPort {
  return {
    async capture() {
      const front = await runCommand('lsappinfo', ['front'], { timeoutMs: 1500 });
      const asn = front.stdout.trim();
      if (front.code !== 0 || asn === '') return null;
      const [name, bundle] = await Promise.all([
        runCommand('lsappinfo', ['info', '-only', 'name', asn], { timeoutMs: 1500 }),
        runCommand('lsappinfo', ['info', '-only', 'bundleid', asn], { timeoutMs: 1500 }),
      ]);
      const bundleId = /"CFBundleIdentifier"\s*=\s*"([^"]+)"/.exec(bundle.stdout)?.[1] ?? '';
      const appName = /"(?:LSDisplayName|CFBundleName)"\s*=\s*"([^"]+)"/.exec(name.stdout)?.[1] ?? bundleId;
      return appName === '' ? null : { app_name: clean(appName, 100), bundle_id: bundleId };
    },
  };
}

/** A port that knows nothing (native Wayland). */
export const noInputContext: InputContextPort = { capture: () => Promise.resolve(null) };

/** The input-context reader of this platform. */
export function platformInputContext(platform: NodeJS.Platform, display: DisplayServer, env?: NodeJS.ProcessEnv, focus?: Pick<FocusPort, 'current'>): InputContextPort {
  if (platform === 'darwin') return macInputContext();
  if (platform === 'win32') return win32InputContext(loadWin32App);
  if (display === 'x11' || (env ?? process.env).DISPLAY) return x11InputContext(env, focus);
  return noInputContext;
}
