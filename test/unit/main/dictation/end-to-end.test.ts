import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { makeDictationFixture, untilIdle, untilState, type DictationFixture } from './dictation-fixture.ts';

/** A whole dictation in Node with the real services: WAV → session → ASR → enhancer → preview → output → JSONL. */

let fx: DictationFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const wav = () => readPcm(speechWav('hello world this is a dictation test'));

describe('dictation end to end', () => {
  it('hold, speak, release, confirm: the text is delivered and one record has the right fields', async () => {
    fx = await makeDictationFixture({
      transcription: () => ({ kind: 'text', text: 'hello world this is a dictation test', language: 'english' }),
      chat: () => ({ kind: 'text', content: 'Hello world, this is a dictation test.' }),
    });
    const { controller: c } = fx;
    c.press('hold');
    const id = c.snapshot().sessionId;
    expect(c.state.state).toBe('recording');
    expect(id).toMatch(/^[0-9A-Z]{22}$/);
    const { samples, sampleRate } = wav();
    fx.feed(id ?? '', samples, sampleRate);
    c.release();
    await untilState(c, 'preview');
    // The audio was journaled before the ASR call and the transcript before the LLM call.
    expect(fs.existsSync(path.join(fx.dir, 'journal', `${id}.wav`))).toBe(true);
    const snap = c.snapshot();
    expect(snap).toMatchObject({ state: 'preview', asrText: 'hello world this is a dictation test', text: 'Hello world, this is a dictation test.', enhanceStatus: 'enhanced' });
    expect(fx.events.filter((e) => e.kind === 'delta').map((e) => (e.kind === 'delta' ? e.text : '')).join('')).toBe('Hello world, this is a dictation test.');
    c.confirm(id ?? '', 'Hello world, this is a dictation test!', 'paste');
    await untilIdle(c);
    await fx.graph.history.settled();
    expect(fx.sink.delivered).toEqual([{ text: 'Hello world, this is a dictation test!', action: 'paste' }]);
    const records = fx.records();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      asr_text: 'hello world this is a dictation test',
      enhanced_text: 'Hello world, this is a dictation test.',
      final_text: 'Hello world, this is a dictation test!',
      enhance_mode: 'proofread',
      preview_enabled: true,
      stt_model: 'whisper-test',
      llm_model: 'test-model',
      user_corrected: true,
      source: 'voice',
      outcome: 'confirmed',
    });
    expect(records[0]?.audio_duration).toBeCloseTo(Math.round((samples.length / sampleRate) * 10) / 10, 1);
    expect(records[0]).not.toHaveProperty('enhance_error');
    // The panel was shown for the preview and hidden on confirm; the state went through every step.
    expect(fx.panel).toEqual([true, true, false]);
    const states = fx.events.flatMap((e) => (e.kind === 'state' ? [e.state] : []));
    expect(states).toEqual(['recording', 'transcribing', 'enhancing', 'preview', 'output', 'idle']);
    // Done journal entries are deleted at once with retention 0 … here retention is 7 days: kept as done.
    expect(JSON.parse(fs.readFileSync(path.join(fx.dir, 'journal', `${id}.json`), 'utf8'))).toMatchObject({ status: 'done' });
    expect(fs.readdirSync(path.join(fx.dir, 'sessions'))).toEqual([]);
  });

  it('the history record is in the session journal before the output does anything, and gone once the record is on disk', async () => {
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'journaled first' }), chat: () => ({ kind: 'text', content: 'Journaled first.' }) }, { output: { preview: false } });
    const f = fx;
    const journaledAtPaste: (string | undefined)[] = [];
    const deliver = f.sink.deliver.bind(f.sink);
    // What a paste does first happens after an await (paste.ts queues its work): look at the journal then.
    f.sink.deliver = async (text, action) => {
      await Promise.resolve();
      journaledAtPaste.push(...f.controller.sessions.list().map((s) => s.record?.final_text));
      return deliver(text, action);
    };
    f.controller.press('hold');
    const { samples, sampleRate } = wav();
    f.feed(f.controller.snapshot().sessionId ?? '', samples, sampleRate);
    f.controller.release();
    await untilIdle(f.controller);
    await f.graph.history.settled();
    expect(journaledAtPaste).toEqual(['Journaled first.']);
    expect(f.records()).toEqual([expect.objectContaining({ final_text: 'Journaled first.' })]);
    expect(f.controller.sessions.list()).toEqual([]);
  });

  it('the LLM failing still delivers the raw text, and the record says so', async () => {
    fx = await makeDictationFixture(
      {
        transcription: () => ({ kind: 'text', text: 'raw words here' }),
        chat: () => ({ kind: 'fault', fault: { kind: 'http', status: 500, message: 'model crashed' } }),
      },
      { output: { preview: false } },
    );
    const { controller: c } = fx;
    c.press('hold');
    fx.feed(c.snapshot().sessionId ?? '', wav().samples, 16000);
    c.release();
    await untilIdle(c);
    await fx.graph.history.settled();
    expect(fx.sink.delivered).toEqual([{ text: 'raw words here', action: 'paste' }]);
    const [record] = fx.records();
    expect(record).toMatchObject({ asr_text: 'raw words here', enhanced_text: null, final_text: 'raw words here', preview_enabled: false, outcome: 'direct' });
    expect(String(record?.enhance_error)).toMatch(/500|http|server/i);
    expect(fx.events.some((e) => e.kind === 'notice' && e.level === 'warning' && e.notice.code === 'llm-fallback')).toBe(true);
  });

  it('an ASR failure keeps the audio for a retry, and the retry finishes the dictation', async () => {
    let fail = true;
    fx = await makeDictationFixture(
      {
        transcription: () => (fail ? { kind: 'fault', fault: { kind: 'http', status: 503 } } : { kind: 'text', text: 'second try' }),
        chat: () => ({ kind: 'text', content: 'Second try.' }),
      },
      { output: { preview: false } },
    );
    const { controller: c } = fx;
    c.press('toggle');
    const id = c.snapshot().sessionId ?? '';
    fx.feed(id, wav().samples, 16000);
    c.press('toggle');
    await untilIdle(c);
    expect(fx.sink.delivered).toEqual([]);
    expect(c.audioJournal.get(id)?.status).toBe('failed');
    expect(c.lastRetryable()).toBe(id);
    fail = false;
    expect(c.retryLast()).toBe(true);
    await untilIdle(c);
    expect(fx.sink.delivered).toEqual([{ text: 'Second try.', action: 'paste' }]);
  });

  it('silence is discarded with a notice and nothing is logged or journaled', async () => {
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'never' }) });
    const { controller: c } = fx;
    c.press('hold');
    fx.feed(c.snapshot().sessionId ?? '', new Float32Array(16000), 16000);
    c.release();
    await untilIdle(c);
    expect(fx.server.requests.length).toBe(0);
    expect(fx.events.some((e) => e.kind === 'notice' && e.notice.code === 'silence-discarded')).toBe(true);
    expect(fs.existsSync(path.join(fx.dir, 'journal')) ? fs.readdirSync(path.join(fx.dir, 'journal')) : []).toEqual([]);
  });

  it('cancelling a preview logs it as cancelled and keeps it reopenable; chain modes log nothing', async () => {
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'some words' }), chat: () => ({ kind: 'text', content: 'Some words.' }) });
    const { controller: c } = fx;
    c.press('hold');
    const id = c.snapshot().sessionId ?? '';
    fx.feed(id, wav().samples, 16000);
    c.release();
    await untilState(c, 'preview');
    c.cancel(id);
    await untilIdle(c);
    await fx.graph.history.settled();
    expect(fx.records()).toMatchObject([{ outcome: 'cancelled', preview_enabled: true, user_corrected: false }]);
    expect(c.sessions.get(id)?.status).toBe('cancelled');
    expect(c.lastRetryable()).toBe(id);

    fx.config = { ...fx.config, ai_enhance: { ...fx.config.ai_enhance, mode: 'proofread_translate' } };
    const chainMode = fx.graph.enhancer.modes.find((m) => m.steps !== null)?.id;
    expect(chainMode).toBeDefined();
    fx.config = { ...fx.config, ai_enhance: { ...fx.config.ai_enhance, mode: chainMode ?? '' } };
    c.press('hold');
    const id2 = c.snapshot().sessionId ?? '';
    fx.feed(id2, wav().samples, 16000);
    c.release();
    await untilState(c, 'preview');
    c.confirm(id2, 'Some words.', 'paste');
    await untilIdle(c);
    await fx.graph.history.settled();
    expect(fx.records()).toHaveLength(1); // the chain wrote nothing
  });

  it('frames of another session, duplicates and out-of-order batches are dropped', async () => {
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'x' }) });
    const { controller: c } = fx;
    c.press('hold');
    const id = c.snapshot().sessionId ?? '';
    const batch = new Float32Array(1600).fill(0.1);
    c.frames(id, 0, 16000, batch);
    c.frames(id, 0, 16000, batch); // duplicate
    c.frames(id, 2, 16000, batch); // gap
    c.frames('OTHER', 1, 16000, batch);
    c.frames(id, 1, 16000, batch);
    expect(fx.events.filter((e) => e.kind === 'level')).toHaveLength(2);
    c.cancel();
    await untilIdle(c);
    expect(c.audioJournal.get(id)?.durationSeconds).toBeCloseTo(0.2, 3);
  });
});
