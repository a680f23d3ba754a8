/**
 * Whether a key makes a good hold-to-talk key, checked when the setup guide records one: a key that types
 * (it would type into the app while held), Escape (it cancels a dictation everywhere), a key the OS keeps
 * for itself, a key another Tingxie role already uses (cancel, restart, mode keys — hotkey-router.ts would
 * let the first binding win), or a modifier used in everyday shortcuts (it works, but a shortcut pressed
 * with it may start a recording). Pure, shared by the guide and its tests.
 */

/** Why a key is refused (`error`) or questioned (`warning`). */
export type HoldKeyReason = 'typing' | 'escape' | 'combo' | 'fn-not-mac' | 'reserved' | 'clash' | 'shortcut-modifier';

/** The verdict on one key name. */
export type HoldKeyVerdict =
  | { readonly level: 'ok' }
  | { readonly level: 'error' | 'warning'; readonly reason: HoldKeyReason; /** The role it clashes with (`clash`). */ readonly role?: KeyRole };

/** The other keys Tingxie listens for. */
export type KeyRole = 'cancel' | 'restart' | 'prevMode' | 'nextMode';

/** Keys that type something (held, they would repeat into the app being dictated into). */
const TYPING = /^([a-z0-9]|space|enter|return|tab|backspace|delete|minus|equal|comma|period|slash|semicolon|quote|backslash|bracket_left|bracket_right|grave|backquote)$/;

/** Keys the OS acts on by itself: a lock key toggles a state, Print Screen takes a picture. */
const SYSTEM = /^(caps_lock|num_lock|scroll_lock|print_screen)$/;

/** Checks `name` (a config key name) as the hold-to-talk key on `platform`, against the other `roles`' keys. */
export function checkHoldKey(name: string, platform: string, roles: Readonly<Partial<Record<KeyRole, string>>>): HoldKeyVerdict {
  const n = name.trim().toLowerCase();
  if (n.includes('+')) return { level: 'error', reason: 'combo' };
  if (n === 'esc' || n === 'escape') return { level: 'error', reason: 'escape' };
  if (TYPING.test(n)) return { level: 'error', reason: 'typing' };
  if ((n === 'fn' || n === 'globe') && platform !== 'darwin') return { level: 'error', reason: 'fn-not-mac' };
  // Windows opens the Start menu on a lone Win key press.
  if (SYSTEM.test(n) || (platform === 'win32' && /^cmd(_[lr])?$/.test(n))) return { level: 'error', reason: 'reserved' };
  for (const [role, key] of Object.entries(roles) as [KeyRole, string | undefined][]) {
    if (key !== undefined && key.trim().toLowerCase() === n) return { level: 'error', reason: 'clash', role };
  }
  // The left-hand modifiers (and Shift on either side) are in most shortcuts; a bare modifier name means either side.
  if (/^(ctrl|shift|alt|cmd)(_l)?$/.test(n) || n === 'shift_r') return { level: 'warning', reason: 'shortcut-modifier' };
  return { level: 'ok' };
}
