/**
 * The History's recordings in the running app (dictation/recordings/): built with the history, before
 * dictation (the player and deletions work without it; re-transcription uses dictation's ASR service once
 * it runs); deleted records take their audio along; the audio retention sweep runs after start-up, daily,
 * and at once when audio.retention_days changes (a shorter period applies now, not tomorrow).
 */
import { electronFileDialogs } from '../ipc/file-dialogs-electron.ts';
import type { HistoryService } from '../history/history-service.ts';
import type { Logger } from '../platform/logger.ts';
import type { ConfigStore } from '../settings/config-store.ts';
import { Recordings } from '../dictation/recordings/recordings.ts';
import type { RetranscribeAsr } from '../dictation/recordings/retranscribe.ts';
import { followHistoryDeletions, startRecordingSweeps } from '../dictation/recordings/recordings-upkeep.ts';

/** What {@link openRecordings} builds on. */
export interface RecordingsWiringDeps {
  readonly dataDir: string;
  readonly config: ConfigStore;
  readonly history: HistoryService;
  /** Dictation's ASR service once dictation runs (read per call). */
  readonly asr: () => RetranscribeAsr | null;
  readonly log: Logger;
}

/** The recordings and their upkeep; `stop` ends the upkeep (quit). */
export function openRecordings(deps: RecordingsWiringDeps): { readonly recordings: Recordings; stop(): void } {
  const log = deps.log.child('recordings');
  const dialogs = electronFileDialogs();
  const recordings = new Recordings({
    dataDir: deps.dataDir,
    config: () => deps.config.get(),
    history: deps.history,
    asr: deps.asr,
    saveFile: (name) => dialogs.saveFile(name, [{ name: 'WAV', extensions: ['wav'] }]),
  });
  const stopDeletions = followHistoryDeletions(recordings, (l) => deps.history.store.onChange(l), log);
  const stopSweeps = startRecordingSweeps(recordings, log);
  let days = deps.config.get().audio.retention_days;
  const stopConfig = deps.config.onChange((e) => {
    if (e.config.audio.retention_days !== days) {
      days = e.config.audio.retention_days;
      const removed = recordings.sweep();
      if (removed > 0) log.info('audio retention sweep removed old recordings', { removed });
    }
  });
  return {
    recordings,
    stop: () => {
      stopDeletions();
      stopSweeps();
      stopConfig();
    },
  };
}
