import { describe, expect, it } from 'vitest';
import { CorrectionRetriever, type CorrectionHistory } from '../../../../src/main/enhance/correction-retrieval.ts';
import { correctionFragments, CorrectionTable, type CorrectionInput } from '../../../../src/main/enhance/correction-table.ts';
import { formatHistoryLine } from '../../../../src/main/enhance/history-builder.ts';
import type { CorrectedRow } from '../../../../src/shared/history/corrected-row.ts';

/**
 * Corrections learned from history, as tables with the expected outcomes written out: how a correction is keyed (a
 * one-character fix by its character, not with the next one), how a history line shows a multi-word
 * correction (one bracket, as WenZi), and which corrections are shared across modes (proper nouns,
 * confirmed records only, behind `share_proper_nouns`).
 */

describe('correction keys', () => {
  const table: readonly { asr: string; final: string; want: { wrong: string; right: string; properNoun: boolean }[] }[] = [
    // A one-character name fix is keyed by the character alone (was `龚下`, found only before 下).
    { asr: '小龚下周来', final: '小宫下周来', want: [{ wrong: '龚', right: '宫', properNoun: true }] },
    { asr: '王小明到了', final: '汪小明到了', want: [{ wrong: '王', right: '汪', properNoun: true }] },
    { asr: '果果今天在公园里遇到了平平。', final: '果果今天在公园里遇到了萍萍。', want: [{ wrong: '平平', right: '萍萍', properNoun: true }] },
    // A function character alone would match every dictation: it keeps the preceding character as context.
    { asr: '我在来一次', final: '我再来一次', want: [{ wrong: '我在', right: '我再', properNoun: false }] },
    // A multi-word change is one correction.
    { asr: 'I use sequel light daily', final: 'I use SQLite daily', want: [{ wrong: 'sequel light', right: 'SQLite', properNoun: true }] },
    { asr: '我在用sequel light做数据库', final: '我在用SQLite做数据库', want: [{ wrong: 'sequel light', right: 'SQLite', properNoun: true }] },
    { asr: 'we ship with get hub actions now', final: 'we ship with GitHub Actions now', want: [{ wrong: 'get hub actions', right: 'GitHub Actions', properNoun: true }] },
    // Capitalising the first word is not a name.
    { asr: 'hello there my friend', final: 'Hello there my friend', want: [{ wrong: 'hello', right: 'Hello', properNoun: false }] },
    // A translation rewrites everything: no proper noun comes out of it.
    { asr: '今天下午三点和张伟开会', final: 'Meeting with Zhang Wei at 3 pm today', want: [{ wrong: '今天下午三点和张伟开会', right: 'Meeting with Zhang Wei at 3 pm today', properNoun: false }] },
    // Rewording (different lengths) is not a proper noun.
    { asr: '麻烦你帮我发送一下邮件', final: '麻烦你帮我发邮件', want: [{ wrong: '送一下', right: '', properNoun: false }] },
  ];
  for (const t of table) {
    it(`${t.asr} → ${t.final}`, () => {
      expect(correctionFragments(t.asr, t.final)).toEqual(t.want);
    });
  }
});

describe('history lines keep a multi-word correction in one bracket', () => {
  const table: readonly [asr: string, final: string, line: string][] = [
    ['I use sequel light daily', 'I use SQLite daily', '- I use [sequel light→SQLite] daily'],
    ['open the get hub page please', 'open the GitHub page please', '- open the [get hub→GitHub] page please'],
    ['我在用sequel light做数据库', '我在用SQLite做数据库', '- 我在用[sequel light→SQLite]做数据库'],
    ['小龚下周来', '小宫下周来', '- 小[龚→宫]下周来'],
    ['果果今天在公园里遇到了平平。', '果果今天在公园里遇到了萍萍。', '- 果果今天在公园里遇到了[平平→萍萍]。'],
    // Two corrections apart stay two brackets.
    ['call jon about the sequel light migration', 'call John about the SQLite migration', '- call [jon→John] about the [sequel light→SQLite] migration'],
  ];
  for (const [asr, final, line] of table) {
    it(line, () => {
      expect(formatHistoryLine(asr, final)).toBe(line);
    });
  }
});

