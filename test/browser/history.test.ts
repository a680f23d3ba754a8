import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness, type BrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { indexedHistoryDataset, type HistoryDataset } from '../helpers/browser-history-dataset.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { modeLabel } from '../../src/renderer/lib/human-names.ts';

/**
 * The History Browser in real Chromium over the real history service and index, seeded with 100,000
 * generated records (80,000 in monthly archives, 20,000 active): paging, Chinese search, filters,
 * archive toggle, edit and delete landing in the JSONL files on disk, keyboard use, screenshots.
 */

const N = 100_000;
const harness = useBrowserHarness();
let dataset: HistoryDataset;
let win: HarnessWindow | undefined;

// Built after the harness has started (hooks run in order); 100,000 records take longer than the default hook timeout.
beforeAll(async () => {
  dataset = await indexedHistoryDataset(N);
}, 120_000);

function jsonlLines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function open(options: Parameters<BrowserHarness['open']>[1] = {}): Promise<HarnessWindow> {
  win = await harness.open('history', { seedDir: dataset.dataDir, viewport: { width: 1100, height: 720 }, ...options });
  await win.page.getByTestId('page-label').waitFor();
  return win;
}

const label = (w: HarnessWindow) => w.page.getByTestId('page-label').textContent();
const total = (w: HarnessWindow) => w.page.getByTestId('total').textContent();
const rows = (w: HarnessWindow) => w.page.locator('li[role="option"]');
const rowCount = (w: HarnessWindow) => rows(w).count();

