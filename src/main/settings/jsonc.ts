import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/** Result of reading a JSONC document: the value (null when unusable) and what was wrong with it. */
export interface JsoncResult {
  readonly value: unknown;
  readonly errors: readonly string[];
  /** Keys that were dropped because they could reach Object.prototype (`__proto__`, …), as key paths. */
  readonly droppedKeys: readonly string[];
}

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
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const messages = errors.map((e) => `${printParseErrorCode(e.error)} at offset ${e.offset}`);
  const droppedKeys: string[] = [];
  if (tree === undefined) return { value: null, errors: messages.length > 0 ? messages : ['empty document'], droppedKeys };
  const value = toValue(tree, '', droppedKeys);
  return { value, errors: messages, droppedKeys };
}

function toValue(node: Node, path: string, dropped: string[]): unknown {
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
        out[key] = toValue(valueNode, childPath, dropped);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((c, i) => toValue(c, `${path}.${i}`, dropped));
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
