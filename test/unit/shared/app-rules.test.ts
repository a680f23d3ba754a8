import { describe, expect, it } from 'vitest';
import { appRulesSchema, levelForRules, pickRule, type AppIdentity } from '../../../src/shared/config/app-rules.ts';
import { configSchema } from '../../../src/shared/config/config-schema.ts';
import { migrate } from '../../../src/main/settings/migrations.ts';

const rules = (raw: unknown[]) => appRulesSchema.parse(raw);
const x11 = (cls: string, instance: string, title?: string, domain?: string): AppIdentity => ({ app_name: cls, bundle_id: instance, ...(title ? { window_title: title } : {}), ...(domain ? { browser_domain: domain } : {}) });

describe('app rules: matching', () => {
  const list = rules([
    { label: '微信', app: 'WeChat', mode: 'conversational', submit: 'enter' },
    { app: 'slack.exe', mode: 'conversational', submit: 'shift+enter' },
    { app: 'com.apple.mail', mode: 'formal', method: 'paste' },
    { title: 'Jira', mode: 'formal' },
    { domain: 'github.com', mode: 'proofread', method: 'copy' },
    { app: 'code', enabled: false, mode: 'commandline_master' },
  ]);

  it('an app rule matches the X11 class or instance, macOS name or bundle id, Windows exe — any case, .exe or not', () => {
    expect(pickRule(list, x11('WeChat', 'wechat'))).toEqual({ index: 0, label: '微信', mode: 'conversational', submit: 'enter' });
    expect(pickRule(list, x11('Wechat', 'wechat.exe'))?.index).toBe(0);
    expect(pickRule(list, { app_name: 'Slack', bundle_id: 'Slack.exe' })).toEqual({ index: 1, label: 'Slack', mode: 'conversational', submit: 'shift+enter' });
    expect(pickRule(list, { app_name: 'Mail', bundle_id: 'com.apple.mail' })).toEqual({ index: 2, label: 'Mail', mode: 'formal', method: 'paste' });
  });

  it('title fragments and domains (with subdomains) match; a part the rule names must be there', () => {
    expect(pickRule(list, x11('firefox', 'Navigator', 'PROJ-1 - JIRA board'))?.index).toBe(3);
    expect(pickRule(list, x11('firefox', 'Navigator', 'Pull request', 'gist.github.com'))?.index).toBe(4);
    expect(pickRule(list, x11('firefox', 'Navigator', 'Pull request', 'notgithub.com'))).toBeNull();
    expect(pickRule(list, x11('firefox', 'Navigator'))).toBeNull();
  });

  it('the first matching rule wins; disabled rules and an unknown app pick nothing', () => {
    const both = rules([{ app: 'firefox', title: 'Jira', mode: 'a' }, { app: 'firefox', mode: 'b' }]);
    expect(pickRule(both, x11('firefox', 'x', 'Jira'))?.mode).toBe('a');
    expect(pickRule(both, x11('firefox', 'x', 'Inbox'))?.mode).toBe('b');
    expect(pickRule(list, x11('Code', 'code'))).toBeNull();
    expect(pickRule(list, null)).toBeNull();
  });

  it('a rule that names nothing, or a bad mode id, is refused by the schema', () => {
    expect(appRulesSchema.safeParse([{ mode: 'x' }]).success).toBe(false);
    expect(appRulesSchema.safeParse([{ app: 'a', mode: '../x' }]).success).toBe(false);
    expect(appRulesSchema.safeParse([{ app: 'a', submit: 'ctrl+alt+enter' }]).success).toBe(false);
  });

  it('the key-down read is as detailed as the rules need; without rules it is the configured level', () => {
    expect(levelForRules([], 'off')).toBe('off');
    expect(levelForRules(rules([{ app: 'a' }]), 'off')).toBe('basic');
    expect(levelForRules(rules([{ domain: 'github.com' }]), 'basic')).toBe('detailed');
    expect(levelForRules(rules([{ title: 'x', enabled: false }]), 'off')).toBe('off');
  });

  it('matching time grows linearly with the title length (a 1 MB title is no slower per byte than 10 kB)', () => {
    const one = rules([{ title: 'needle-not-here', mode: 'a' }]);
    const time = (n: number): number => {
      const who = x11('a', 'b', 'ab'.repeat(n));
      const t = performance.now();
      for (let i = 0; i < 20; i++) pickRule(one, who);
      return performance.now() - t;
    };
    time(5000);
    const small = time(5000);
    const big = time(500_000);
    expect(big / Math.max(small, 0.05)).toBeLessThan(100 * 4);
  });
});

describe('config: output.submit_key and app_rules', () => {
  it('default: no rules, no submit key', () => {
    const c = configSchema.parse({});
    expect(c.app_rules).toEqual([]);
    expect(c.output.submit_key).toBe('none');
  });

  it('the v3 → v4 migration turns append_newline true into submit_key "enter" and drops the old key', () => {
    expect(migrate({ version: 3, output: { append_newline: true, preview: false } }).raw).toEqual({ version: 4, output: { submit_key: 'enter', preview: false } });
    expect(migrate({ version: 3, output: { append_newline: false } }).raw).toEqual({ version: 4, output: {} });
    // A WenZi file (version 0) gets the same.
    const wenzi = migrate({ output: { method: 'auto', append_newline: true } });
    expect(wenzi.raw).toEqual({ version: 4, output: { method: 'paste', submit_key: 'enter' } });
    expect(wenzi.notes.some((n) => n.includes('submit_key'))).toBe(true);
    // A submit key already chosen is kept.
    expect(migrate({ version: 3, output: { append_newline: true, submit_key: 'mod+enter' } }).raw).toEqual({ version: 4, output: { submit_key: 'mod+enter' } });
  });
});
