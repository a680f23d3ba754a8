import { describe, expect, it } from 'vitest';
import { VocabularyStore } from '../../../../src/main/enhance/vocabulary-store.ts';

describe('vocabulary import', () => {
  it('reports duplicate pairs (already stored, or twice in the file) instead of merging them silently', () => {
    const v = VocabularyStore.open(':memory:');
    try {
      v.add({ wrong: '平平', right: '萍萍' });
      const r = v.importData({ version: 1, entries: [{ wrong: '平平', right: '萍萍' }, { wrong: '闻子', right: 'WenZi' }, { wrong: ' 闻子 ', right: 'WenZi' }] });
      expect(r).toEqual({ count: 1, duplicates: [{ wrong: '平平', right: '萍萍' }, { wrong: '闻子', right: 'WenZi' }] });
      expect(v.list().length).toBe(2);
    } finally {
      v.close();
    }
  });
});