const rec = (key: string, mode: string, asr: string, final: string, ms = 1): CorrectionInput => ({ key, ms, file: 'active', asr_text: asr, final_text: final, enhance_mode: mode });

describe('lookup', () => {
  const t = new CorrectionTable();
  t.put(rec('a', 'proofread', '小龚下周来', '小宫下周来'), 0);
  t.put(rec('b', 'email', '我们约了平平吃饭', '我们约了萍萍吃饭'), 0);
  t.put(rec('c', 'email', '麻烦你帮我发送一下邮件', '麻烦你帮我发邮件'), 0);
  t.put(rec('d', 'email', 'I use sequel light daily', 'I use SQLite daily'), 0);
  const none = new Set<string>();
  const table: readonly { text: string; mode: string; share: boolean; want: string[] }[] = [
    { text: '小龚明天来', mode: 'proofread', share: false, want: ['- 小[龚→宫]下周来'] },
    { text: '小龚下周来', mode: 'proofread', share: false, want: ['- 小[龚→宫]下周来'] },
    { text: '龚总好', mode: 'proofread', share: false, want: ['- 小[龚→宫]下周来'] },
    // A name fixed in email is found in proofread only when sharing is on.
    { text: '平平到了', mode: 'proofread', share: false, want: [] },
    { text: '平平到了', mode: 'proofread', share: true, want: ['- 我们约了[平平→萍萍]吃饭'] },
    { text: '迁移到sequel light', mode: 'proofread', share: true, want: ['- I use [sequel light→SQLite] daily'] },
    // Rewording stays in its mode.
    { text: '发送一下邮件', mode: 'proofread', share: true, want: [] },
    { text: '发送一下邮件', mode: 'email', share: true, want: ['- 麻烦你帮我发[送一下→]邮件'] },
    // A one-character name fix of another mode is shared too.
    { text: '小龚明天来', mode: 'email', share: true, want: ['- 小[龚→宫]下周来'] },
  ];
  for (const c of table) {
    it(`${c.text} in ${c.mode}${c.share ? ', shared' : ''}`, () => {
      expect(t.lookup(c.text, c.mode, none, 3, c.share)).toEqual(c.want);
    });
  }
  it('a removed record takes its shared pair with it', () => {
    const u = new CorrectionTable();
    u.put(rec('b', 'email', '我们约了平平吃饭', '我们约了萍萍吃饭'), 0);
    u.remove('b');
    expect(u.lookup('平平到了', 'proofread', none, 3, true)).toEqual([]);
    expect(u.lookup('平平到了', 'email', none, 3, true)).toEqual([]);
  });
});

describe('shared corrections are still confirmed ones only', () => {
  it('an unconfirmed or cancelled correction of another mode is never retrieved', async () => {
    const row = (rid: number, key: string, asr: string, final: string, extra: Partial<CorrectedRow> = {}): CorrectedRow => ({
      rid, key, file: 'active', timestamp: `2026-01-0${rid}T00:00:00Z`, asr_text: asr, final_text: final, enhance_mode: 'email', preview_enabled: true, outcome: null, ...extra,
    });
    const rows = [
      row(3, 'k3', '我们约了平平吃饭', '我们约了萍萍吃饭'),
      row(2, 'k2', '张伟明天到', '章维明天到', { preview_enabled: false }),
      row(1, 'k1', '赵敏来电话', '赵旻来电话', { outcome: 'cancelled' }),
    ];
    const index = { correctedRows: (q: { beforeRid?: number }) => (q.beforeRid === undefined ? rows : []), correctedRowsByKeys: () => [] };
    const history: CorrectionHistory = { indexReady: Promise.resolve(), indexOrNull: index, indexStale: false, store: { onChange: () => () => undefined } };
    const r = new CorrectionRetriever(history);
    await r.whenLoaded();
    expect(r.retrieve('平平和张伟和赵敏', 'proofread', new Set(), 3, true)).toEqual(['- 我们约了[平平→萍萍]吃饭']);
    r.close();
  });
});
