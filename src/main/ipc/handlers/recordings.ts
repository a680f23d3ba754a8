/** `recordings:*`: thin wrappers over the History's recordings (src/main/dictation/recordings/recordings.ts). */
import type { RecordingInfo, RecordingsUsageInfo, RetranscribeResult, SpeechChoice } from '../../../shared/ipc/recordings-contract.ts';
import type { IpcHandlers } from '../dispatcher.ts';

/** What the recordings channels delegate to. */
export interface RecordingsApi {
  info(key: string): RecordingInfo;
  saveAs(key: string): Promise<string | null>;
  retranscribe(key: string, choice: SpeechChoice): Promise<RetranscribeResult>;
  apply(key: string, how: 'replace' | 'beside', result: RetranscribeResult): Promise<string>;
  usage(): RecordingsUsageInfo;
}

type RecordingsChannels = 'recordings:info' | 'recordings:save' | 'recordings:retranscribe' | 'recordings:apply' | 'recordings:usage';

/** Handlers of the recordings channels; `api` is absent in set-ups without them (the calls then fail cleanly). */
export function recordingsHandlers(api: RecordingsApi | undefined): Pick<IpcHandlers, RecordingsChannels> {
  const get = (): RecordingsApi => {
    if (!api) throw new Error('recordings are not available in this set-up');
    return api;
  };
  return {
    'recordings:info': ({ key }) => get().info(key),
    'recordings:save': ({ key }) => get().saveAs(key),
    'recordings:retranscribe': ({ key, choice }) => get().retranscribe(key, choice),
    'recordings:apply': ({ key, how, text, sttModel, language }) => get().apply(key, how, { text, sttModel, language }),
    'recordings:usage': () => get().usage(),
  };
}