describe('History Browser over 100,000 records', () => {
  it('defaults to the last 7 days with archives, says what the range hides, pages 100 at a time (each page from its top), and follows the archive toggle', async () => {
    const w = await open();
    const { page } = w;
    expect(await page.getByLabel('Include archived').isChecked()).toBe(true);
    // The generated history ends on 2026-01-01, so the default "last 7 days" is empty, and the empty state says so…
    await page.getByTestId('history-empty').waitFor();
    await expect.poll(() => label(w)).toBe('Page 1 / 1');
    await expect.poll(() => page.getByTestId('history-empty').textContent()).toContain('100,000 records outside the last 7 days do');
    await page.getByTestId('history-widen').waitFor();
    // …until dictations happen: history:changed refreshes the open window.
    await w.history.log({ asr_text: '萍萍明天去北京开会', enhanced_text: '萍萍明天去北京开会。', final_text: '萍萍明天去北京开会。', enhance_mode: 'proofread', preview_enabled: true, stt_model: 'whisper-small', llm_model: 'qwen2.5:7b', user_corrected: false, audio_duration: 2.4, language: 'zh', source: 'voice', outcome: 'confirmed' });
    await w.history.log({ asr_text: 'ship the release notes today', enhanced_text: null, final_text: 'ship the release notes today', enhance_mode: 'off', preview_enabled: false, stt_model: 'whisper-small', llm_model: '', user_corrected: false, audio_duration: 1.7, language: 'en', source: 'voice', outcome: 'direct' });
    await expect.poll(() => rowCount(w)).toBe(2);
    await expect.poll(() => total(w)).toBe('2 records');
    // …and with rows shown, one line says how many matches the range hides.
    await expect.poll(() => page.getByTestId('history-hidden').textContent()).toBe('Showing the last 7 days only: 100,000 older matching records are hidden.Show them');

    // The two new records pushed the active file over 20,000: the rotation that moves its two oldest to the
    // archives runs after a quiet second in the app; settled() runs it now.
    await w.history.settled();
    await page.getByTestId('history-hidden').getByRole('button', { name: 'Show them' }).click();
    expect(await page.getByLabel('Time range').inputValue()).toBe('all');
    await expect.poll(() => total(w)).toBe('100,002 records');
    await expect.poll(() => label(w)).toBe('Page 1 / 1001');
    expect(await rowCount(w)).toBe(100);
    await expect.poll(() => page.getByTestId('history-hidden').count()).toBe(0);

    // Paging: each new page opens at its top, wherever the previous one was scrolled to.
    const list = page.getByRole('listbox', { name: 'Dictations' });
    await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
    expect(await list.evaluate((el) => el.scrollTop)).toBeGreaterThan(500);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => label(w)).toBe('Page 2 / 1001');
    await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBe(0);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => label(w)).toBe('Page 3 / 1001');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => label(w)).toBe('Page 2 / 1001');

    // Any filter change returns to page 1; without archives only the active file's 20,000 remain.
    await page.getByLabel('Include archived').uncheck();
    await expect.poll(() => total(w)).toBe('20,000 records');
    await expect.poll(() => label(w)).toBe('Page 1 / 200');
    await expect.poll(() => page.getByTestId('history-hidden').textContent()).toBe('Archives are not included: 80,002 archived matching records are hidden.Show them');
    expect(await rowCount(w)).toBe(100);
    await page.getByLabel('Include archived').check();
    await expect.poll(() => total(w)).toBe('100,002 records');
    await saveScreenshot(page, 'history-en');
    expect(w.problems).toEqual([]);
  });

  it('searches Chinese text with the 300 ms debounce, filters by tag, and resets to page 1', async () => {
    const w = await open();
    const { page } = w;
    await page.getByLabel('Time range').selectOption('all');
    await expect.poll(() => label(w)).toBe('Page 1 / 1000');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => label(w)).toBe('Page 2 / 1000');

    const expected = await w.history.countMatches({ text: '项目进度', includeArchived: true, facets: true });
    expect(expected.total).toBeGreaterThan(100);
    await page.getByLabel('Search history').fill('项目进度');
    // Not applied at once (debounce), then applied: back to page 1 with the real count.
    expect(await total(w)).toBe('100,000 records');
    await expect.poll(() => total(w)).toBe(`${expected.total.toLocaleString('en-US')} records`);
    await expect.poll(() => label(w)).toBe(`Page 1 / ${expected.pageCount}`);
    const texts = await rows(w).allTextContents();
    expect(texts.length).toBe(Math.min(100, expected.total));

    // The mode pill (by label) shows the facet count, and choosing it filters to exactly that many.
    const [mode, n] = Object.entries(expected.facets?.modes ?? {}).sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    const name = modeLabel(mode, undefined, 'en');
    const pillOrder = () => page.locator('.tag-group[aria-label="Mode"] .pill').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
    const before = await pillOrder();
    const pill = page.getByRole('button', { name: `${name} ${n}, Mode ${name}` });
    await pill.click();
    await expect.poll(() => total(w)).toBe(`${n.toLocaleString('en-US')} records`);
    expect(await pill.getAttribute('aria-pressed')).toBe('true');
    // The page shows rows (a full first page, or all n), each of that mode: an empty list would prove nothing.
    expect(n).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.record-mode').allTextContents()).toEqual(Array.from({ length: Math.min(100, n) }, () => name));
    // The pills keep their order while filtering (the other modes now count 0, and stay where they were).
    await expect.poll(pillOrder).toEqual(before);

    // Several words: records holding all of them, in any order; quotes: the phrase as written.
    for (const text of ['项目 进度', '进度 项目', '"项目进度"']) {
      await page.getByLabel('Search history').fill(text);
      const want = await w.history.countMatches({ text, includeArchived: true, modes: [mode], facets: false });
      await expect.poll(() => total(w)).toBe(`${want.total.toLocaleString('en-US')} records`);
    }
    expect((await w.history.countMatches({ text: '项目 进度', includeArchived: true, facets: false })).total).toBeGreaterThanOrEqual(expected.total);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.getByLabel('Search history').inputValue()).toBe('');
    await page.getByLabel('Time range').selectOption('all');
    await expect.poll(() => total(w)).toBe('100,000 records');
    expect(w.problems).toEqual([]);
  });

  it('edits the final text with Ctrl+S and deletes an archived record: both land in the JSONL files', async () => {
    const w = await open();
    const { page } = w;
    await page.getByLabel('Time range').selectOption('all');
    await page.getByLabel('Include archived').uncheck();
    await expect.poll(() => label(w)).toBe('Page 1 / 200');
    const list = page.getByRole('listbox', { name: 'Dictations' });
    await list.focus();
    await page.keyboard.press('ArrowDown');
    const selected = page.locator('[role="option"][aria-selected="true"]');
    const key = (await selected.getAttribute('id'))?.replace(/^row-/, '') ?? '';
    expect(key).toMatch(/^B/);
    await page.keyboard.press('Enter');
    const final = page.getByRole('textbox', { name: 'Final text' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('detail-final');
    await final.fill('萍萍改过的最终文本');
    await page.keyboard.press('Control+s');
    await page.getByText('Saved.').waitFor();
    const active = path.join(w.dataDir, 'conversation_history.jsonl');
    await expect.poll(() => jsonlLines(active).find((r) => r.id === key)?.final_text).toBe('萍萍改过的最终文本');
    const edited = jsonlLines(active).find((r) => r.id === key);
    expect(edited?.edited_at).toEqual(expect.any(String));
    expect(edited?.user_corrected).toBe(true);

    // An archived record: the newest of the newest archive, found by searching its text with archives included.
    const archives = path.join(w.dataDir, 'conversation_history_archives');
    const archive = path.join(archives, fs.readdirSync(archives).sort().at(-1) ?? '');
    const victim = jsonlLines(archive).at(-1) as { id: string; final_text: string };
    await page.getByLabel('Include archived').check();
    await page.getByLabel('Search history').fill(victim.final_text);
    const row = page.locator(`#row-${victim.id}`);
    await row.click();
    expect(await page.getByTestId('detail-asr').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => jsonlLines(archive).some((r) => r.id === victim.id)).toBe(false);
    await expect.poll(() => row.count()).toBe(0);
    expect(w.problems).toEqual([]);
  });

  it('is keyboard-first: "/" focuses search, PageDown/↑/↓ page keeping a selection, Escape closes the details; in Chinese', async () => {
    const w = await open({ configText: '{"ui":{"language":"zh"}}' });
    const { page } = w;
    await page.getByLabel('时间范围').selectOption('all');
    await expect.poll(() => label(w)).toBe('第 1 / 1000 页');
    const selectedId = () => page.locator('[role="option"][aria-selected="true"]').getAttribute('id');
    await page.getByRole('listbox').focus();
    await page.keyboard.press('End');
    const lastOfPage1 = await selectedId();
    // PageDown: the next page, its first row selected (the selection is never lost to paging).
    await page.keyboard.press('PageDown');
    await expect.poll(() => label(w)).toBe('第 2 / 1000 页');
    await expect.poll(async () => (await rows(w).first().getAttribute('id')) === (await selectedId())).toBe(true);
    // ↑ on the first row goes back a page, to its last row.
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => label(w)).toBe('第 1 / 1000 页');
    await expect.poll(selectedId).toBe(lastOfPage1);
    // ↓ on the last row goes on to the next page's first row.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => label(w)).toBe('第 2 / 1000 页');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.getByRole('complementary', { name: '详情' }).getByText('识别结果').waitFor();
    await saveScreenshot(page, 'history-zh');
    await page.getByRole('button', { name: '关闭详情' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('listbox');
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('history-search');
    // Every interactive control has an accessible name.
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('button, input, select, textarea, [role="listbox"]')]
        .filter((el) => !(el.getAttribute('aria-label') || (el as HTMLElement).innerText?.trim() || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el.closest('label')))
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
    expect(w.problems).toEqual([]);
  });
});
