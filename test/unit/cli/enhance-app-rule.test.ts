import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';

/** `tingxie enhance --dry-run --app NAME`: the mode the app rules pick for that app, and the request built in it. */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function run(dir: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['enhance', '--dry-run', ...args, '--data-dir', dir], { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env: {} });
  return { code, out: out.join(''), err: err.join('') };
}

describe('tingxie enhance --dry-run --app', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-rule-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({
    version: 4,
    ai_enhance: { mode: 'proofread', input_context: 'basic', providers: { p: { kind: 'other', base_url: 'http://127.0.0.1:9/v1', models: ['m'] } }, default_provider: 'p', default_model: 'm' },
    app_rules: [
      { label: '微信', app: 'WeChat.exe', mode: 'translate_en', submit: 'enter' },
      { app: 'Code', title: 'README', mode: 'commandline_master', method: 'copy' },
    ],
  }));

  it('an app a rule names gets its mode; the rule is said on stderr; the prompt names the app', async () => {
    const r = await run(dir, '--app', 'wechat', '今天下午三点开会');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('app rule 1: 微信 → translate_en (submit enter)');
    const body = JSON.parse(r.out) as { messages: { role: string; content: string }[] };
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    expect(system).toMatch(/translat|翻译/i);
    expect(system).toContain('- wechat');
  });

  it('--json carries the rule and the mode; a title rule needs its title; no match keeps ai_enhance.mode; --mode wins', async () => {
    const j = JSON.parse((await run(dir, '--json', '--app', 'code', '--title', 'README.md - Code', 'x')).out) as { mode: string; rule: { index: number; method: string } };
    expect(j.mode).toBe('commandline_master');
    expect(j.rule).toMatchObject({ index: 1, method: 'copy' });
    const none = await run(dir, '--app', 'code', 'x');
    expect(none.err).toContain('app rule: none matches code (mode proofread)');
    expect((JSON.parse((await run(dir, '--json', '--app', 'gedit', 'x')).out) as { mode: string }).mode).toBe('proofread');
    expect((JSON.parse((await run(dir, '--json', '--mode', 'proofread', '--app', 'wechat', 'x')).out) as { mode: string }).mode).toBe('proofread');
  });
});
