/** Small helpers over plain JSON values (objects made of `{}` literals, arrays, primitives). */

/** True for a non-null, non-array object. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A deep copy of a JSON value (no prototypes, no functions). */
export function cloneJson<T>(v: T): T {
  return structuredClone(v);
}

/** Freezes a value and everything under it; returns it for chaining. */
export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const child of Object.values(v)) deepFreeze(child);
  }
  return v;
}
