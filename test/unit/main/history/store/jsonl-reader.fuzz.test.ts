import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../../src/main/history/store/history-store.ts';
import { historyPaths } from '../../../../../src/main/history/paths.ts';
import { recordKey } from '../../../../../src/shared/history/record.ts';
import { makeTempDir, rmTempDir } from '../../../../helpers/history-fixtures.ts';
import { jsonlLineOfRaw, parseJsonlLines, type JsonlLine } from '../../../../../src/main/history/store/jsonl-reader.ts';
import { scanHandle } from '../../../../../src/main/history/store/line-scan.ts';
import { historyRecordSchema } from '../../../../../src/shared/history/record.ts';

/**
 * Property-based tests of the JSONL reader (fast-check, fixed seeds so a failure replays): on any bytes
 * it never throws; every valid record comes back exactly, in order, whatever garbage surrounds it; no
 * non-blank line is dropped silently (it comes back as a bad line with its text); and the streaming
 * reader — any read size, any line limit — agrees with the in-memory one, locating the lines it will
 * not decode byte-exactly. Figures: docs/user/privacy-and-security.md, "Reliability".
 */

const SEED = 20_260_514;
const RUNS = Number(process.env.TINGXIE_FUZZ_RUNS ?? 2000);

/** A FileHandle over a buffer: `scanHandle` reads through `read` only. */
function bufferHandle(buf: Buffer): FileHandle {
  return {
    read: async (target: Buffer, offset: number, length: number, position: number) => {
      const n = Math.max(0, Math.min(length, buf.length - position));
      buf.copy(target, offset, position, position + n);
      return { bytesRead: n, buffer: target };
    },
  } as unknown as FileHandle;
}

async function streamed(buf: Buffer, chunkBytes: number, maxLineBytes: number): Promise<JsonlLine[]> {
  const out: JsonlLine[] = [];
  for await (const batch of scanHandle(bufferHandle(buf), { chunkBytes, maxLineBytes })) {
    for (const raw of batch) {
      const l = jsonlLineOfRaw(raw, maxLineBytes);
      if (l) out.push(l);
    }
  }
  return out;
}

const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const record = fc
  .record({
    id: fc.stringMatching(/^[0-9A-Z]{6,26}$/),
    timestamp: fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
    asr_text: text,
    enhanced_text: fc.option(text, { nil: null }),
    final_text: text,
    enhance_mode: fc.stringMatching(/^[a-z_]{1,12}$/),
    preview_enabled: fc.boolean(),
    stt_model: fc.string({ maxLength: 10 }),
    llm_model: fc.string({ maxLength: 10 }),
    user_corrected: fc.boolean(),
    audio_duration: fc.double({ min: 0, max: 3600, noNaN: true }),
  })
  .map((r) => historyRecordSchema.parse(r));

