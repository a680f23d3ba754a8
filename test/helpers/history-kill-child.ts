/**
 * Child process of the kill -9 loop test: opens the history store in the data folder given as argv[2]
 * (small rotation thresholds from argv[3]/argv[4]) and logs records forever, printing `ack <id>` on
 * stdout only after `log()` has resolved (i.e. after fsync). The parent SIGKILLs it at random moments.
 * With `full` as argv[6] (a nearly full disk) a record the disk refuses is printed as `pending <id>`
 * (kept in memory, not acknowledged) and logging goes on.
 * Runs directly under Node 24 (type stripping), so it imports src/ .ts files.
 */
import { HistoryPendingError, HistoryStore } from '../../src/main/history/store/history-store.ts';

const [dataDir, maxRecords, rotateMinBytes, useService, fullDisk] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: history-kill-child.ts DATA_DIR [MAX_RECORDS] [ROTATE_MIN_BYTES] [service]');

async function main(): Promise<void> {
  const opts = {
    dataDir: dataDir as string,
    maxRecords: Number(maxRecords ?? 50),
    rotateMinBytes: Number(rotateMinBytes ?? 4096),
    // Rotate right after each due append (no quiet period), so kills land in rotations as often as possible.
    rotationQuietMs: 0,
    // On a full disk a failed rotation is retried soon, so kills also land in retries.
    rotationRetryMs: 20,
    writeRetryMs: 20,
    warn: (m: string): void => void process.stderr.write(`${m}\n`),
  };
  let log: (n: number) => Promise<string>;
  if (useService === 'service') {
    const { HistoryService } = await import('../../src/main/history/history-service.ts');
    const svc = await HistoryService.open({ ...opts, enabled: true, rebuildInline: true });
    log = async (n) => {
      const r = await svc.log(record(n));
      if (r.pending) throw new HistoryPendingError(r.record, new Error('kept in memory'));
      return r.record.id;
    };
  } else {
    const store = await HistoryStore.open(opts);
    log = async (n) => (await store.log(record(n))).id;
  }
  process.stdout.write('ready\n');
  for (let n = 0; ; n++) {
    let id: string;
    try {
      id = await log(n);
    } catch (err) {
      if (fullDisk !== 'full' || !(err instanceof HistoryPendingError)) throw err;
      process.stdout.write(`pending ${err.record.id}\n`);
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    process.stdout.write(`ack ${id}\n`);
  }
}

function record(n: number) {
  // Spread timestamps over a few months so rotations write several archive files.
  const ts = new Date(Date.UTC(2026, n % 3, 1 + (n % 27), 0, 0, n % 60)).toISOString();
  return {
    timestamp: ts,
    asr_text: `记录 ${n} ${'x'.repeat(n % 40)}`,
    enhanced_text: null,
    final_text: `记录 ${n}`,
    enhance_mode: 'proofread',
    preview_enabled: n % 2 === 0,
    stt_model: 'kill-test',
    llm_model: '',
    user_corrected: false,
    audio_duration: 1,
    language: 'zh',
    source: 'voice' as const,
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`child failed: ${String((err as Error).stack ?? err)}\n`);
  process.exit(2);
});
