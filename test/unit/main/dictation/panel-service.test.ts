import { afterEach, describe, expect, it } from 'vitest';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { panelIpcService } from '../../../../src/main/dictation/panel-service.ts';
import type { DictationEvent } from '../../../../src/shared/ipc/dictation-types.ts';
import { makeDictationFixture, untilIdle, untilState, type DictationFixture } from './dictation-fixture.ts';

/** The preview panel's calls over the real controller, enhancer and the local OpenAI-compatible server. */

let fx: DictationFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const results = (events: readonly DictationEvent[]) => events.flatMap((e) => (e.kind === 'result' ? [e.snapshot] : []));

async function toPreview(f: DictationFixture): Promise<string> {
  const c = f.controller;
  c.press('hold');
  const id = c.snapshot().sessionId ?? '';
  const { samples, sampleRate } = readPcm(speechWav('hello world this is a dictation test'));
  f.feed(id, samples, sampleRate);
  c.release();
  await untilState(c, 'preview');
  return id;
}

describe('panel service', () => {
  it('re-runs another mode, then reuses the cached answer of a mode this session already ran', async () => {
    fx = await makeDictationFixture({
      transcription: () => ({ kind: 'text', text: 'hello world' }),
      chat: (call) => ({ kind: 'text', content: call.chatIndex === 0 ? 'Hello world.' : 'Hello, world!', reasoningContent: 'thinking about it' }),
    });
    const svc = panelIpcService(fx.controller, fx.graph.enhancer);
    const modes = svc.modes().map((m) => m.id);
    expect(modes).toEqual(expect.arrayContaining(['proofread', 'translate_en']));
    const id = await toPreview(fx);
    const first = results(fx.events).at(-1);
    expect(first).toMatchObject({ mode: 'proofread', text: 'Hello world.', cached: false, thinking: 'thinking about it', model: 'test-model' });
    expect(first?.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(first?.elapsedMs).toBeGreaterThanOrEqual(0);

    svc.setMode(id, 'translate_en');
    await untilState(fx.controller, 'preview');
    await fx.controller.settled();
    expect(results(fx.events).at(-1)).toMatchObject({ mode: 'translate_en', text: 'Hello, world!', cached: false });
    const chatCalls = () => fx?.server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    expect(chatCalls()).toBe(2);

    svc.setMode(id, 'proofread');
    await untilState(fx.controller, 'preview');
    expect(results(fx.events).at(-1)).toMatchObject({ mode: 'proofread', text: 'Hello world.', cached: true, elapsedMs: 0, thinking: 'thinking about it' });
    expect(chatCalls()).toBe(2); // no new model call
    expect(fx.controller.snapshot()).toMatchObject({ mode: 'proofread', text: 'Hello world.' });

    // The confirmed record is logged under the mode on screen.
    fx.controller.confirm(id, 'Hello world.', 'copy');
    await untilIdle(fx.controller);
    await fx.graph.history.settled();
    expect(fx.records()).toMatchObject([{ enhance_mode: 'proofread', enhanced_text: 'Hello world.', outcome: 'copied' }]);
    expect(fx.sink.delivered).toEqual([{ text: 'Hello world.', action: 'copy' }]);
  });

  it('switching to off shows the raw text at once; another session id is ignored', async () => {
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'raw words' }), chat: () => ({ kind: 'text', content: 'Raw words.' }) });
    const svc = panelIpcService(fx.controller, fx.graph.enhancer);
    const id = await toPreview(fx);
    svc.setMode('01OTHERSESSION', 'off');
    expect(fx.controller.snapshot().mode).toBe('proofread');
    const before = results(fx.events).length;
    svc.setMode(id, 'off');
    expect(results(fx.events).length).toBe(before + 1);
    expect(results(fx.events).at(-1)).toMatchObject({ text: 'raw words', enhanceStatus: 'off', enhancedText: null });
    expect(fx.controller.state.state).toBe('preview');
  });

  it('builds the system prompt on demand, and delivers a reopened preview only when idle', async () => {
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'some words' }), chat: () => ({ kind: 'text', content: 'Some words.' }) });
    const svc = panelIpcService(fx.controller, fx.graph.enhancer);
    const id = await toPreview(fx);
    const p = await svc.prompt(id, 'proofread');
    expect(p.system).toContain(fx.graph.enhancer.modes.find((m) => m.id === 'proofread')?.prompt.slice(0, 20) ?? '?');
    expect(p.user).toContain('some words');
    await expect(svc.prompt('01OTHERSESSION', 'proofread')).rejects.toThrow(/no longer open/);
    await expect(svc.deliver('earlier text', 'paste')).rejects.toThrow(/current dictation/);
    fx.controller.cancel(id);
    await untilIdle(fx.controller);
    await svc.deliver('earlier text', 'paste');
    expect(fx.sink.delivered).toEqual([{ text: 'earlier text', action: 'paste' }]);
  });

  it('a reopened preview delivered with changed text updates its record in the JSONL (edited_at set); unchanged text does not', async () => {
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'meet at nine' }), chat: () => ({ kind: 'text', content: 'Meet at nine.' }) });
    const svc = panelIpcService(fx.controller, fx.graph.enhancer);
    const id = await toPreview(fx);
    fx.controller.confirm(id, 'Meet at nine.', 'paste');
    await untilIdle(fx.controller);
    await fx.controller.settled();
    await fx.graph.history.settled();
    const [logged] = fx.records();
    expect(logged).toMatchObject({ final_text: 'Meet at nine.', user_corrected: false, outcome: 'confirmed' });
    expect(logged).not.toHaveProperty('edited_at');

    // Pasted again unchanged: delivered, the record stays as it was.
    await svc.deliver('Meet at nine.', 'paste', id);
    await fx.graph.history.settled();
    expect(fx.records()).toEqual([logged]);

    // Edited in the reopened panel, then copied: the same record (same id) now holds the new text.
    await svc.deliver('Meet at ten.', 'copy', id);
    await fx.graph.history.settled();
    const records = fx.records();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: logged!.id, final_text: 'Meet at ten.', user_corrected: true, asr_text: 'meet at nine' });
    expect(Date.parse(String(records[0]!.edited_at))).not.toBeNaN();
    expect(fx.sink.delivered.slice(-2)).toEqual([
      { text: 'Meet at nine.', action: 'paste' },
      { text: 'Meet at ten.', action: 'copy' },
    ]);

    // A session this app run did not log (or an unknown id) is delivered without touching any record.
    await svc.deliver('Something else', 'paste', '01UNKNOWNSESSION');
    await fx.graph.history.settled();
    expect(fx.records()).toEqual(records);
  });

  it('hidePanel hides the panel only when no dictation is under way', async () => {
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'x y' }), chat: () => ({ kind: 'text', content: 'X y.' }) });
    const svc = panelIpcService(fx.controller, fx.graph.enhancer);
    await toPreview(fx);
    const shown = fx.panel.length;
    svc.hidePanel();
    expect(fx.panel.length).toBe(shown); // a running preview is cancelled with Esc, not hidden under the user
    fx.controller.cancel();
    await untilIdle(fx.controller);
    const before = fx.panel.length;
    svc.hidePanel();
    expect(fx.panel.slice(before)).toEqual([false]);
  });
});
