/**
 * History's recordings (src/main/dictation/recordings/): over a real history (JSONL + SQLite index), the
 * folder's one audio journal and a real remote speech engine talking HTTP to the strict local test server.
 * A kept recording is described, saved as a WAV, transcribed again and the result put in place of the
 * texts or beside them; deleting one record, everything, or the retention sweep takes the audio along.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AsrService } from '../../../../../src/main/asr/asr-service.ts';
import { audioJournalOf } from '../../../../../src/main/audio/journal.ts';
import { Recordings } from '../../../../../src/main/dictation/recordings/recordings.ts';
import { followHistoryDeletions } from '../../../../../src/main/dictation/recordings/recordings-upkeep.ts';
import { HistoryService } from '../../../../../src/main/history/history-service.ts';
import { deleteAll } from '../../../../../src/main/history/privacy.ts';
import { configSchema, type Config } from '../../../../../src/shared/config/config-schema.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../../helpers/openai-test-server.ts';

let server: OpenAiTestServer;
let dir: string;
let history: HistoryService;
let config: Config;
let recordings: Recordings;
let stopFollow: () => void;
const saved: string[] = [];

beforeAll(async () => {
  server = await startOpenAiTestServer({ transcription: () => ({ kind: 'text', text: 'the second opinion' }) });
});
afterAll(() => server.close());

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-recordings-'));
  config = configSchema.parse({ asr: { engine: 'local', language: 'en', remote: { base_url: server.baseURL, model: 'whisper-1' } } });
  history = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, follow: false });
  const asr = new AsrService({ dataDir: dir, journal: audioJournalOf(dir), remoteApiKey: () => 'k' });
  recordings = new Recordings({
    dataDir: dir,
    config: () => config,
    history,
    asr: () => asr,
    saveFile: async (name) => {
      const file = path.join(dir, `saved-${name}`);
      saved.push(file);
      return file;
    },
  });
  stopFollow = followHistoryDeletions(recordings, (l) => history.store.onChange(l), { info: () => undefined, warn: () => undefined });
});
afterEach(async () => {
  stopFollow();
  await history.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A finished dictation as the controller leaves it: the record logged, its audio journaled and linked. */
async function dictation(session: string, text: string): Promise<string> {
  const journal = audioJournalOf(dir);
  journal.write(session, new Float32Array(16000).map((_, i) => 0.2 * Math.sin(i / 5)), 16000, { mode: 'proofread' });
  const r = await history.log({ asr_text: text, enhanced_text: `${text}.`, final_text: `${text}.`, enhance_mode: 'proofread', preview_enabled: true, stt_model: 'whisper-tiny', llm_model: 'm', user_corrected: false, audio_duration: 1, language: 'en', source: 'voice', outcome: 'confirmed' });
  journal.complete(session, config.audio.retention_days, r.record.id);
  return r.record.id;
}

describe('recordings', () => {
  it('info: the audio by key (never a path) and the remote engine to transcribe it with; a record without audio says so', async () => {
    const key = await dictation('s1', 'first');
    const info = recordings.info(key);
    expect(info.audio).toEqual({ seconds: 1, bytes: 16000 * 2 + 44, src: `/recordings/${key}.wav` });
    expect(info.choices).toEqual([{ engine: 'remote', model: 'whisper-1' }]);
    const other = await history.log({ asr_text: 'typed', enhanced_text: null, final_text: 'typed', enhance_mode: 'off', preview_enabled: false, stt_model: '', llm_model: '', user_corrected: false, audio_duration: 0, language: '', source: 'clipboard' });
    expect(recordings.info(other.record.id)).toEqual({ audio: null, choices: [] });
    await expect(recordings.saveAs(other.record.id)).rejects.toThrow(/no recording/);
  });

  it('save as WAV writes the recording byte for byte where the dialog said', async () => {
    const key = await dictation('s1', 'first');
    const file = await recordings.saveAs(key);
    expect(file).toBe(saved.at(-1));
    expect(fs.readFileSync(file!).equals(audioJournalOf(dir).readWav('s1'))).toBe(true);
  });

  it('re-transcribe with the remote engine, then replace: the record has the new texts and model, and still its audio', async () => {
    const key = await dictation('s1', 'first');
    const r = await recordings.retranscribe(key, { engine: 'remote', model: 'whisper-1' });
    expect(r).toEqual({ text: 'the second opinion', sttModel: 'whisper-1', language: 'en' });
    const sent = server.requests.at(-1);
    expect(sent?.path).toBe('/v1/audio/transcriptions');
    expect(sent?.fields).toMatchObject({ model: 'whisper-1', language: 'en' });
    // Nothing changed before the user chose.
    expect((await history.query({ text: 'first' })).rows).toHaveLength(1);
    expect(await recordings.apply(key, 'replace', r)).toBe(key);
    const rows = (await history.query({})).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key, asr_text: 'the second opinion', final_text: 'the second opinion', enhanced_text: null, stt_model: 'whisper-1' });
    expect(recordings.info(key).audio).not.toBeNull();
  });

  it('keep both: a new record shares the audio; deleting the first keeps it for the second, deleting the second removes it', async () => {
    const key = await dictation('s1', 'first');
    const r = await recordings.retranscribe(key, { engine: 'remote', model: 'whisper-1' });
    const beside = await recordings.apply(key, 'beside', r);
    expect(beside).not.toBe(key);
    const rows = (await history.query({})).rows;
    expect(rows.map((x) => x.asr_text).sort()).toEqual(['first', 'the second opinion']);
    expect(recordings.info(beside).audio?.src).toBe(`/recordings/${beside}.wav`);
    await history.delete(key);
    expect(recordings.info(key).audio).toBeNull();
    expect(audioJournalOf(dir).hasAudio('s1')).toBe(true);
    await history.delete(beside);
    expect(audioJournalOf(dir).hasAudio('s1')).toBe(false);
  });

  it('an engine that is not installed or set up is refused before any work', async () => {
    const key = await dictation('s1', 'first');
    const before = server.requests.length;
    await expect(recordings.retranscribe(key, { engine: 'local', model: 'large-v3' })).rejects.toThrow(/not installed/);
    await expect(recordings.retranscribe(key, { engine: 'remote', model: 'other-model' })).rejects.toThrow(/not installed/);
    expect(server.requests.length).toBe(before);
  });

  it('deleting everything removes every kept recording; the sweep removes expired ones and reports it', async () => {
    await dictation('s1', 'first');
    await dictation('s2', 'second');
    expect(recordings.usage()).toMatchObject({ count: 2, retentionDays: 7, lastSweep: null });
    await deleteAll(history.store);
    expect(recordings.usage()).toMatchObject({ count: 0, bytes: 0 });
    const key = await dictation('s3', 'third');
    expect(recordings.sweep()).toBe(0); // within 7 days
    expect(recordings.info(key).audio).not.toBeNull();
    config = configSchema.parse({ ...config, audio: { ...config.audio, retention_days: 0 } });
    expect(recordings.sweep()).toBe(1);
    expect(recordings.info(key).audio).toBeNull();
    expect(recordings.usage()).toMatchObject({ count: 0, retentionDays: 0, lastSweep: { removed: 1 } });
  });
});
