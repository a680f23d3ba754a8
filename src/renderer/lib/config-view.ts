/**
 * Typed reads of the config snapshot the bridge returns. The renderer cannot import main's zod schema
 * (layer rule), and the snapshot crosses IPC as plain JSON, so each read checks the type at run time
 * and falls back when a value is missing or of the wrong kind (a field then shows its fallback rather
 * than crashing the window). Pure.
 */
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import type { JsonValue } from '../../shared/ipc/json-value.ts';

/** The value at a dotted key path (`ai_enhance.conversation_history.max_entries`), or undefined. */
export function valueAt(config: ConfigSnapshot | null, keyPath: string): JsonValue | undefined {
  let node: JsonValue | undefined = config ?? undefined;
  for (const segment of keyPath.split('.')) {
    if (node === null || node === undefined || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = Object.prototype.hasOwnProperty.call(node, segment) ? (node as { readonly [k: string]: JsonValue })[segment] : undefined;
  }
  return node;
}

/** A boolean setting, or `fallback`. */
export function boolAt(config: ConfigSnapshot | null, keyPath: string, fallback: boolean): boolean {
  const v = valueAt(config, keyPath);
  return typeof v === 'boolean' ? v : fallback;
}

/** A numeric setting, or `fallback`. */
export function numberAt(config: ConfigSnapshot | null, keyPath: string, fallback: number): number {
  const v = valueAt(config, keyPath);
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** A string setting, or `fallback`. */
export function stringAt(config: ConfigSnapshot | null, keyPath: string, fallback: string): string {
  const v = valueAt(config, keyPath);
  return typeof v === 'string' ? v : fallback;
}

/** A string setting restricted to `choices`, or `fallback`. */
export function choiceAt<T extends string>(config: ConfigSnapshot | null, keyPath: string, choices: readonly T[], fallback: T): T {
  const v = valueAt(config, keyPath);
  return typeof v === 'string' && (choices as readonly string[]).includes(v) ? (v as T) : fallback;
}
