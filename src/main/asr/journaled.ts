import type { AudioJournal } from '../audio/journal.ts';
import { SAMPLE_RATE } from '../audio/pcm.ts';
import { AsrError, type AsrEngine, type AsrResult, type TranscribeOptions } from './types.ts';

/*
 * The order that makes dictations crash-safe: the audio is journaled (fsynced) before the ASR call; a
 * failure marks the entry failed and keeps the audio for a retry. Completing the entry is the caller's job,
 * after the history record is safely logged (journal.complete).
 */

/**
 * Journals `pcm` under `id`, then transcribes it; on failure the entry is marked failed and the error
 * rethrown. A journal the disk refuses does not stop the transcription.
 */
export async function transcribeJournaled(
  journal: AudioJournal,
  id: string,
  pcm: Float32Array,
  engine: AsrEngine,
  opts: TranscribeOptions = {},
  meta?: Readonly<Record<string, unknown>>,
): Promise<AsrResult> {
  // The journal's own operations (audio/journal.ts owns the files): a disk that refuses the journal
  // (read-only folder, disk full) does not stop the transcription — the dictation goes on without its
  // crash safety (the controller logs that) rather than failing before the ASR call.
  const journaled = journal.ensure(id, pcm, SAMPLE_RATE, { engine: engine.kind, ...meta });
  try {
    return await engine.transcribe(pcm, opts);
  } catch (err) {
    const e = err instanceof AsrError ? err : new AsrError('engine-failed', String((err as Error)?.message ?? err), { cause: err });
    if (journaled) journal.markFailedIfPresent(id, `${e.code}: ${e.message}`);
    throw e;
  }
}

/** Retries a journaled entry (after a crash or a failed call) from its audio on disk. */
export function retryJournaled(journal: AudioJournal, id: string, engine: AsrEngine, opts: TranscribeOptions = {}): Promise<AsrResult> {
  return transcribeJournaled(journal, id, journal.readAudio(id), engine, opts);
}
