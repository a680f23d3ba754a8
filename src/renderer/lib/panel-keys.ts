/**
 * The preview panel's keyboard rules (WenZi's): Enter confirms and pastes, ⌘/Ctrl+Enter copies instead,
 * Esc cancels, ⌘/Ctrl+1–9 re-runs the nth mode. Nothing fires while an input method is composing —
 * Enter then commits the Chinese candidate, it must not paste half a sentence. Pure, unit-tested.
 */

import type { KeyInput } from './shortcut.ts';

/** What a keydown gives the panel: the shortcut recorder's key fields plus the IME state. */
export interface PanelKeyInput extends KeyInput {
  /** `KeyboardEvent.isComposing`: an IME composition is under way. */
  readonly isComposing: boolean;
  /** Legacy keyCode: 229 marks keys an IME is processing (Safari/Chromium send it around compositions). */
  readonly keyCode: number;
}

/** What a key does in the panel; null lets the text area handle it (typing, Shift+Enter newline, undo…). */
export type PanelKeyAction =
  | { readonly kind: 'confirm' }
  | { readonly kind: 'copy' }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'mode'; readonly index: number }
  | null;

/** Whether this platform's primary modifier is ⌘ (macOS) rather than Ctrl. */
export function isMacPlatform(platform: string): boolean {
  return /^mac|darwin/i.test(platform);
}

/** The panel action of a keydown (`mac`: ⌘ is the primary modifier, else Ctrl). */
export function panelKeyAction(e: PanelKeyInput, mac: boolean): PanelKeyAction {
  if (e.isComposing || e.keyCode === 229) return null;
  const primary = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  const other = mac ? e.ctrlKey : e.metaKey;
  if (e.key === 'Escape' && !primary && !other && !e.altKey) return { kind: 'cancel' };
  if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !other) return primary ? { kind: 'copy' } : { kind: 'confirm' };
  const digit = /^(?:Digit|Numpad)([1-9])$/.exec(e.code);
  if (digit && primary && !e.altKey && !e.shiftKey) return { kind: 'mode', index: Number(digit[1]) - 1 };
  return null;
}

/** The label of the primary modifier for hints (⌘ or Ctrl). */
export function primaryKeyLabel(mac: boolean): string {
  return mac ? '⌘' : 'Ctrl+';
}
