/**
 * Key names as config.json spells them (WenZi's names: `alt_r`, `fn`, `f13`, `cmd`, `ctrl+cmd+1`, …)
 * mapped to libuiohook virtual key codes (the numbers uiohook-napi reports) and to Electron accelerators
 * (what globalShortcut registers to consume a key while recording). Pure data and parsing, so the
 * mapping is tested without a native hook. The codes are libuiohook's VC_* constants (the same as
 * uiohook-napi's `UiohookKey`), repeated here because importing uiohook-napi loads its native addon.
 */

/** A modifier a combo may require. */
export type Modifier = 'ctrl' | 'alt' | 'shift' | 'meta';

/** One parsed key: any of `codes` triggers it, while every modifier in `mods` is held. */
export interface KeySpec {
  /** The config name it came from (normalised to lower case). */
  readonly name: string;
  readonly codes: readonly number[];
  readonly mods: readonly Modifier[];
  /**
   * The key's Electron accelerator name (`Space`, `Left`, `F13`, `A`), or null for a key Electron cannot
   * register: a modifier on its own, fn, Pause, Menu. Such a key still acts through the hook; it is just
   * not consumed (a modifier tapped alone types nothing anyway).
   */
  readonly accelerator: string | null;
}

/**
 * The code the macOS fn/Globe key is reported with. It is outside libuiohook's range on purpose: uiohook
 * never reports fn (its macOS hook ignores kVK_Function's flags-changed events); the flags-changed
 * watcher in platform/fn-key-mac.ts does, under this code.
 */
export const FN_KEY_CODE = 0x1_003f;

/** Result of {@link parseKeyName}: the key, or a message saying what is wrong with the name. */
export type ParsedKey = { readonly ok: true; readonly key: KeySpec } | { readonly ok: false; readonly name: string; readonly error: string };

/** libuiohook codes of the modifier keys, left and right. */
export const MODIFIER_CODES: Readonly<Record<Modifier, { readonly left: number; readonly right: number }>> = {
  ctrl: { left: 29, right: 3613 },
  alt: { left: 56, right: 3640 },
  shift: { left: 42, right: 54 },
  meta: { left: 3675, right: 3676 },
};

const MODIFIER_ALIASES: Readonly<Record<string, Modifier>> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  option: 'alt',
  opt: 'alt',
  shift: 'shift',
  cmd: 'meta',
  command: 'meta',
  meta: 'meta',
  super: 'meta',
  win: 'meta',
};

const NAMED: Readonly<Record<string, number>> = {
  esc: 1,
  escape: 1,
  space: 57,
  tab: 15,
  enter: 28,
  return: 28,
  backspace: 14,
  delete: 3667,
  insert: 3666,
  home: 3655,
  end: 3663,
  page_up: 3657,
  page_down: 3665,
  left: 57419,
  up: 57416,
  right: 57421,
  down: 57424,
  caps_lock: 58,
  num_lock: 69,
  scroll_lock: 70,
  print_screen: 3639,
  pause: 3653,
  menu: 3677,
  grave: 41,
  backquote: 41,
  minus: 12,
  equal: 13,
  comma: 51,
  period: 52,
  slash: 53,
  semicolon: 39,
  quote: 40,
  backslash: 43,
  bracket_left: 26,
  bracket_right: 27,
};

/** Electron accelerator names of the NAMED keys (Electron's Accelerator documentation); absent = cannot be registered. */
const NAMED_ACCELERATORS: Readonly<Record<string, string>> = {
  esc: 'Escape', escape: 'Escape', space: 'Space', tab: 'Tab', enter: 'Return', return: 'Return', backspace: 'Backspace',
  delete: 'Delete', insert: 'Insert', home: 'Home', end: 'End', page_up: 'PageUp', page_down: 'PageDown',
  left: 'Left', up: 'Up', right: 'Right', down: 'Down', caps_lock: 'Capslock', num_lock: 'Numlock', scroll_lock: 'Scrolllock',
  print_screen: 'PrintScreen', grave: '`', backquote: '`', minus: '-', equal: '=', comma: ',', period: '.', slash: '/',
  semicolon: ';', quote: "'", backslash: '\\', bracket_left: '[', bracket_right: ']',
};

