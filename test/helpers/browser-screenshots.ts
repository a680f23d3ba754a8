import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const out = path.resolve(import.meta.dirname, '../../test-results/screenshots');
const docs = path.resolve(import.meta.dirname, '../../docs/screenshots');

/**
 * Screenshots a window into test-results/screenshots/<name>.png; with TINGXIE_UPDATE_SCREENSHOTS=1 it
 * also refreshes docs/screenshots/<name>.png (shown in README.md and docs/user), so an ordinary test run
 * never dirties the tree.
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file });
  if (process.env.TINGXIE_UPDATE_SCREENSHOTS === '1') {
    fs.mkdirSync(docs, { recursive: true });
    fs.copyFileSync(file, path.join(docs, `${name}.png`));
  }
  return file;
}
