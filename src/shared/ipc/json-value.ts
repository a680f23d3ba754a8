import { z } from 'zod';

/** A JSON primitive. */
export type JsonPrimitive = null | boolean | number | string;
/** Any JSON value, read-only: what may cross IPC as an arbitrary value (e.g. a config value). */
export type JsonValue = JsonPrimitive | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * Keys that could reach an object's prototype chain when a value is later merged or assigned by key.
 * JSON.parse and structured clone both create them as ordinary own keys, so they do arrive over IPC.
 */
export const forbiddenKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Limits for {@link inspectJson}. */
export interface JsonLimits {
  /** Approximate serialized size budget (string lengths plus a few bytes per node). */
  readonly maxBytes: number;
  /** Nesting depth of arrays/objects; the root container is depth 1. */
  readonly maxDepth: number;
  /** Whether `undefined` is accepted as the whole value (a call without payload). */
  readonly allowUndefinedRoot?: boolean;
}

/** Why a value is not acceptable JSON: where, and what. */
export interface JsonProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Default limits of {@link jsonValueSchema}: plenty for any config value, far below the IPC guard. */
export const defaultJsonLimits: JsonLimits = { maxBytes: 256 * 1024, maxDepth: 32 };

class Budget {
  used = 0;
  readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  /** Adds `n` bytes; false once the budget is exceeded (so a 10 MB string is refused without copying it). */
  take(n: number): boolean {
    this.used += n;
    return this.used <= this.max;
  }
}

/** `1048576` → `1 MB`, `262144` → `256 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

/** Human-readable `a.b[2].c` form of a path, `(root)` for the value itself. */
export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(root)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value);
    const name = proto && typeof proto === 'object' && 'constructor' in proto ? (proto.constructor as { name?: unknown }).name : undefined;
    return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object';
  }
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Checks that `value` is plain JSON within the limits: null, booleans, finite numbers, strings,
 * arrays without holes and plain objects with own data properties, no forbidden keys, no symbol keys.
 * Never throws for ordinary input (a throwing Proxy or getter is the caller's to catch) and stops at the
 * first problem, so its cost is bounded by the limits, not by the input.
 */
export function inspectJson(value: unknown, limits: JsonLimits = defaultJsonLimits): JsonProblem | null {
  if (value === undefined && limits.allowUndefinedRoot === true) return null;
  const budget = new Budget(limits.maxBytes);
  const tooLarge = (path: readonly (string | number)[]): JsonProblem => ({
    path,
    message: `is too large (over ${formatBytes(limits.maxBytes)})`,
  });

  const walk = (v: unknown, path: (string | number)[], depth: number): JsonProblem | null => {
    switch (typeof v) {
      case 'string':
        return budget.take(v.length + 2) ? null : tooLarge(path);
      case 'boolean':
        return budget.take(5) ? null : tooLarge(path);
      case 'number':
        if (!Number.isFinite(v)) return { path, message: `must be a finite number, got ${String(v)}` };
        return budget.take(8) ? null : tooLarge(path);
      case 'object': {
        if (v === null) return budget.take(4) ? null : tooLarge(path);
        if (depth >= limits.maxDepth) return { path, message: `is nested too deeply (more than ${limits.maxDepth} levels)` };
        if (!budget.take(2)) return tooLarge(path);
        if (Array.isArray(v)) return walkArray(v, path, depth + 1);
        if (!isPlainObject(v)) return { path, message: `must be plain JSON, got ${describe(v)}` };
        return walkObject(v, path, depth + 1);
      }
      default:
        return { path, message: `must be a JSON value, got ${describe(v)}` };
    }
  };

  const walkArray = (arr: readonly unknown[], path: (string | number)[], depth: number): JsonProblem | null => {
    if (!budget.take(arr.length)) return tooLarge(path);
    for (let i = 0; i < arr.length; i++) {
      if (!Object.prototype.hasOwnProperty.call(arr, i)) return { path: [...path, i], message: 'is a hole in a sparse array' };
      const problem = walk(arr[i], [...path, i], depth);
      if (problem) return problem;
    }
    return null;
  };

  const walkObject = (obj: object, path: (string | number)[], depth: number): JsonProblem | null => {
    if (Object.getOwnPropertySymbols(obj).length > 0) return { path, message: 'must not have symbol keys' };
    // Descriptors, not property reads: an accessor must never run while we merely look at a payload.
    const descriptors = Object.getOwnPropertyDescriptors(obj);
    for (const key of Object.keys(descriptors)) {
      const keyPath = [...path, key];
      if (forbiddenKeys.has(key)) return { path: keyPath, message: `uses the forbidden key "${key}"` };
      if (!budget.take(key.length + 3)) return tooLarge(keyPath);
      const d = descriptors[key];
      if (!d || !('value' in d)) return { path: keyPath, message: 'must be a data property, not an accessor' };
      const problem = walk(d.value, keyPath, depth);
      if (problem) return problem;
    }
    return null;
  };

  return walk(value, [], 0);
}

/**
 * Schema for an arbitrary JSON value (e.g. the value of `config:set`): rejects forbidden keys at any
 * depth, non-finite numbers, nesting past `maxDepth` and values over `maxBytes`.
 */
export function jsonValue(limits: JsonLimits = defaultJsonLimits): z.ZodType<JsonValue> {
  return z.custom<JsonValue>().superRefine((value, ctx) => {
    const problem = inspectJson(value, limits);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: [...problem.path] });
  });
}

/** {@link jsonValue} with the default limits (32 levels, 256 KB). */
export const jsonValueSchema: z.ZodType<JsonValue> = jsonValue();
