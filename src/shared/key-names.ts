/**
 * Tingxie key names (config.json's, WenZi's spelling: `alt_r`, `cmd`, `space`, `ctrl+cmd+1`) shown by the
 * names the user's OS prints on its keys and in its own settings: "Right Alt" on Windows and Linux,
 * "Right ⌥ Option" on macOS, "Win" / "Super" / "⌘ Command" for `cmd`. And the reverse for the Settings
 * key recorder: a browser KeyboardEvent (its layout-independent `code`) to a key name. Pure, shared by
 * main (hotkey problems) and the Settings window.
 */

/** The platform strings used (Node's `process.platform` values). */
type Platform = string;

const MAC_MODIFIERS: Readonly<Record<string, string>> = { alt: '⌥ Option', ctrl: '⌃ Control', shift: '⇧ Shift', meta: '⌘ Command' };

const MODIFIER_ALIASES: Readonly<Record<string, 'alt' | 'ctrl' | 'shift' | 'meta'>> = {
  alt: 'alt', option: 'alt', opt: 'alt', ctrl: 'ctrl', control: 'ctrl', shift: 'shift',
  cmd: 'meta', command: 'meta', meta: 'meta', super: 'meta', win: 'meta',
};

function modifierName(mod: 'alt' | 'ctrl' | 'shift' | 'meta', platform: Platform): string {
  if (platform === 'darwin') return MAC_MODIFIERS[mod] ?? mod;
  if (mod === 'meta') return platform === 'win32' ? 'Win' : 'Super';
  return { alt: 'Alt', ctrl: 'Ctrl', shift: 'Shift' }[mod];
}

const NAMED: Readonly<Record<string, string>> = {
  esc: 'Esc', escape: 'Esc', space: 'Space', tab: 'Tab', insert: 'Insert', home: 'Home', end: 'End',
  page_up: 'Page Up', page_down: 'Page Down', left: '←', right: '→', up: '↑', down: '↓',
  caps_lock: 'Caps Lock', num_lock: 'Num Lock', scroll_lock: 'Scroll Lock', print_screen: 'Print Screen',
  pause: 'Pause', menu: 'Menu', grave: '`', backquote: '`', minus: '-', equal: '=', comma: ',', period: '.',
  slash: '/', semicolon: ';', quote: "'", backslash: '\\', bracket_left: '[', bracket_right: ']',
};

/**
 * Chinese names of the keys whose English name is a word (the rest — Alt, Ctrl, Esc, F13, ⌥ Option — are
 * printed on the keys and named so in Chinese too, as Windows' and macOS's Chinese help pages do).
 */
const ZH_NAMED: Readonly<Record<string, string>> = {
  Space: '空格键', Enter: '回车键', '↩ Return': '↩ 回车键', Backspace: '退格键', '⌫ Delete': '⌫ 删除键', 'Caps Lock': '大写锁定键',
  'Page Up': '向上翻页键', 'Page Down': '向下翻页键', 'fn / 🌐 Globe': 'fn / 🌐 地球仪键',
};

/** The display name of one key-name part (not a combo). */
function partName(part: string, platform: Platform, lang: 'en' | 'zh'): string {
  const name = partNameEn(part, platform);
  if (lang !== 'zh') return name;
  const sided = /^(Right|Left) (.+)$/.exec(name);
  if (sided !== null) return `${sided[1] === 'Right' ? '右' : '左'} ${sided[2] ?? ''}`;
  return ZH_NAMED[name] ?? name;
}

