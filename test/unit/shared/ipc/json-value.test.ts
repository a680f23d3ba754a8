import { describe, expect, it } from 'vitest';
import { formatPath, inspectJson, jsonValue, jsonValueSchema } from '../../../../src/shared/ipc/json-value.ts';

function nested(depth: number): unknown {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('inspectJson / jsonValueSchema', () => {
  it('accepts plain JSON, including null-prototype objects', () => {
    for (const v of [null, true, 0, -1.5, '', 'text', [], [1, 'a', null, [{}]], { a: { b: [1, 2] } }, Object.assign(Object.create(null), { a: 1 })]) {
      expect(inspectJson(v)).toBeNull();
      expect(jsonValueSchema.safeParse(v).success).toBe(true);
    }
  });

  it('rejects forbidden keys at any depth, as own keys from JSON.parse', () => {
    for (const text of ['{"__proto__":{"x":1}}', '{"a":[{"constructor":{"prototype":{"x":1}}}]}', '{"a":{"b":{"prototype":1}}}']) {
      const problem = inspectJson(JSON.parse(text));
      expect(problem?.message).toMatch(/forbidden key/);
    }
    const r = jsonValueSchema.safeParse(JSON.parse('{"a":[0,{"__proto__":1}]}'));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['a', 1, '__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('rejects non-finite numbers and non-JSON values with a readable reason', () => {
    const cases: [unknown, RegExp][] = [
      [Number.NaN, /finite number, got NaN/],
      [{ a: [Infinity] }, /finite number, got Infinity/],
      [undefined, /JSON value, got undefined/],
      [{ a: undefined }, /got undefined/],
      [() => 1, /got a function/],
      [Symbol('s'), /got a symbol/],
      [1n, /got a bigint/],
      [new Date(0), /plain JSON, got a Date/],
      [new Map(), /plain JSON, got a Map/],
      [{ [Symbol('k')]: 1 }, /symbol keys/],
      [Object.defineProperty({}, 'g', { get: () => 1, enumerable: true }), /accessor/],
      // eslint-disable-next-line no-sparse-arrays
      [[1, , 3], /sparse/],
    ];
    for (const [value, message] of cases) expect(inspectJson(value)?.message).toMatch(message);
  });

  it('does not run getters while inspecting', () => {
    let ran = false;
    const v = Object.defineProperty({}, 'g', {
      get: () => {
        ran = true;
        return 1;
      },
      enumerable: true,
    });
    inspectJson(v);
    expect(ran).toBe(false);
  });

  it('allows 32 levels and refuses 33; survives 100k levels and cycles', () => {
    expect(inspectJson(nested(32))).toBeNull();
    expect(inspectJson(nested(33))?.message).toMatch(/nested too deeply/);
    expect(inspectJson(nested(100_000))?.message).toMatch(/nested too deeply/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(inspectJson(cycle)?.message).toMatch(/nested too deeply/);
  });

  it('refuses oversized values without depending on their size', () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    expect(inspectJson(big)?.message).toBe('is too large (over 256 KB)');
    expect(inspectJson(new Array(1_000_000).fill(0))?.message).toMatch(/too large/);
    expect(inspectJson({ a: 'x'.repeat(1000) }, { maxBytes: 500, maxDepth: 5 })?.path).toEqual(['a']);
    expect(jsonValue({ maxBytes: 10, maxDepth: 2 }).safeParse('x'.repeat(20)).success).toBe(false);
  });

  it('allows an undefined root only when asked', () => {
    expect(inspectJson(undefined, { maxBytes: 10, maxDepth: 2, allowUndefinedRoot: true })).toBeNull();
    expect(inspectJson({ a: undefined }, { maxBytes: 10, maxDepth: 2, allowUndefinedRoot: true })).not.toBeNull();
  });

  it('formats paths', () => {
    expect(formatPath([])).toBe('(root)');
    expect(formatPath(['a', 2, 'b'])).toBe('a[2].b');
  });
});
