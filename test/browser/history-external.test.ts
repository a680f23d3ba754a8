/**
 * The History Browser shows what another program appends to the history file while the window is open
 * (WenZi, a script, a sync tool): the index takes the new line in and the window reloads by itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { newRecordId } from '../../src/shared/history/record.ts';
import { useBrowserHarness } from '../helpers/browser-harness.ts';

const harness = useBrowserHarness();

it('a record another program appends to the JSONL appears in the open window, without reopening it', async () => {
  const w = await harness.open('history');
  const { page } = w;
  await page.getByRole('heading', { name: 'Tingxie History' }).waitFor();
  const logged = await w.history.log({ asr_text: 'written by the app', enhanced_text: null, final_text: 'written by the app', enhance_mode: 'off', preview_enabled: false, stt_model: 'whisper-small', llm_model: '', user_corrected: false, audio_duration: 1.2, language: 'en', source: 'voice', outcome: 'direct' });
  await page.getByText('written by the app').first().waitFor();

  // Another program appends a line in the same format (a copy of the app's record with a new id and text).
  const active = path.join(w.dataDir, 'conversation_history.jsonl');
  const copy = { ...logged.record, id: newRecordId(), asr_text: '萍萍从别的工具追加的记录', final_text: '萍萍从别的工具追加的记录' };
  fs.appendFileSync(active, `${JSON.stringify(copy)}\n`);

  await page.getByText('萍萍从别的工具追加的记录').first().waitFor({ timeout: 5000 });
  await expect.poll(() => page.getByTestId('total').textContent()).toBe('2 records');
  expect(w.problems).toEqual([]);
});
