/**
 * The key event the global key hook (src/main/platform/key-hook.ts) produces and the hotkey router
 * (src/main/dictation/hotkey-router.ts) consumes. Declared below both so platform never imports dictation.
 */

/** A key event as the hook reports it (uiohook-napi's keyboard event, reduced). */
export interface RawKeyEvent {
  readonly keycode: number;
  /** Milliseconds (the hook's own clock; only differences are used). */
  readonly time: number;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
}