function partNameEn(part: string, platform: Platform): string {
  const mac = platform === 'darwin';
  const side = /^(.+?)_(l|r|left|right)$/.exec(part);
  const sideMod = side?.[1] === undefined ? undefined : MODIFIER_ALIASES[side[1]];
  if (sideMod !== undefined) return `${side?.[2]?.startsWith('r') === true ? 'Right' : 'Left'} ${modifierName(sideMod, platform)}`;
  const mod = MODIFIER_ALIASES[part];
  if (mod !== undefined) return modifierName(mod, platform);
  if (part === 'fn' || part === 'globe') return mac ? 'fn / 🌐 Globe' : 'Fn';
  if (part === 'enter' || part === 'return') return mac ? '↩ Return' : 'Enter';
  // The Mac key labelled "delete" is Backspace; its forward delete is fn+delete (⌦).
  if (part === 'backspace') return mac ? '⌫ Delete' : 'Backspace';
  if (part === 'delete') return mac ? '⌦ Forward Delete' : 'Delete';
  const named = NAMED[part];
  if (named !== undefined) return named;
  if (/^f([1-9]|1[0-9]|2[0-4])$/.test(part) || /^[a-z0-9]$/.test(part)) return part.toUpperCase();
  return part;
}

/**
 * How a config key name is shown on `platform` (`process.platform` / app:info's platform): `alt_r` →
 * "Right Alt" (Windows, Linux) or "Right ⌥ Option" (macOS), in Chinese "右 Alt" / "右 ⌥ Option"; combos
 * join their parts with " + ". An empty name is returned as '' (the caller shows its word for "none"); an
 * unknown name as written.
 */
export function keyDisplayName(name: string, platform: Platform, lang: 'en' | 'zh' = 'en'): string {
  const n = name.trim().toLowerCase();
  if (n === '') return '';
  return n
    .split('+')
    .map((p) => partName(p.trim(), platform, lang))
    .join(' + ');
}

/** A keydown as the Settings key recorder sees it (the fields of a DOM KeyboardEvent it reads). */
export interface KeyPress {
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  readonly metaKey: boolean;
}

const CODE_NAMES: Readonly<Record<string, string>> = {
  Escape: 'esc', Space: 'space', Tab: 'tab', Enter: 'enter', NumpadEnter: 'enter', Backspace: 'backspace', Delete: 'delete',
  Insert: 'insert', Home: 'home', End: 'end', PageUp: 'page_up', PageDown: 'page_down', ArrowLeft: 'left', ArrowRight: 'right',
  ArrowUp: 'up', ArrowDown: 'down', CapsLock: 'caps_lock', Backquote: 'grave', Minus: 'minus', Equal: 'equal', Comma: 'comma',
  Period: 'period', Slash: 'slash', Semicolon: 'semicolon', Quote: 'quote', Backslash: 'backslash', BracketLeft: 'bracket_left',
  BracketRight: 'bracket_right', AltLeft: 'alt_l', AltRight: 'alt_r', ControlLeft: 'ctrl_l', ControlRight: 'ctrl_r',
  ShiftLeft: 'shift_l', ShiftRight: 'shift_r', MetaLeft: 'cmd_l', MetaRight: 'cmd_r', OSLeft: 'cmd_l', OSRight: 'cmd_r',
};

/**
 * The config key name of a keydown, or null for a key Tingxie cannot name. A modifier pressed alone
 * names itself with its side (`alt_r`); another key held with modifiers becomes a combo (`ctrl+r`).
 */
export function keyNameOf(e: KeyPress): string | null {
  const letter = /^Key([A-Z])$/.exec(e.code)?.[1];
  const digit = /^Digit([0-9])$/.exec(e.code)?.[1];
  const f = /^F([1-9]|1[0-9]|2[0-4])$/.test(e.code) ? e.code.toLowerCase() : undefined;
  const key = letter?.toLowerCase() ?? digit ?? f ?? CODE_NAMES[e.code] ?? null;
  if (key === null) return null;
  if (/^(alt|ctrl|shift|cmd)_[lr]$/.test(key)) return key;
  const mods = [e.ctrlKey ? 'ctrl' : null, e.altKey ? 'alt' : null, e.shiftKey ? 'shift' : null, e.metaKey ? 'cmd' : null].filter((m): m is string => m !== null);
  return [...mods, key].join('+');
}
