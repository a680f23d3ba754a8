import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repairConfig } from '../../../../src/main/settings/config-repair.ts';
import { ConfigStore } from '../../../../src/main/settings/config-store.ts';
import { MAX_CONFIG_DEPTH, parseJsonc } from '../../../../src/main/settings/jsonc.ts';
import { getPath } from '../../../../src/main/settings/key-path.ts';
import { tempDir } from './helpers.ts';

/**
 * Property-based tests of the config parser (fast-check, fixed seeds): on any text it never throws;
 * every valid setting written in any JSONC style (comments, trailing commas, indentation, CRLF) comes
 * back with its value, next to broken siblings and unknown keys, which are kept too; and
 * `ConfigStore.open` never throws for any bytes. Figures: docs/user/privacy-and-security.md, "Reliability".
 */

const SEED = 20_260_515;
const RUNS = Number(process.env.TINGXIE_FUZZ_RUNS ?? 2000);

/** Settings with values the schema accepts, by key path. */
const FIELDS: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  'ui.language': fc.constantFrom('system', 'zh', 'en'),
  'hotkeys.alt_r': fc.boolean(),
  'feedback.visual_indicator': fc.boolean(),
  'feedback.sound_volume': fc.double({ min: 0, max: 1, noNaN: true }),
  'audio.max_recording_seconds': fc.integer({ min: 1, max: 3600 }),
  'audio.silence_rms': fc.double({ min: 0, max: 32768, noNaN: true }),
  'audio.pre_roll_ms': fc.integer({ min: 0, max: 2000 }),
  'audio.vad_enabled': fc.boolean(),
  'audio.retention_days': fc.integer({ min: 0, max: 3650 }),
  'asr.language': fc.constantFrom('auto', 'zh', 'en', 'yue', 'zh-TW'),
  'asr.local.threads': fc.integer({ min: 0, max: 64 }),
  'ai_enhance.enabled': fc.boolean(),
  'ai_enhance.thinking': fc.boolean(),
  'ai_enhance.mode': fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  'ai_enhance.timeout': fc.integer({ min: 1, max: 600 }),
  // Free text: brackets, quotes, comment markers and newlines must not confuse the parser or its limits.
  'ai_enhance.context_note': fc.string({ unit: 'grapheme', maxLength: 200 }),
  'output.preview': fc.boolean(),
  'output.submit_key': fc.constantFrom('none', 'enter', 'shift+enter', 'mod+enter'),
  'history.enabled': fc.boolean(),
  'history.retention_days': fc.integer({ min: 0, max: 36500 }),
};
const PATHS = Object.keys(FIELDS);

/** A subset of the fields with valid values, as [path, value] pairs. */
const settings = fc.subarray(PATHS, { minLength: 1 }).chain((paths) => fc.tuple(...paths.map((p) => FIELDS[p] as fc.Arbitrary<unknown>)).map((values) => paths.map((p, i) => [p, values[i]] as const)));

/** Nested object of the pairs. */
function nest(pairs: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [p, v] of pairs) {
    const segs = p.split('.');
    let at = root;
    for (const s of segs.slice(0, -1)) at = (at[s] ??= {}) as Record<string, unknown>;
    at[segs.at(-1) as string] = v;
  }
  return root;
}

/** JSONC text of a value in a random style: comments, trailing commas, indentation, CRLF. */
function jsonc(value: unknown, style: { indent: number; comments: boolean; trailing: boolean; crlf: boolean }, depth = 0): string {
  const nl = style.indent > 0 ? (style.crlf ? '\r\n' : '\n') : '';
  const pad = (d: number): string => ' '.repeat(style.indent * d);
  const comment = style.comments ? `/* ${depth} ] } [ { " */ ` : '';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => `${pad(depth + 1)}${comment}${jsonc(v, style, depth + 1)}`);
    return `[${nl}${items.join(`,${nl}`)}${style.trailing ? ',' : ''}${nl}${pad(depth)}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const items = entries.map(([k, v]) => `${pad(depth + 1)}${comment}${JSON.stringify(k)}: ${jsonc(v, style, depth + 1)}`);
    const line = style.comments && nl !== '' ? `${nl}${pad(depth + 1)}// a line comment with { and [${nl}` : nl;
    return `{${line}${items.join(`,${nl}`)}${style.trailing ? ',' : ''}${nl}${pad(depth)}}`;
  }
  return JSON.stringify(value);
}
const style = fc.record({ indent: fc.constantFrom(0, 2, 4), comments: fc.boolean(), trailing: fc.boolean(), crlf: fc.boolean() });

