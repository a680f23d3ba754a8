/**
 * The large history the History Browser is tested over: bench/lib/generate.ts's seeded mixed zh/en
 * records (archives + a 20,000-record active file), indexed by the real HistoryService rebuild. Made
 * once and cached under test/.cache (gitignored); each test copies it into its own temp folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureDataset } from '../../bench/lib/generate.ts';
import { HistoryService } from '../../src/main/history/history-service.ts';

const cacheRoot = path.resolve(import.meta.dirname, '../.cache');

/** A generated, indexed data folder to seed windows with. */
export interface HistoryDataset {
  readonly dataDir: string;
  readonly n: number;
}

/** Generates (or reuses) `n` records with the real index built next to them. */
export async function indexedHistoryDataset(n: number, seed = 42): Promise<HistoryDataset> {
  const ds = ensureDataset(n, seed, cacheRoot);
  const marker = path.join(ds.dataDir, '.indexed');
  if (!fs.existsSync(marker)) {
    // The real rebuild (HistoryService.open finds no index.db and rebuilds it from the JSONL files).
    const svc = await HistoryService.open({ dataDir: ds.dataDir, enabled: true, rebuildInline: true, warn: () => undefined });
    await svc.close();
    fs.writeFileSync(marker, new Date().toISOString());
  }
  return { dataDir: ds.dataDir, n };
}
