/**
 * The input-context port (implemented by src/main/platform/input-context.ts): which app the user is
 * dictating into, read at key-down, in WenZi's record shape (`input_context` of a history record).
 */

/** What is captured: WenZi's `input_context` object (its other keys, e.g. `focused_role`, are not read here). */
export interface InputContextInfo {
  readonly app_name: string;
  readonly bundle_id: string;
  readonly window_title?: string;
  readonly browser_domain?: string;
}

/** `ai_enhance.input_context` levels that capture something. */
export type InputContextLevel = 'basic' | 'detailed';

/** Reads the frontmost app. */
export interface InputContextPort {
  /** The frontmost app now, or null when the platform cannot say. Never throws. */
  capture(level: InputContextLevel): Promise<InputContextInfo | null>;
}
