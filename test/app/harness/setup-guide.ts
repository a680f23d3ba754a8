/** Steps of the setup guide that several whole-app scenarios walk the same way. */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/**
 * The speech step with a cloud service: the custom provider at `baseURL` with `apiKey`, checked with a real
 * request (Test → "It works"), then Next. Starts on the first step; ends on the step after speech.
 */
export async function chooseCloudSpeech(page: Page, baseURL: string, apiKey: string): Promise<void> {
  const next = page.getByRole('button', { name: 'Next' });
  await page.getByRole('radio', { name: /With a cloud provider/ }).check();
  await next.click();
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Service URL').fill(baseURL);
  await page.getByLabel('Service URL').press('Enter');
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  await expect.poll(() => page.getByTestId('speech-check').innerText(), { timeout: 15_000 }).toMatch(/^It works/);
  await next.click();
}
