import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/** Result of reading a JSONC document: the value (null when unusable) and what was wrong with it. */
export interface JsoncResult {
  readonly value: unknown;
  readonly errors: readonly string[];
  /** Keys that were dropped because they could reach Object.prototype (`__proto__`, …), as key paths. */
  readonly droppedKeys: readonly string[];
}

/**
 * Limits of a config document. A real config.json is a few KB and 5 levels deep; these are far above
 * that and far below what breaks the parser (5,000+ levels overflow its recursion; a 200 MB file took
 * about 1 GB to load). Over a limit the document is reported as damaged, never thrown.
 */
export const MAX_CONFIG_DEPTH = 64;
/** Largest config document read (bytes); the store checks the file's size before reading it. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** Keys never copied into a config object: they could change its prototype. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** True when `k` must never become a property of a config object. */
export function isForbiddenKey(k: string): boolean {
  return FORBIDDEN_KEYS.has(k);
}

/**
 * Parses JSON with comments and trailing commas. Builds values from the syntax tree by hand (rather than
 * jsonc-parser's `parse`, which assigns `obj[key] = v` and so lets a `__proto__` key swap an object's
 * prototype), dropping and reporting prototype-reaching keys. A later duplicate key wins, as in JSON.parse.
 */
export function parseJsonc(text: string): JsoncResult {
  const droppedKeys: string[] = [];
  // Characters, not bytes: a UTF-8 file is at least as long in bytes, so the store's byte check comes first.
  if (text.length > MAX_CONFIG_BYTES) return { value: null, errors: [`document of ${text.length} characters is larger than the ${MAX_CONFIG_BYTES / 1048576} MB limit`], droppedKeys };
  const deep = depthProblem(text, MAX_CONFIG_DEPTH);
  if (deep !== null) return { value: null, errors: [deep], droppedKeys };
  try {
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    const messages = errors.map((e) => `${printParseErrorCode(e.error)} at offset ${e.offset}`);
    if (tree === undefined) return { value: null, errors: messages.length > 0 ? messages : ['empty document'], droppedKeys };
    const value = toValue(tree, '', droppedKeys);
    return { value, errors: messages, droppedKeys };
  } catch (err) {
    // The limits above keep the parser's recursion shallow; this is the last line, never a crash at start.
    return { value: null, errors: [`unreadable document: ${(err as Error).message}`], droppedKeys: [] };
  }
}

/**
 * Where brackets nest deeper than `max`, or null. One pass, skipping strings and comments as the JSONC
 * scanner does (an unterminated string or comment just ends the scan: the parser reports it).
 */
export function depthProblem(text: string, max: number): string | null {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22 || d === 0x0a || d === 0x0d) break; // a newline ends a broken string, as in jsonc-parser
      }
    } else if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      while (i < n && text.charCodeAt(i) !== 0x0a) i++;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) return null;
      i = end + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return `nested deeper than ${max} levels at offset ${i}`;
    } else if ((c === 0x7d /* } */ || c === 0x5d) /* ] */ && depth > 0) {
      depth--;
    }
  }
  return null;
}

function toValue(node: Node, path: string, dropped: string[], depth = 0): unknown {
  // The pre-scan bounds this already; a second guard keeps every later recursive step (repair, zod) shallow.
  if (depth > MAX_CONFIG_DEPTH) throw new Error(`nested deeper than ${MAX_CONFIG_DEPTH} levels at offset ${node.offset}`);
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const prop of node.children ?? []) {
        const [keyNode, valueNode] = prop.children ?? [];
        if (keyNode === undefined || typeof keyNode.value !== 'string') continue;
        const key = keyNode.value;
        const childPath = path === '' ? key : `${path}.${key}`;
        if (isForbiddenKey(key)) {
          dropped.push(childPath);
          continue;
        }
        // A property without a value (truncated file) is skipped; the field then falls back to its default.
        if (valueNode === undefined) continue;
        out[key] = toValue(valueNode, childPath, dropped, depth + 1);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((c, i) => toValue(c, `${path}.${i}`, dropped, depth + 1));
    case 'string':
    case 'number':
    case 'boolean':
      return node.value;
    case 'null':
      return null;
    case 'property':
      return undefined;
    default: {
      const never: never = node.type;
      return never;
    }
  }
}
