import { afterEach, describe, expect, it } from 'vitest';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { panelIpcService } from '../../../../src/main/dictation/panel-service.ts';
import type { DictationEvent } from '../../../../src/shared/ipc/dictation-types.ts';
import { makeDictationFixture, untilIdle, untilState, type DictationFixture } from './dictation-fixture.ts';

/** The preview panel's calls over the real controller, enhancer and the local OpenAI-compatible server (issue 7). */

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
});
