import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchStorage } from '../../../../src/main/app/storage-notices.ts';
import { VOCABULARY_DB_FILE, VocabularyStore } from '../../../../src/main/enhance/vocabulary-store.ts';
import type { Notice } from '../../../../src/shared/notices/notice.ts';
import { noticeText } from '../../../../src/shared/notices/notice-text.ts';

/** What the user is told about a damaged vocabulary.db: a notice when it is found, and the tray line. */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function watch(vocabulary: VocabularyStore): { notices: Notice[]; problems: Map<string, string>; stop: () => void } {
  const notices: Notice[] = [];
  const problems = new Map<string, string>();
  const stop = watchStorage({
    history: { health: null, onHealth: () => () => undefined, problems: [], onProblems: () => () => undefined, indexReady: Promise.resolve() },
    vocabulary,
    modeIssue: () => null,
    onConfigChange: () => () => undefined,
    notify: (_level, n) => notices.push(n),
    setProblem: (source, text) => (text === null ? problems.delete(source) : problems.set(source, text)),
    words: (n) => noticeText('en', n),
  });
  return { notices, problems, stop };
}

describe('the vocabulary notice', () => {
  it('a file repaired at start: one notice naming the damaged copy, in both languages, and a tray line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-vocab-notice-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, VOCABULARY_DB_FILE), 'garbage '.repeat(100));
    const store = VocabularyStore.open(path.join(dir, VOCABULARY_DB_FILE));
    const w = watch(store);
    try {
      expect(w.notices).toHaveLength(1);
      const n = w.notices[0] as Extract<Notice, { code: 'vocabulary-degraded' }>;
      expect(n).toMatchObject({ code: 'vocabulary-degraded', state: 'repaired', salvaged: 0 });
      expect(fs.existsSync(n.copy ?? '')).toBe(true);
      expect(noticeText('en', n)).toContain(n.copy);
      expect(noticeText('zh', n)).toContain(n.copy);
      expect(noticeText('zh', n)).toMatch(/词库/);
      expect(w.problems.get('vocabulary')).toMatch(/^Your vocabulary file was damaged/);
    } finally {
      w.stop();
      store.close();
    }
  });

  it('a healthy file says nothing', () => {
    const store = VocabularyStore.open(':memory:');
    const w = watch(store);
    expect(w.notices).toEqual([]);
    expect(w.problems.size).toBe(0);
    w.stop();
    store.close();
  });
});
