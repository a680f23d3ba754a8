/**
 * Keyboard shortcut recording for Settings: a keydown becomes an Electron accelerator string
 * (`CommandOrControl+Shift+Space`), and well-known system/editing shortcuts are flagged as conflicts.
 * Pure, so it is unit-tested directly.
 */

/** What a keydown gives the recorder. */
export interface KeyInput {
  readonly key: string;
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/** Result of one keydown while recording. */
export type RecordResult = { readonly kind: 'pending' } | { readonly kind: 'invalid' } | { readonly kind: 'done'; readonly accelerator: string };

const MODIFIER_KEYS = new Set(['Control', 'Meta', 'Alt', 'Shift', 'AltGraph', 'OS']);

/** The accelerator key name of `code` (layout-independent), or null for keys Electron cannot bind. */
function keyName(code: string): string | null {
  if (/^Key[A-Z]$/.test(code)) return code.slice(3);
  if (/^Digit\d$/.test(code)) return code.slice(5);
  if (/^F([1-9]|1\d|2[0-4])$/.test(code)) return code;
  const named: Readonly<Record<string, string>> = {
    Space: 'Space', Enter: 'Enter', Tab: 'Tab', Backspace: 'Backspace', Delete: 'Delete', Insert: 'Insert',
    Home: 'Home', End: 'End', PageUp: 'PageUp', PageDown: 'PageDown', ArrowUp: 'Up', ArrowDown: 'Down',
    ArrowLeft: 'Left', ArrowRight: 'Right', Minus: '-', Equal: '=', Comma: ',', Period: '.', Slash: '/',
    Semicolon: ';', Quote: "'", BracketLeft: '[', BracketRight: ']', Backslash: '\\', Backquote: '`',
  };
  return named[code] ?? null;
}

/**
 * Turns a keydown into an accelerator. Modifier-only presses keep recording; a plain letter, digit or
 * editing key without a modifier is refused (it would fire while typing); F-keys may stand alone.
 */
export function recordKey(e: KeyInput, platform: string): RecordResult {
  if (MODIFIER_KEYS.has(e.key)) return { kind: 'pending' };
  const key = keyName(e.code);
  if (!key) return { kind: 'invalid' };
  const mods: string[] = [];
  // On macOS ⌘ is CommandOrControl and Ctrl stays Control; elsewhere Ctrl is CommandOrControl and the Windows key is Super.
  if (platform === 'darwin') {
    if (e.metaKey) mods.push('CommandOrControl');
    if (e.ctrlKey) mods.push('Control');
  } else {
    if (e.ctrlKey) mods.push('CommandOrControl');
    if (e.metaKey) mods.push('Super');
  }
  if (e.altKey) mods.push('Alt');
  if (e.shiftKey) mods.push('Shift');
  const standalone = /^F\d+$/.test(key);
  if (!standalone && (mods.length === 0 || (mods.length === 1 && mods[0] === 'Shift'))) return { kind: 'invalid' };
  return { kind: 'done', accelerator: [...mods, key].join('+') };
}

/** Shortcuts the OS or nearly every editor already uses; binding them globally would break them. */
const CONFLICTS = new Set(
  ['C', 'V', 'X', 'Z', 'Y', 'A', 'S', 'F', 'P', 'N', 'W', 'Q', 'T', 'O', 'R', 'Tab', 'Space', 'Shift+Z'].map((k) => `CommandOrControl+${k}`).concat(['Alt+Tab', 'Alt+F4', 'Super+L', 'Super+D', 'Super+Space']),
);

/** Whether `accelerator` clashes with a common system or editing shortcut. */
export function isConflicting(accelerator: string): boolean {
  return CONFLICTS.has(accelerator);
}

/** A shortcut for display: `CommandOrControl` as ⌘ on macOS and Ctrl elsewhere. */
export function displayShortcut(accelerator: string, platform: string): string {
  return accelerator.replace(/CommandOrControl|CmdOrCtrl/g, platform === 'darwin' ? '⌘' : 'Ctrl');
}
