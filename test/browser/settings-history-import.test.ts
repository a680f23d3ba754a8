import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { wenziLine } from '../helpers/history-fixtures.ts';

/**
 * Settings › History & privacy › Import WenZi history, in real Chromium over the real handlers and
 * history service: an import that left files and lines out names each file with why, in plain words of
 * the UI language, and counts the lines that could not be read. Before, it said only
 * "Imported 5 records (0 already present, 2 unreadable lines)" and nothing of the files not read.
 */

const harness = useBrowserHarness();
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
});

/**
 * A WenZi folder with 3 active and 2 archived records, plus what the import must name: a FIFO under an
 * archive's name, a symbolic link, an odd name, one line that is not UTF-8 and one that is not JSON.
 */
function hostileWenziFolder(): { dir: string; fifo: string; link: string; odd: string; archive: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-wenzi-'));
  folders.push(dir);
  const archives = path.join(dir, 'conversation_history_archives');
  fs.mkdirSync(archives);
  const active = [1, 2, 3].map((i) => wenziLine(`2026-01-0${i}T08:00:00Z`, `活动记录 ${i}`));
  fs.writeFileSync(path.join(dir, 'conversation_history.jsonl'), `${active.join('\n')}\n`);
  const archive = path.join(archives, '2025-11.jsonl');
  const bad = Buffer.from('{"timestamp": "2025-11-03T08:00:00Z", "asr_text": "\xff\xfe"}\n', 'latin1');
  fs.writeFileSync(archive, Buffer.concat([Buffer.from(`${wenziLine('2025-11-01T08:00:00Z', '归档 1')}\n`), bad, Buffer.from(`not json\n${wenziLine('2025-11-02T08:00:00Z', '归档 2')}\n`)]));
  const fifo = path.join(archives, '2025-10.jsonl');
  execFileSync('mkfifo', [fifo]);
  const elsewhere = path.join(dir, 'elsewhere.jsonl');
  fs.writeFileSync(elsewhere, `${wenziLine('2025-12-05T00:00:00Z', 'linked')}\n`);
  const link = path.join(archives, '2025-12.jsonl');
  fs.symlinkSync(elsewhere, link);
  const odd = path.join(archives, 'backup-old.jsonl');
  fs.writeFileSync(odd, `${wenziLine('2025-09-05T00:00:00Z', 'odd')}\n`);
  return { dir, fifo, link, odd, archive };
}

describe('Settings › Import WenZi history names what it left out', () => {
  it('a FIFO, a link and an odd name are named with why, and the unreadable lines counted with where they are — in English and Chinese', async () => {
    const src = hostileWenziFolder();
    // The window's default size (src/main/app/window-policy.ts: 860 × 640).
    const w = await harness.open('settings', { viewport: { width: 860, height: 640 } });
    const { page } = w;
    await page.getByRole('tab', { name: 'History & privacy' }).click();
    w.dialogs.answerNext(src.dir);
    await page.getByRole('button', { name: 'Import WenZi history…' }).click();
    const banner = page.getByTestId('import-left-out');
    await banner.waitFor({ timeout: 20_000 });
    const en = (await banner.textContent()) ?? '';
    expect(en).toContain('Imported 5 records (0 were already in your history).');
    expect(en).toContain('These files were not read, so their records were not imported:');
    expect(en).toContain(`${src.fifo} — it is not an ordinary file (a pipe or a device), so it was not opened.`);
    expect(en).toContain(`${src.link} — it is a shortcut (symbolic link) to another file, and Tingxie does not follow links.`);
    expect(en).toContain(`${src.odd} — its name is not a month (like 2025-03.jsonl), so it is not read as history.`);
    expect(en).toContain('2 lines could not be read as records and were left unchanged in the WenZi folder:');
    expect(en).toContain(`${src.archive} — lines 2, 3`);
    expect((await w.history.query({ text: '', includeArchived: true, pageSize: 10 })).total).toBe(5);
    await banner.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'settings-import-left-out-en');

    await w.configStore.set('ui.language', 'zh');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    w.dialogs.answerNext(src.dir);
    await page.getByRole('button', { name: '导入闻字历史…' }).click();
    await expect.poll(async () => (await banner.textContent()) ?? '', { timeout: 20_000 }).toContain('已导入 0 条记录（5 条已在历史中）。');
    const zh = (await banner.textContent()) ?? '';
    expect(zh).toContain('以下文件没有读取，其中的记录未导入：');
    expect(zh).toContain(`${src.fifo} — 这不是普通文件（而是管道或设备），因此没有打开。`);
    expect(zh).toContain(`${src.link} — 这是指向其他文件的快捷方式（符号链接）`);
    expect(zh).toContain(`${src.odd} — 文件名不是月份（例如 2025-03.jsonl）`);
    expect(zh).toContain('有 2 行无法读取为记录，已原样留在闻字文件夹中：');
    expect(zh).toContain(`${src.archive} — 第 2、3 行`);
    await banner.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'settings-import-left-out-zh');
    expect(w.problems).toEqual([]);
  }, 60_000);

  it('a clean import stays one line of status', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-wenzi-'));
    folders.push(dir);
    fs.writeFileSync(path.join(dir, 'conversation_history.jsonl'), `${wenziLine('2026-01-01T08:00:00Z', '干净')}\n`);
    const w = await harness.open('settings', { viewport: { width: 860, height: 640 } });
    await w.page.getByRole('tab', { name: 'History & privacy' }).click();
    w.dialogs.answerNext(dir);
    await w.page.getByRole('button', { name: 'Import WenZi history…' }).click();
    await expect.poll(() => w.page.getByTestId('privacy-message').textContent(), { timeout: 20_000 }).toBe('Imported 1 records (0 were already in your history).');
    expect(await w.page.getByTestId('import-left-out').count()).toBe(0);
    expect(w.problems).toEqual([]);
  }, 60_000);
});
