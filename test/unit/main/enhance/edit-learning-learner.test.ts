import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EDIT_LEARNING_FILE, EditLearner, type ReplacementRuleInput } from '../../../../src/main/enhance/edit-learning/edit-learner.ts';
import { VOCABULARY_DB_FILE, VocabularyStore } from '../../../../src/main/enhance/vocabulary-store.ts';
import { historyWithLearning } from '../../../../src/main/ipc/handlers/learning.ts';
import type { HistoryApi } from '../../../../src/main/ipc/services.ts';
import type { StoredRecord } from '../../../../src/shared/history/record.ts';
import { replacementRuleWriter } from '../../../../src/main/app/learning-wiring.ts';
import { applyTextRules } from '../../../../src/main/text-rules/pipeline.ts';
import { RuleStore } from '../../../../src/main/text-rules/rule-store.ts';

/**
 * The learner over the real vocabulary database (SQLite in a temp folder) and its counts file: proposals
 * leave out known pairs, an accepted pair reaches the ASR hotwords and the LLM pairs, "always" writes a
 * replacement rule (same-pinyin for Chinese homophones), a correction confirmed twice is added only when
 * the setting is on, counts survive a restart and a damaged counts file, and History's edit path counts.
 */

const dirs: string[] = [];
const stores: VocabularyStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setUp(opts: { autoAdd?: boolean; enabled?: boolean; dir?: string } = {}) {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-learn-'));
  if (!opts.dir) dirs.push(dir);
  const vocabulary = VocabularyStore.open(path.join(dir, VOCABULARY_DB_FILE));
  stores.push(vocabulary);
  const rules: ReplacementRuleInput[] = [];
  const warnings: string[] = [];
  const learner = new EditLearner({ vocabulary, dataDir: dir, enabled: () => opts.enabled ?? true, autoAdd: () => opts.autoAdd ?? true, warn: (m) => warnings.push(m) });
  return { dir, vocabulary, learner, rules, warnings };
}

const pairs = (v: VocabularyStore): string[][] => v.list().map((e) => [e.wrong, e.right]);