/** Text near the JSONC grammar: structure characters, strings, comments, deep runs of brackets. */
const nearJsonc = fc
  .array(
    fc.oneof(
      fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '//', '/*', '*/', '\n', 'true', 'null', '1e999', '-0', '"__proto__"', '"a"'),
      fc.string({ maxLength: 8 }),
      fc.integer({ min: 1, max: 3 * MAX_CONFIG_DEPTH }).map((n) => '['.repeat(n)),
      fc.integer({ min: 1, max: 3 * MAX_CONFIG_DEPTH }).map((n) => '{"k":'.repeat(n)),
      // Deep enough to overflow a recursive parser (the RangeError that once stopped the app).
      fc.constantFrom('['.repeat(6000), '{"a":'.repeat(6000)),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('config parser (property-based)', () => {
  it(`never throws, on arbitrary and near-JSONC text (${RUNS} cases each)`, () => {
    for (const [i, arb] of [fc.string({ unit: 'binary', maxLength: 400 }), nearJsonc].entries()) {
      fc.assert(
        fc.property(arb, (text) => {
          const r = parseJsonc(text);
          expect(Array.isArray(r.errors)).toBe(true);
          // Whatever came out, the repair step takes it without throwing either.
          repairConfig(r.errors.length === 0 ? r.value : undefined);
        }),
        { seed: SEED + i, numRuns: RUNS },
      );
    }
  });

  it(`never loses a valid setting, whatever the JSONC style, next to broken siblings and unknown keys (${RUNS} cases)`, () => {
    let fields = 0;
    fc.assert(
      // Keys that could reach a prototype are dropped on purpose (and reported): not generated here.
      fc.property(settings, style, fc.boolean(), fc.jsonValue({ maxDepth: 5 }).filter((v) => !/"(__proto__|constructor|prototype)":/.test(JSON.stringify(v) ?? '')), (pairs, st, breakOne, extra) => {
        const doc = nest(pairs);
        // An unknown key (kept as written) and, sometimes, a broken known one (reset alone).
        (doc as Record<string, unknown>).x_plugin = extra;
        const broken = breakOne && !pairs.some(([p]) => p === 'output.restore_clipboard');
        if (broken) ((doc.output ??= {}) as Record<string, unknown>).restore_clipboard = 'yes please';
        const parsed = parseJsonc(jsonc(doc, st));
        expect(parsed.errors).toEqual([]);
        const repaired = repairConfig(parsed.value);
        for (const [p, v] of pairs) {
          expect(getPath(repaired.config, p.split('.')), p).toEqual(v);
          fields++;
        }
        expect(JSON.stringify(repaired.raw.x_plugin)).toBe(JSON.stringify(extra));
        expect(repaired.issues.map((i) => i.path)).toEqual(broken ? ['output.restore_clipboard'] : []);
      }),
      { seed: SEED + 2, numRuns: RUNS },
    );
    expect(fields).toBeGreaterThan(RUNS * 3);
  });

  it(`ConfigStore.open never throws for any bytes in config.json (${Math.round(RUNS / 10)} cases)`, async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 300 }), nearJsonc.map((t) => new Uint8Array(Buffer.from(t)))), async (bytes) => {
        fs.writeFileSync(file, bytes);
        const store = await ConfigStore.open({ dataDir: dir });
        expect(store.get().version).toBeGreaterThan(0);
        for (const f of fs.readdirSync(dir)) if (f !== 'config.json') fs.rmSync(path.join(dir, f));
      }),
      { seed: SEED + 3, numRuns: Math.round(RUNS / 10) },
    );
  });
});
