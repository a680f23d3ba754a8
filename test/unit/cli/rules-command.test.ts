import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/shared/config/config-schema.ts';
import { applyForDictation } from '../../../src/main/text-rules/dictation-rules.ts';
import { RuleStore } from '../../../src/main/text-rules/rule-store.ts';
import { makeTempDir, rmTempDir } from '../../helpers/history-fixtures.ts';

/** `tingxie rules`, spawned as a user runs it, over the same text-rules.json the app reads. */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const BIN = path.join(ROOT, 'bin/tingxie.mjs');

function cli(dataDir: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(NODE, [BIN, '--data-dir', dataDir, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const dirs: string[] = [];
function tmp(): string {
  const d = makeTempDir();
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach(rmTempDir));

describe('tingxie rules', () => {
  it('adds, lists, applies, exports, imports and removes', () => {
    const dir = tmp();
    expect(cli(dir, 'rules', 'add', '平平→萍萍', '--same-pinyin').code).toBe(0);
    expect(cli(dir, 'rules', 'add', 'cloud', 'Claude').code).toBe(0);
    expect(cli(dir, 'rules', 'add', '--snippet', '我的邮箱', 'ping@example.com\n{date}').code).toBe(0);
    const listed = cli(dir, 'rules', 'list').out;
    expect(listed).toContain('平平 → 萍萍\t[same-pinyin]');
    expect(listed).toContain('“我的邮箱” ⇒ ping@example.com⏎{date}');
    expect(cli(dir, 'rules', 'apply', '嗯，那个，我和苹苹明天三点，不对，四点用cloud开会。').out).toBe('我和萍萍明天四点用Claude开会。\n');
    expect(cli(dir, 'rules', 'apply', '我的邮箱。').out).toMatch(/^ping@example\.com\n\d{4}-\d\d-\d\d\n$/);
    const file = path.join(dir, 'export.json');
    expect(cli(dir, 'rules', 'export', file).code).toBe(0);
    const other = tmp();
    expect(cli(other, 'rules', 'import', file).out).toBe('imported 3 new, 0 replaced\n');
    expect(cli(other, 'rules', 'remove', 'cloud').code).toBe(0);
    expect(cli(other, 'rules', 'apply', 'use cloud').out).toBe('use cloud\n');
    expect(cli(other, 'rules', 'remove', 'cloud').code).toBe(1);
  });

  it('prints exactly what the dictation pipeline gives, with the config’s switches and the mode’s', () => {
    const dir = tmp();
    new RuleStore(dir).addReplacementRule({ heard: 'cloud', written: 'Claude' });
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ text_rules: { modes: { raw: false } } }));
    const text = 'Um, so I asked cloud at 3, I mean 4.';
    const config = configSchema.parse({ text_rules: { modes: { raw: false } } });
    const json = JSON.parse(cli(dir, '--json', 'rules', 'apply', text).out) as { text: string };
    expect(json.text).toBe(applyForDictation(new RuleStore(dir), config, 'proofread', text).text);
    expect(json.text).toBe('So I asked Claude at 4.');
    expect(cli(dir, 'rules', 'apply', text, '--mode', 'raw').out).toBe('Um, so I asked Claude at 3, I mean 4.\n');
  });

  it('says what is wrong', () => {
    const dir = tmp();
    expect(cli(dir, 'rules', 'add', 'x→x').code).toBe(1);
    expect(cli(dir, 'rules', 'add', 'cloud→x', '--same-pinyin').err).toContain('Chinese characters only');
    expect(cli(dir, 'rules', 'import', path.join(dir, 'missing.json')).code).toBe(1);
    expect(cli(dir, 'rules', 'apply').code).toBe(2);
  });
});
