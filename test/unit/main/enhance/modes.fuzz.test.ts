import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModeFileError, parseModeText } from '../../../../src/main/enhance/modes.ts';

/**
 * Property-based tests of the mode-file parser (fast-check, fixed seeds): on any text it either parses
 * or throws a ModeFileError whose line is inside the file (never anything else: a crash would take the
 * mode list down); and every field written validly — in any layout WenZi users use (BOM, CRLF, comments,
 * blank lines, list syntax for steps, quoted labels) — comes back with its value, prompt included.
 * Figures: docs/user/privacy-and-security.md, "Reliability".
 */

const SEED = 20_260_516;
const RUNS = Number(process.env.TINGXIE_FUZZ_RUNS ?? 2000);

const nearFrontMatter = fc
  .array(
    fc.oneof(
      fc.constantFrom('---', '---\n', '\n', '\r\n', ':', ' ', '  - ', '#', 'label', 'order', 'steps', 'guard', 'track_corrections', '__proto__', 'constructor', '[', ']', ',', '"', "'", '\uFEFF'),
      fc.string({ maxLength: 10 }),
    ),
    { maxLength: 40 },
  )
  .map((p) => p.join(''));

const modeId = fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/).filter((id) => id !== 'off');
const label = fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, ' ').trim()).filter((s) => s !== '' && !/^["']|["']$/.test(s));
const prompt = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== '' && !s.includes('\n---') && !/^-{3}/.test(s.trim()));

interface Meta {
  label?: string;
  order?: number;
  track_corrections?: boolean;
  guard?: 'full' | 'length' | 'off';
  steps?: string[];
}
const meta = fc.record(
  {
    label,
    order: fc.integer({ min: -1000, max: 1000 }),
    track_corrections: fc.boolean(),
    guard: fc.constantFrom('full' as const, 'length' as const, 'off' as const),
    steps: fc.array(fc.stringMatching(/^[a-z_]{1,10}$/), { minLength: 2, maxLength: 4 }),
  },
  { requiredKeys: [] },
);
const layout = fc.record({ crlf: fc.boolean(), bom: fc.boolean(), comments: fc.boolean(), quoteLabel: fc.constantFrom('', '"', "'"), listSteps: fc.boolean(), blank: fc.boolean(), yesNo: fc.boolean() });

function render(m: Meta, body: string, l: { crlf: boolean; bom: boolean; comments: boolean; quoteLabel: string; listSteps: boolean; blank: boolean; yesNo: boolean }): string {
  const lines: string[] = ['---'];
  if (l.comments) lines.push('# written by hand');
  if (m.label !== undefined) lines.push(`label: ${l.quoteLabel}${m.label}${l.quoteLabel}`);
  if (l.blank) lines.push('');
  if (m.order !== undefined) lines.push(`order:   ${m.order}`);
  if (m.track_corrections !== undefined) lines.push(`track_corrections: ${l.yesNo ? (m.track_corrections ? 'yes' : 'no') : String(m.track_corrections)}`);
  if (m.guard !== undefined) lines.push(`guard: ${m.guard}`);
  if (m.steps !== undefined) {
    if (l.listSteps) lines.push('steps:', ...m.steps.map((s) => `  - ${s}`));
    else lines.push(`steps: [${m.steps.join(', ')}]`);
  }
  lines.push('---', body);
  const text = lines.join(l.crlf ? '\r\n' : '\n');
  return (l.bom ? '\uFEFF' : '') + text;
}

describe('mode-file parser (property-based)', () => {
  it(`parses or throws a ModeFileError with a line inside the file, on any text (${RUNS} cases each)`, () => {
    for (const [i, arb] of [fc.string({ unit: 'binary', maxLength: 300 }), nearFrontMatter].entries()) {
      fc.assert(
        fc.property(modeId, arb, (id, text) => {
          try {
            parseModeText(id, text);
          } catch (err) {
            expect(err).toBeInstanceOf(ModeFileError);
            const line = (err as ModeFileError).line;
            if (line !== null) {
              expect(line).toBeGreaterThanOrEqual(1);
              expect(line).toBeLessThanOrEqual(text.replace(/\r\n?/g, '\n').split('\n').length + 1);
            }
          }
        }),
        { seed: SEED + i, numRuns: RUNS },
      );
    }
  });

  it(`never loses a valid field or the prompt, in any hand-written layout (${RUNS} cases)`, () => {
    let fields = 0;
    fc.assert(
      fc.property(modeId, meta, prompt, layout, (id, m, body, l) => {
        fc.pre(!(m.steps ?? []).includes(id));
        const mode = parseModeText(id, render(m, body, l));
        expect(mode.id).toBe(id);
        expect(mode.label).toBe(m.label ?? id);
        expect(mode.order).toBe(m.order ?? 50);
        expect(mode.trackCorrections).toBe(m.track_corrections ?? false);
        expect(mode.guard).toBe(m.guard ?? 'full');
        expect(mode.steps).toEqual(m.steps ?? null);
        expect(mode.prompt).toBe(body.replace(/\r\n?/g, '\n').trim());
        fields += 6;
      }),
      { seed: SEED + 2, numRuns: RUNS },
    );
    expect(fields).toBe(RUNS * 6);
  });
});