/** F1–F24 in libuiohook's numbering (F11/F12 and F13+ are not contiguous with F1–F10). */
const F_KEYS: readonly number[] = [59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 87, 88, 91, 92, 93, 99, 100, 101, 102, 103, 104, 105, 106, 107];
const LETTERS: Readonly<Record<string, number>> = {
  a: 30, b: 48, c: 46, d: 32, e: 18, f: 33, g: 34, h: 35, i: 23, j: 36, k: 37, l: 38, m: 50,
  n: 49, o: 24, p: 25, q: 16, r: 19, s: 31, t: 20, u: 22, v: 47, w: 17, x: 45, y: 21, z: 44,
};
const DIGITS: readonly number[] = [11, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** Codes of one key-name part that is not a combo, or an error. */
function codesOf(part: string): readonly number[] | string {
  // Watched by the macOS flags-changed watcher, not by uiohook; whether it works here is decided where the
  // platform is known (bindingsFromConfig's `fn` option).
  if (part === 'fn' || part === 'globe') return [FN_KEY_CODE];
  const side = /^(.+?)_(l|r|left|right)$/.exec(part);
  const sideMod = side?.[1] === undefined ? undefined : MODIFIER_ALIASES[side[1]];
  if (sideMod !== undefined) {
    const m = MODIFIER_CODES[sideMod];
    return [side?.[2]?.startsWith('r') === true ? m.right : m.left];
  }
  const mod = MODIFIER_ALIASES[part];
  if (mod !== undefined) return [MODIFIER_CODES[mod].left, MODIFIER_CODES[mod].right];
  const f = /^f([1-9]|1[0-9]|2[0-4])$/.exec(part);
  if (f?.[1] !== undefined) return [F_KEYS[Number(f[1]) - 1] ?? -1];
  if (NAMED[part] !== undefined) return [NAMED[part]];
  if (LETTERS[part] !== undefined) return [LETTERS[part]];
  if (/^[0-9]$/.test(part)) return [DIGITS[Number(part)] ?? -1];
  return `unknown key '${part}'`;
}

/**
 * Parses a config key name: a single key (`alt_r`, `f13`, `space`) or a combo whose last part is the
 * key and the others are modifiers (`ctrl+cmd+1`). Never throws: a bad name becomes `{ ok: false }`
 * with a readable error so the UI can say which key could not be registered.
 */
export function parseKeyName(raw: string): ParsedKey {
  const name = raw.trim().toLowerCase();
  const parts = name.split('+').map((p) => p.trim());
  if (name === '' || parts.some((p) => p === '')) return { ok: false, name, error: `'${raw}' is not a key name` };
  const last = parts[parts.length - 1] ?? '';
  const mods: Modifier[] = [];
  for (const p of parts.slice(0, -1)) {
    const m = MODIFIER_ALIASES[p];
    if (m === undefined) return { ok: false, name, error: `'${p}' in '${raw}' is not a modifier (ctrl, alt, shift, cmd)` };
    if (!mods.includes(m)) mods.push(m);
  }
  const codes = codesOf(last);
  if (typeof codes === 'string') return { ok: false, name, error: codes };
  return { ok: true, key: { name, codes, mods, accelerator: acceleratorKeyOf(last) } };
}

/** The Electron accelerator name of one key-name part (not a combo), or null when Electron cannot register it. */
function acceleratorKeyOf(part: string): string | null {
  if (/^f([1-9]|1[0-9]|2[0-4])$/.test(part)) return part.toUpperCase();
  if (LETTERS[part] !== undefined || /^[0-9]$/.test(part)) return part.toUpperCase();
  return NAMED_ACCELERATORS[part] ?? null;
}

/** The modifiers that are down while `spec` is held: its combo modifiers plus the key itself when it is one (alt_r → alt). */
export function heldModifiersOf(spec: KeySpec): readonly Modifier[] {
  const own = spec.codes.map(modifierOf);
  const self = own.length > 0 && own.every((m) => m !== null && m === own[0]) ? own[0] : null;
  return self === null || self === undefined || spec.mods.includes(self) ? spec.mods : [...spec.mods, self];
}

/** Electron's accelerator modifier names, in the order accelerators are written. */
const ACCELERATOR_MODIFIERS: readonly Modifier[] = ['ctrl', 'alt', 'shift', 'meta'];

/**
 * The Electron accelerator that matches `spec` pressed while `held` modifiers are down (`Alt+Space` for
 * space while Right Alt is held), or null when the key cannot be registered. The meta modifier is
 * `Command` on macOS and `Super` (the Windows/Super key) elsewhere, as Electron names them.
 */
export function acceleratorFor(spec: KeySpec, held: readonly Modifier[], platform: NodeJS.Platform): string | null {
  if (spec.accelerator === null) return null;
  const all = new Set<Modifier>([...spec.mods, ...held]);
  const names = { ctrl: 'Control', alt: 'Alt', shift: 'Shift', meta: platform === 'darwin' ? 'Command' : 'Super' } as const;
  return [...ACCELERATOR_MODIFIERS.filter((m) => all.has(m)).map((m) => names[m]), spec.accelerator].join('+');
}

/** Which modifier (if any) a key code is. */
export function modifierOf(code: number): Modifier | null {
  for (const [m, c] of Object.entries(MODIFIER_CODES) as [Modifier, { left: number; right: number }][]) {
    if (c.left === code || c.right === code) return m;
  }
  return null;
}
