import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../../src/shared/config/config-schema.ts';
import { ConfigStore } from '../../../../src/main/settings/config-store.ts';
import { MAX_CONFIG_DEPTH, parseJsonc } from '../../../../src/main/settings/jsonc.ts';
import { tempDir } from './helpers.ts';

/**
 * `ConfigStore.open` promises never to throw for a bad file. Two files that broke that promise: one
 * nested thousands of levels deep (a RangeError in the JSONC parser: the app did not start) and one of
 * 200 MB (about 1 GB of memory to load). Both are now reported, the app starts on the defaults, and the
 * original is kept.
 */

const defaults = configSchema.parse({});

describe('config.json over the limits', () => {
  it('5,000+ levels of nesting: reported, defaults used, original kept; never a RangeError', async () => {
    for (const levels of [5_000, 100_000]) {
      const dir = tempDir();
      const file = path.join(dir, 'config.json');
      const text = `{"ui": {"language": "zh"}, "deep": ${'['.repeat(levels)}1${']'.repeat(levels)}}`;
      fs.writeFileSync(file, text);
      // Before the fix: RangeError: Maximum call stack size exceeded.
      const store = await ConfigStore.open({ dataDir: dir });
      expect(store.loadIssues.map((i) => i.message).join('\n')).toMatch(new RegExp(`nested deeper than ${MAX_CONFIG_DEPTH} levels`));
      expect(store.get().ui).toEqual(defaults.ui);
      expect(store.backupPath).not.toBeNull();
      expect(fs.readFileSync(store.backupPath ?? '', 'utf8')).toBe(text);
      // The rewritten file is a normal config again.
      expect((await ConfigStore.open({ dataDir: dir })).loadIssues).toEqual([]);
    }
    // Objects as well as arrays, and inside a comment or a string it is not nesting at all.
    expect(parseJsonc(`${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`).errors[0]).toMatch(/nested deeper/);
    expect(parseJsonc(`{"a": "${'['.repeat(6000)}", /* ${'{'.repeat(6000)} */ "b": 1}`)).toEqual({ value: { a: '['.repeat(6000), b: 1 }, errors: [], droppedKeys: [] });
    // Exactly at the limit is fine.
    const atLimit = `${'['.repeat(MAX_CONFIG_DEPTH)}${']'.repeat(MAX_CONFIG_DEPTH)}`;
    expect(parseJsonc(atLimit).errors).toEqual([]);
  });

  it('a 200 MB config.json is never read: fast, memory-light, set aside whole, defaults used', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{"ui": {"language": "zh"}, "pad": "');
    const size = 200 * 1024 * 1024;
    fs.truncateSync(file, size); // sparse: the test itself stays cheap
    const rssBefore = process.resourceUsage().maxRSS;
    const started = performance.now();
    const store = await ConfigStore.open({ dataDir: dir });
    const ms = performance.now() - started;
    const grownMb = (process.resourceUsage().maxRSS - rssBefore) / 1024;
    // Before the fix: the whole file was read, decoded and copied to a backup (hundreds of MB, about a second).
    expect(grownMb).toBeLessThan(50);
    expect(ms).toBeLessThan(500);
    expect(store.loadIssues.map((i) => i.message).join('\n')).toMatch(/200\.0 MB, over the 4 MB limit/);
    expect(store.get()).toEqual(defaults);
    expect(store.backupPath).toMatch(/config\.json\.bad-/);
    expect(fs.statSync(store.backupPath ?? '').size).toBe(size);
    expect(fs.statSync(store.backupPath ?? '').mode & 0o777).toBe(0o600);
    expect(fs.statSync(file).size).toBeLessThan(64 * 1024);
    // Read-only callers (CLI `config get`) are told too, and move nothing.
    fs.truncateSync(file, size);
    const ro = await ConfigStore.open({ dataDir: dir, readOnly: true });
    expect(ro.loadIssues[0]?.message).toMatch(/over the 4 MB limit: not read/);
    expect(fs.statSync(file).size).toBe(size);
  });
});