describe('edit learner', () => {
  it('proposes the pair of an edit, and not once it is in the vocabulary', () => {
    const { learner, vocabulary } = setUp();
    expect(learner.propose('明天跟平平开会', '明天跟萍萍开会')).toEqual([{ wrong: '平平', right: '萍萍', kind: 'homophone' }]);
    learner.accept({ wrong: '平平', right: '萍萍', always: false });
    expect(learner.propose('明天跟平平开会', '明天跟萍萍开会')).toEqual([]);
    expect(vocabulary.list()[0]).toMatchObject({ wrong: '平平', right: '萍萍', source: 'user', note: 'learned from an edit' });
  });

  it('an accepted pair reaches the ASR hotwords and the LLM pairs', () => {
    const { learner, vocabulary } = setUp();
    expect(vocabulary.hotwordsForAsr('whisper-base')).toEqual([]);
    learner.accept({ wrong: 'cloud', right: 'Claude', always: false });
    expect(vocabulary.hotwordsForAsr('whisper-base')).toEqual(['Claude']);
    expect(vocabulary.pairsForLlm('m', 'ask cloud').map((e) => [e.wrong, e.right])).toEqual([['cloud', 'Claude']]);
  });

  it('"always" writes a replacement rule: by pinyin for a Chinese homophone, exact for a term; without a rule store it says so', () => {
    const { learner } = setUp();
    expect(learner.accept({ wrong: '平平', right: '萍萍', always: true }).rule).toBe('unavailable');
    const rules: ReplacementRuleInput[] = [];
    learner.setRuleWriter((r) => rules.push(r));
    expect(learner.accept({ wrong: '平平', right: '萍萍', always: true, kind: 'homophone' }).rule).toBe('added');
    expect(learner.accept({ wrong: 'cloud', right: 'Claude', always: true }).rule).toBe('added');
    expect(learner.accept({ wrong: 'get hub', right: 'GitHub', always: false }).rule).toBe('none');
    expect(rules).toEqual([
      { heard: '平平', written: '萍萍', samePinyin: true },
      { heard: 'cloud', written: 'Claude', samePinyin: false },
    ]);
  });

  it('"always" through the app\'s writer: a same-pinyin rule in text-rules.json that the next dictation\'s rules apply to every spelling', () => {
    const { learner, dir } = setUp();
    learner.setRuleWriter(replacementRuleWriter(dir));
    expect(learner.accept({ wrong: '平平', right: '萍萍', always: true, kind: 'homophone' }).rule).toBe('added');
    const store = new RuleStore(dir);
    expect(store.read().replacements).toMatchObject([{ heard: '平平', written: '萍萍', same_pinyin: true }]);
    const on = { fillers: false, selfCorrections: false, replacements: true, snippets: false };
    expect(applyTextRules('明天跟苹苹开会', on, store.compiled(), new Date()).text).toBe('明天跟萍萍开会');
  });

  it('adds a correction confirmed twice when the setting is on, and keeps the count across a restart', () => {
    const first = setUp();
    expect(first.learner.observe('明天跟平平开会', '明天跟萍萍开会')).toEqual([]);
    expect(pairs(first.vocabulary)).toEqual([]);
    expect(first.learner.confirmations('平平', '萍萍')).toBe(1);
    first.vocabulary.close();
    // A new learner over the same folder (the app restarted): the second confirmation adds the pair.
    const again = setUp({ dir: first.dir });
    expect(again.learner.observe('平平说她晚点到', '萍萍说她晚点到')).toEqual([{ wrong: '平平', right: '萍萍', kind: 'homophone' }]);
    expect(pairs(again.vocabulary)).toEqual([['平平', '萍萍']]);
    // A third confirmation adds nothing new.
    expect(again.learner.observe('请把文件发给平平', '请把文件发给萍萍')).toEqual([]);
    expect(pairs(again.vocabulary)).toEqual([['平平', '萍萍']]);
  });

  it('with the setting off, counts but never adds; with learning off, neither proposes nor counts', () => {
    const off = setUp({ autoAdd: false });
    off.learner.observe('ask cloud now', 'ask Claude now');
    off.learner.observe('tell cloud', 'tell Claude');
    expect(off.learner.confirmations('cloud', 'Claude')).toBe(2);
    expect(pairs(off.vocabulary)).toEqual([]);
    const disabled = setUp({ enabled: false });
    expect(disabled.learner.propose('ask cloud now', 'ask Claude now')).toEqual([]);
    disabled.learner.observe('ask cloud now', 'ask Claude now');
    expect(disabled.learner.confirmations('cloud', 'Claude')).toBe(0);
  });

  it('a rewrite is neither proposed nor counted', () => {
    const { learner } = setUp();
    expect(learner.propose('我今天很开心', '我今天很高兴')).toEqual([]);
    learner.observe('我今天很开心', '我今天很高兴');
    expect(learner.confirmations('开心', '高兴')).toBe(0);
  });

  it('a damaged counts file costs only the counts: learning starts over and says so in the log', () => {
    const { dir, learner, warnings } = setUp();
    fs.writeFileSync(path.join(dir, EDIT_LEARNING_FILE), '{not json');
    learner.observe('ask cloud now', 'ask Claude now');
    expect(learner.confirmations('cloud', 'Claude')).toBe(1);
    expect(warnings.join('\n')).toMatch(/counts could not be read/);
    expect(JSON.parse(fs.readFileSync(path.join(dir, EDIT_LEARNING_FILE), 'utf8'))).toMatchObject({ version: 1, counts: [{ wrong: 'cloud', right: 'Claude', n: 1 }] });
  });

  it("History's edit path counts a saved edit against the record's shown text", async () => {
    const { learner } = setUp();
    const record = { id: 'r1', timestamp: '2026-01-01T00:00:00.000Z', asr_text: '明天跟平平开会', enhanced_text: null, final_text: '明天跟平平开会' } as unknown as StoredRecord;
    const api = { update: (_key: string, fields: { final_text?: string }) => Promise.resolve({ ...record, final_text: fields.final_text ?? record.final_text }) } as unknown as HistoryApi;
    await historyWithLearning(api, learner).update('r1', { final_text: '明天跟萍萍开会' });
    expect(learner.confirmations('平平', '萍萍')).toBe(1);
  });
});
