/**
 * Key names as config.json spells them (WenZi's names: `alt_r`, `fn`, `f13`, `cmd`, `ctrl+cmd+1`, …)
 * mapped to libuiohook virtual key codes (the numbers uiohook-napi reports). Pure data and parsing, so
 * the mapping is tested without a native hook. The codes are libuiohook's VC_* constants (the same as
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
}

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

/** F1–F24 in libuiohook's numbering (F11/F12 and F13+ are not contiguous with F1–F10). */
const F_KEYS: readonly number[] = [59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 87, 88, 91, 92, 93, 99, 100, 101, 102, 103, 104, 105, 106, 107];
const LETTERS: Readonly<Record<string, number>> = {
  a: 30, b: 48, c: 46, d: 32, e: 18, f: 33, g: 34, h: 35, i: 23, j: 36, k: 37, l: 38, m: 50,
  n: 49, o: 24, p: 25, q: 16, r: 19, s: 31, t: 20, u: 22, v: 47, w: 17, x: 45, y: 21, z: 44,
};
const DIGITS: readonly number[] = [11, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** Codes of one key-name part that is not a combo, or an error. */
function codesOf(part: string): readonly number[] | string {
  if (part === 'fn' || part === 'globe') {
    // The macOS fn/Globe key produces no key event a global hook can see (the OS consumes it).
    return "the fn/Globe key cannot be watched by the global key hook; choose another key such as alt_r or f13";
  }
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
  return { ok: true, key: { name, codes, mods } };
}

/** Which modifier (if any) a key code is. */
export function modifierOf(code: number): Modifier | null {
  for (const [m, c] of Object.entries(MODIFIER_CODES) as [Modifier, { left: number; right: number }][]) {
    if (c.left === code || c.right === code) return m;
  }
  return null;
}
