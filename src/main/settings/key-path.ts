import type { z } from 'zod';
import { isForbiddenKey } from './jsonc.ts';
import { isPlainObject } from './plain.ts';

/** Splits 'ai_enhance.conversation_history.enabled' into segments; throws on an empty or forbidden segment. */
export function parseKeyPath(keyPath: string): readonly string[] {
  if (keyPath.trim() === '') throw new Error('empty key path');
  const segs = keyPath.split('.');
  for (const s of segs) {
    if (s === '') throw new Error(`key path '${keyPath}' has an empty segment`);
    if (isForbiddenKey(s)) throw new Error(`key path '${keyPath}' uses the reserved name '${s}'`);
  }
  return segs;
}

/** Joins zod issue paths the same way key paths are written. */
export function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

type AnySchema = z.core.$ZodType;

/** Strips wrappers (default, prefault, optional, nullable, catch, pipe input) down to the schema that holds data. */
export function unwrapSchema(schema: AnySchema): AnySchema {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = s._zod.def as { type: string; innerType?: AnySchema; in?: AnySchema };
    if ((def.type === 'default' || def.type === 'prefault' || def.type === 'optional' || def.type === 'nullable' ||
      def.type === 'catch' || def.type === 'readonly') && def.innerType !== undefined) {
      s = def.innerType;
    } else if (def.type === 'pipe' && def.in !== undefined) {
      s = def.in;
    } else {
      return s;
    }
  }
  return s;
}

/** The schema at a key path, or undefined when the path names no setting (records accept any valid key). */
export function schemaAt(root: AnySchema, segs: readonly string[]): AnySchema | undefined {
  let s: AnySchema = root;
  for (const seg of segs) {
    const def = unwrapSchema(s)._zod.def as { type: string; shape?: Record<string, AnySchema>; valueType?: AnySchema };
    if (def.type === 'object' && def.shape !== undefined) {
      if (!Object.hasOwn(def.shape, seg)) return undefined;
      const next = def.shape[seg];
      if (next === undefined) return undefined;
      s = next;
    } else if (def.type === 'record' && def.valueType !== undefined) {
      s = def.valueType;
    } else {
      return undefined;
    }
  }
  return s;
}

/** Reads the value at a path of a plain JSON value; undefined when absent. */
export function getPath(obj: unknown, segs: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const seg of segs) {
    if (!isPlainObject(cur) || !Object.hasOwn(cur, seg)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

/** Sets a value at a path in place, creating (or replacing non-object) parents. */
export function setPath(obj: Record<string, unknown>, segs: readonly string[], value: unknown): void {
  let cur = obj;
  for (let i = 0; i < segs.length - 1; i++) {
    const seg = segs[i] as string;
    const next = cur[seg];
    if (isPlainObject(next)) {
      cur = next;
    } else {
      const fresh: Record<string, unknown> = {};
      cur[seg] = fresh;
      cur = fresh;
    }
  }
  cur[segs[segs.length - 1] as string] = value;
}

/** Deletes the value at a path in place; returns whether something was there. */
export function deletePath(obj: unknown, segs: readonly string[]): boolean {
  if (segs.length === 0) return false;
  const parent = getPath(obj, segs.slice(0, -1));
  const last = segs[segs.length - 1] as string;
  if (isPlainObject(parent) && Object.hasOwn(parent, last)) {
    delete parent[last];
    return true;
  }
  if (Array.isArray(parent) && /^\d+$/.test(last) && Number(last) < parent.length) {
    parent.splice(Number(last), 1);
    return true;
  }
  return false;
}
