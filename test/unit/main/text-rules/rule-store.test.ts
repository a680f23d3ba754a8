/** The rules file: adding (upsert by heard text / trigger), removing, import/export, a damaged file, and the compiled cache. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RuleStore, RULES_FILE } from '../../../../src/main/text-rules/rule-store.ts';
import { applyReplacements } from '../../../../src/main/text-rules/replacements.ts';
import { makeTempDir, rmTempDir } from '../../../helpers/history-fixtures.ts';

const dirs: string[] = [];
function store(): RuleStore {
  const d = makeTempDir();
  dirs.push(d);
  return new RuleStore(d);
}
afterAll(() => dirs.forEach(rmTempDir));

describe('RuleStore', () => {
  it('adds a rule and updates it when the same heard text comes again (the learner’s "always" pairs)', () => {
    const s = store();
    const a = s.addReplacementRule({ heard: '平平', written: '萍萍', samePinyin: true });
    const b = s.addReplacementRule({ heard: '平平', written: '苹苹' });
    expect(b.id).toBe(a.id);
    expect(s.read().replacements).toEqual([{ id: a.id, heard: '平平', written: '苹苹', same_pinyin: false, anywhere: false }]);
  });

  it('refuses a rule that changes nothing, and same-pinyin on Latin text', () => {
    const s = store();
    expect(() => s.addReplacementRule({ heard: 'x', written: 'x' })).toThrow(/same text/);
    expect(() => s.addReplacementRule({ heard: 'cloud', written: 'Claude', samePinyin: true })).toThrow(/Chinese/);
    expect(fs.existsSync(s.file)).toBe(false);
  });

  it('removes by id, heard text or trigger', () => {
    const s = store();
    const r = s.addReplacementRule({ heard: 'cloud', written: 'Claude' });
    s.addSnippet({ trigger: '签名', text: '张三\n{date}' });
    expect(s.remove('签名')).toBe(true);
    expect(s.remove(r.id)).toBe(true);
    expect(s.remove('nothing')).toBe(false);
    expect(s.read()).toMatchObject({ replacements: [], snippets: [] });
  });

  it('exports and imports (merging by heard text and trigger)', () => {
    const a = store();
    a.addReplacementRule({ heard: 'cloud', written: 'Claude' });
    a.addSnippet({ trigger: 'my address', text: '1 Main St' });
    const b = store();
    b.addReplacementRule({ heard: 'Cloud', written: 'CLAUDE' });
    expect(b.importText(a.exportText())).toEqual({ added: 1, replaced: 1 });
    expect(b.read().replacements.map((r) => r.written)).toEqual(['Claude']);
    expect(() => b.importText('{"replacements": [{"heard": 1}]}')).toThrow();
  });

  it('a damaged file reads as no rules and is set aside, not overwritten, at the next change', () => {
    const s = store();
    fs.writeFileSync(s.file, '{ not json');
    expect(s.read().damaged).toBeDefined();
    expect(s.compiled().replacements.count).toBe(0);
    s.addReplacementRule({ heard: 'cloud', written: 'Claude' });
    const aside = fs.readdirSync(path.dirname(s.file)).filter((f) => f.startsWith(`${RULES_FILE}.damaged-`));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(path.dirname(s.file), aside[0] ?? ''), 'utf8')).toBe('{ not json');
  });

  it('recompiles when the file changes (the CLI and the app share it)', () => {
    const s = store();
    const other = new RuleStore(path.dirname(s.file));
    expect(applyReplacements('use cloud', s.compiled().replacements).text).toBe('use cloud');
    other.addReplacementRule({ heard: 'cloud', written: 'Claude' });
    expect(applyReplacements('use cloud', s.compiled().replacements).text).toBe('use Claude');
  });
});
