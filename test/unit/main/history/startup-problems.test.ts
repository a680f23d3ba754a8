import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchStorage } from '../../../../src/main/app/storage-notices.ts';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import type { Notice } from '../../../../src/shared/notices/notice.ts';
import { noticeText } from '../../../../src/shared/notices/notice-text.ts';
import { useTempDirs, wenziLine } from '../../../helpers/history-fixtures.ts';

/**
 * The start-up check names the archives folder's entries that are never read (a symbolic link, a name
 * that is not an archive's) at every start, not only after a rebuild, and a symbolic link under an
 * archive's name no longer looks like a new file to every check and follow (each of which rebuilt the index).
 */

const tmp = useTempDirs();

/** A data folder with 3 active records and 2 in 2025-11, indexed once (so the next start only checks). */
async function indexedFolder(): Promise<string> {
  const dir = tmp();
  const p = historyPaths(dir);
  fs.writeFileSync(p.active, `${[1, 2, 3].map((i) => wenziLine(`2026-01-0${i}T08:00:00Z`, `活动 ${i}`)).join('\n')}\n`);
  fs.mkdirSync(p.archivesDir, { recursive: true });
  fs.writeFileSync(p.archive('2025-11'), `${[1, 2].map((i) => wenziLine(`2025-11-0${i}T08:00:00Z`, `归档 ${i}`)).join('\n')}\n`);
  const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, follow: false, warn: () => undefined });
  await svc.close();
  return dir;
}

/** A symbolic link under an archive's name (to a file outside) and a file whose name is not an archive's. */
function addOddEntries(dir: string): { link: string; odd: string } {
  const p = historyPaths(dir);
  const target = path.join(tmp(), 'elsewhere.jsonl');
  fs.writeFileSync(target, `${wenziLine('2025-12-05T00:00:00Z', 'linked record')}\n`);
  const link = p.archive('2025-12');
  fs.symlinkSync(target, link);
  const odd = path.join(p.archivesDir, '2025-1.jsonl');
  fs.writeFileSync(odd, `${wenziLine('2025-01-05T00:00:00Z', 'odd name')}\n`);
  return { link, odd };
}

describe('the start-up check names archive entries that are not read', () => {
  it('an odd name is a problem at the next start, without a rebuild', async () => {
    const dir = await indexedFolder();
    const odd = path.join(historyPaths(dir).archivesDir, '2025-1.jsonl');
    fs.writeFileSync(odd, `${wenziLine('2025-01-05T00:00:00Z', 'odd name')}\n`);
    const warnings: string[] = [];
    const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, follow: false, warn: (m) => warnings.push(m) });
    // Before: nothing until something rebuilt the index (the worker was the only caller of archiveFolderProblems).
    expect(svc.problems).toEqual([expect.objectContaining({ kind: 'skipped', path: odd })]);
    expect(warnings.filter((w) => /rebuild|temporary/i.test(w))).toEqual([]);
    await svc.close();
  }, 30_000);

  it('a symbolic link and an odd name: named at start and said in words; index.db is kept and not rebuilt for them', async () => {
    const dir = await indexedFolder();
    const { link, odd } = addOddEntries(dir);
    const warnings: string[] = [];
    const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, follow: { pollMs: 50 }, warn: (m) => warnings.push(m) });
    const byPath = (a: { path: string }, b: { path: string }): number => a.path.localeCompare(b.path);
    expect(svc.problems.map((p) => ({ kind: p.kind, path: p.path })).sort(byPath)).toEqual([{ kind: 'skipped', path: odd }, { kind: 'skipped', path: link }].sort(byPath));
    expect((await svc.query({ text: '', includeArchived: true, pageSize: 100 })).total).toBe(5);
    // Before: the link looked like a new archive to the start-up follow, whose read of it was refused
    // (ELOOP), so the app gave up index.db for a temporary index rebuilt in the OS temp folder at every start.
    await new Promise((r) => setTimeout(r, 400));
    await svc.settled();
    expect(warnings.filter((w) => /rebuild|temporary/i.test(w))).toEqual([]);

    const notices: Notice[] = [];
    const stop = watchStorage({
      history: svc,
      modeIssue: () => null,
      onConfigChange: () => () => undefined,
      notify: (_level, n) => notices.push(n),
      setProblem: () => undefined,
      words: (n) => n.code,
    });
    await new Promise((r) => setTimeout(r, 0));
    stop();
    await svc.close();
    expect(notices).toHaveLength(1);
    const [notice] = notices as [Notice];
    expect(noticeText('en', notice)).toContain(`${link} is a symbolic link and is not read`);
    expect(noticeText('en', notice)).toContain(`${odd} is not read: its name is not an archive’s`);
    expect(noticeText('zh', notice)).toContain(`${link} 是符号链接，未读取`);
    expect(noticeText('zh', notice)).toContain(`${odd} 未读取：文件名不是归档名`);
  }, 60_000);

  it('costs one readdir: a folder without such entries reports nothing', async () => {
    const dir = await indexedFolder();
    fs.writeFileSync(path.join(historyPaths(dir).archivesDir, '.DS_Store'), 'x');
    const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, follow: false, warn: () => undefined });
    expect(svc.problems).toEqual([]);
    await svc.close();
  }, 30_000);
});
