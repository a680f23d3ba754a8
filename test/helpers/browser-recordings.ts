/**
 * The History's recordings behind a browser-test window, as the app wires them (src/main/app/recordings-wiring.ts):
 * the real Recordings over the window's data folder and history, deletions followed, the save dialog
 * recorded. The page is served over http here, so its `/recordings/<key>.wav` requests are answered by
 * the app's own route code (src/main/app/recording-route.ts) through playwright's request routing — the
 * same status, headers and bytes the app's protocol returns.
 */
import type { BrowserContext } from 'playwright-core';
import { serveRecording } from '../../src/main/app/recording-route.ts';
import type { RetranscribeAsr } from '../../src/main/dictation/recordings/retranscribe.ts';
import { Recordings } from '../../src/main/dictation/recordings/recordings.ts';
import { followHistoryDeletions } from '../../src/main/dictation/recordings/recordings-upkeep.ts';
import type { HistoryService } from '../../src/main/history/history-service.ts';
import type { ConfigStore } from '../../src/main/settings/config-store.ts';
import type { DialogRecorder } from './browser-settings-services.ts';

/** Builds the recordings and routes their URLs for `context`; the returned `stop` ends the deletion follower. */
export async function harnessRecordings(opts: {
  readonly dataDir: string;
  readonly config: ConfigStore;
  readonly history: HistoryService;
  readonly asr: () => RetranscribeAsr | null;
  readonly dialogs: DialogRecorder;
  readonly context: BrowserContext;
}): Promise<{ readonly recordings: Recordings; stop(): void }> {
  const recordings = new Recordings({
    dataDir: opts.dataDir,
    config: () => opts.config.get(),
    history: opts.history,
    asr: opts.asr,
    saveFile: (name) => opts.dialogs.saveFile(name, [{ name: 'WAV', extensions: ['wav'] }]),
  });
  await opts.context.route(
    (url) => url.pathname.startsWith('/recordings/'),
    async (route) => {
      const req = route.request();
      const res = serveRecording(decodeURIComponent(new URL(req.url()).pathname), req.method(), (key) => recordings.wav(key)) ?? new Response(null, { status: 404 });
      await route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) });
    },
  );
  const stop = followHistoryDeletions(recordings, (l) => opts.history.store.onChange(l), { info: () => undefined, warn: () => undefined });
  return { recordings, stop };
}