/** Lines that are not records: broken JSON, other JSON, NULs, torn prefixes of records, blank lines. */
const garbage = fc.oneof(
  fc.string({ maxLength: 60 }).map((s) => s.replace(/\n/g, ' ')),
  fc.constantFrom('{', '}', '[]', 'null', '"str"', '{"asr_text": 1}', '\u0000\u0000\u0000', '   ', '\t', '{"timestamp": "x"', '\uFEFF{}'),
  record.map((r) => JSON.stringify(r).slice(0, -3)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
);

type Item = { kind: 'record'; value: ReturnType<typeof historyRecordSchema.parse> } | { kind: 'garbage'; text: string };
const items = fc.array(fc.oneof({ arbitrary: record.map((value): Item => ({ kind: 'record', value })), weight: 2 }, garbage.map((t): Item => ({ kind: 'garbage', text: t }))), { maxLength: 25 });

function render(list: readonly Item[], crlf: boolean, finalNewline: boolean): string {
  const lines = list.map((i) => (i.kind === 'record' ? JSON.stringify(i.value) : i.text));
  const sep = crlf ? '\r\n' : '\n';
  return lines.join(sep) + (finalNewline && lines.length > 0 ? sep : '');
}

describe('JSONL reader (property-based)', () => {
  it(`never throws on arbitrary text or bytes (${RUNS} cases each)`, async () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        parseJsonlLines(s);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 128 }), async (bytes, chunk, max) => {
        await streamed(Buffer.from(bytes), chunk, max);
      }),
      { seed: SEED + 1, numRuns: RUNS },
    );
  });

  it(`never loses a valid record or a line of text, around any garbage (${RUNS} cases)`, () => {
    let records = 0;
    let garbageLines = 0;
    fc.assert(
      fc.property(items, fc.boolean(), fc.boolean(), (list, crlf, finalNewline) => {
        const lines = parseJsonlLines(render(list, crlf, finalNewline));
        const got = lines.flatMap((l) => (l.kind === 'record' ? [l.record] : []));
        const want = list.flatMap((i) => (i.kind === 'record' ? [i.value] : []));
        expect(got).toEqual(want);
        records += want.length;
        // Every non-blank garbage line is reported with its exact text (nothing vanishes).
        const bad = lines.flatMap((l) => (l.kind === 'bad' ? [l.text] : []));
        const wantBad = list.flatMap((i) => (i.kind === 'garbage' && i.text.trim() !== '' && !parsesAsRecord(i.text) ? [i.text] : []));
        expect(bad).toEqual(wantBad);
        garbageLines += wantBad.length;
      }),
      { seed: SEED + 2, numRuns: RUNS },
    );
    expect(records).toBeGreaterThan(RUNS);
    expect(garbageLines).toBeGreaterThan(RUNS / 2);
  });

  it(`the streaming reader agrees with the in-memory one for any read size and line limit; oversized lines are located byte-exactly (${RUNS} cases)`, async () => {
    let oversized = 0;
    await fc.assert(
      fc.asyncProperty(items, fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 97 }), fc.integer({ min: 40, max: 600 }), async (list, crlf, finalNewline, chunk, max) => {
        const body = render(list, crlf, finalNewline);
        const buf = Buffer.from(body, 'utf8');
        const got = await streamed(buf, chunk, max);
        const want = parseJsonlLines(body, max);
        expect(got.length).toBe(want.length);
        for (const [i, g] of got.entries()) {
          const w = want[i] as JsonlLine;
          if (g.kind === 'bad' && g.oversized) {
            oversized++;
            expect(w.kind).toBe('bad');
            // The bytes it points at are the line, exactly (without its newline).
            expect(buf.subarray(g.oversized.offset, g.oversized.offset + g.oversized.bytes).toString('utf8').replace(/\r$/, '')).toBe(w.text);
            expect(g.line).toBe(w.line);
          } else {
            expect(g).toEqual(w);
          }
        }
      }),
      { seed: SEED + 3, numRuns: RUNS },
    );
    expect(oversized).toBeGreaterThan(0);
  });
});

describe('JSONL store rewrite (property-based)', () => {
  const STORE_RUNS = Math.max(50, Math.round(RUNS / 10));
  it(`a delete rewrites the file without losing any other record, and every unreadable line goes to quarantine (${STORE_RUNS} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(items, fc.boolean(), fc.nat(), async (list, crlf, pick) => {
        const dir = makeTempDir();
        try {
          const body = render(list, crlf, true);
          fs.writeFileSync(historyPaths(dir).active, body);
          const recs = list.flatMap((i) => (i.kind === 'record' ? [i.value] : []));
          // Duplicate ids make "which one is deleted" ambiguous: delete a unique one, or none.
          const keys = recs.map((r) => recordKey(r));
          const unique = keys.filter((k) => keys.indexOf(k) === keys.lastIndexOf(k));
          const victim = unique.length > 0 ? unique[pick % unique.length] : undefined;
          fc.pre(victim !== undefined);
          const store = await HistoryStore.open({ dataDir: dir, warn: () => undefined });
          expect(await store.delete(victim ?? '')).toBe(true);
          await store.close();
          const after = parseJsonlLines(fs.readFileSync(historyPaths(dir).active, 'utf8')).flatMap((l) => (l.kind === 'record' ? [l.record] : []));
          expect(after).toEqual(recs.filter((r) => recordKey(r) !== victim));
          const quarantined = fs.existsSync(historyPaths(dir).quarantine)
            ? fs.readFileSync(historyPaths(dir).quarantine, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text)
            : [];
          for (const l of parseJsonlLines(body)) if (l.kind === 'bad') expect(quarantined).toContain(l.text.replace(/\r$/, ''));
        } finally {
          rmTempDir(dir);
        }
      }),
      { seed: SEED + 4, numRuns: STORE_RUNS },
    );
  }, 120_000);
});

function parsesAsRecord(line: string): boolean {
  return parseJsonlLines(`${line}\n`).some((l) => l.kind === 'record');
}
