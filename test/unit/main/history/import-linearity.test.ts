import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { importWenziFolder } from '../../../../src/main/history/import-export/wenzi-import.ts';
import { quiet, useTempDirs } from '../../../helpers/history-fixtures.ts';
import { writeMinuteWenziFolder } from '../../../helpers/wenzi-folder.ts';

/**
 * A WenZi import grows linearly with the number of records: 200,000 take at most 15× the time of
 * 20,000. It once copied a month's list of lines for every record (store-rewrites.ts `addPlaced`), so
 * 200,000 took 97× the time of 20,000 and 1,000,000 did not finish in 15 minutes. The benchmark B17
 * (bench/b17-import.ts) measures 1,000,000 through the CLI, index included.
 */

const tmp = useTempDirs();

/** A WenZi folder of `n` records one minute apart, written in one pass. */
function wenziFolder(n: number): string {
  return writeMinuteWenziFolder(tmp(), n, (i, ts) =>
    `{"timestamp": "${ts}", "asr_text": "第${i}条，今天和平平讨论了 Orion${i % 977} 的进度", "enhanced_text": null, "final_text": "第${i}条，今天和萍萍讨论了 Orion${i % 977} 的进度", "enhance_mode": "proofread", "preview_enabled": true, "input_context": {"app_name": "Slack"}}`,
  );
}

/** Seconds one import of `wenziDir` into a fresh store takes (the store's opening excluded). */
async function importSeconds(wenziDir: string, n: number): Promise<number> {
  const store = await HistoryStore.open({ dataDir: tmp(), ...quiet });
  const t = performance.now();
  const report = await importWenziFolder(store, wenziDir);
  await store.settled();
  const seconds = (performance.now() - t) / 1000;
  await store.close();
  expect(report).toMatchObject({ imported: n, duplicates: 0, badLines: 0 });
  return seconds;
}

describe('WenZi import time grows linearly', () => {
  it('200,000 records take at most 15x the time of 20,000', async () => {
    const small = wenziFolder(20_000);
    const big = wenziFolder(200_000);
    // The best of two small runs: a shared machine's noise should not pass for a slow import.
    const smallS = Math.min(await importSeconds(small, 20_000), await importSeconds(small, 20_000));
    const bigS = await importSeconds(big, 200_000);
    expect(bigS / smallS, `20k: ${smallS.toFixed(2)} s, 200k: ${bigS.toFixed(2)} s`).toBeLessThanOrEqual(15);
  }, 60_000);
});
