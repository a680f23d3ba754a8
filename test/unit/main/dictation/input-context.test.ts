import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InputContextLevel, InputContextPort } from '../../../../src/main/ports/input-context-port.ts';
import { panelIpcService } from '../../../../src/main/dictation/panel-service.ts';
import { configSchema } from '../../../../src/shared/config/config-schema.ts';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { makeDictationFixture, untilIdle, untilState, type DictationFixture } from './dictation-fixture.ts';

/**
 * Input context: the app being dictated into is read at key-down, sent in the prompt's dynamic tail
 * (never ahead of the history lines, so the provider's cached prefix is the same with or without it),
 * and kept on the record in WenZi's object shape.
 */

const SLACK = { app_name: 'Slack', bundle_id: 'com.tinyspeck.slackmacgap', window_title: 'general - Acme' } as const;
const LABEL = 'Current input context (metadata, not user content):';

/** A port answering like the platform ones: the title only at `detailed`. */
function slackPort(calls: InputContextLevel[]): InputContextPort {
  return {
    capture: (level) => {
      calls.push(level);
      return Promise.resolve(level === 'detailed' ? { ...SLACK } : { app_name: SLACK.app_name, bundle_id: SLACK.bundle_id });
    },
  };
}

let fx: DictationFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

async function setup(level: 'off' | 'basic' | 'detailed', calls: InputContextLevel[], history = false): Promise<DictationFixture> {
  const f = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'ship it on friday' }), chat: () => ({ kind: 'text', content: 'Ship it on Friday.' }) }, {}, undefined, { inputContext: slackPort(calls) });
  f.config = configSchema.parse({ ...f.config, ai_enhance: { ...f.config.ai_enhance, input_context: level, conversation_history: { ...f.config.ai_enhance.conversation_history, enabled: history } } });
  return f;
}

/** One dictation confirmed as the model wrote it; the system prompt it sent. */
async function dictate(f: DictationFixture, onPreview?: (id: string) => Promise<void>): Promise<string> {
  const before = f.server.requests.length;
  const c = f.controller;
  c.press('hold');
  const id = c.snapshot().sessionId ?? '';
  f.feed(id, readPcm(speechWav('ship it on friday')).samples, 16000);
  c.release();
  await untilState(c, 'preview');
  await onPreview?.(id);
  c.confirm(id, c.snapshot().text, 'paste');
  await untilIdle(c);
  await f.graph.history.settled();
  const chat = f.server.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'));
  const messages = (chat?.json as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
  return messages.find((m) => m.role === 'system')?.content ?? '';
}

describe('input context in a dictation', () => {
  it('basic: read once at key-down, the app name in the tail, never the bundle id; the record has the object', async () => {
    const calls: InputContextLevel[] = [];
    fx = await setup('basic', calls);
    const system = await dictate(fx);
    expect(calls).toEqual(['basic']);
    expect(system.endsWith(`${LABEL}\n- Slack\n---`)).toBe(true);
    expect(system).not.toContain('com.tinyspeck');
    expect(system).not.toContain('general - Acme');
    expect(fx.records()[0]?.input_context).toEqual({ app_name: 'Slack', bundle_id: 'com.tinyspeck.slackmacgap' });
  });

  it('detailed: the window title too, in the tail; the record keeps WenZi\'s keys', async () => {
    const calls: InputContextLevel[] = [];
    fx = await setup('detailed', calls);
    const f = fx;
    let shown: string | null = null;
    const system = await dictate(f, async (id) => {
      shown = (await panelIpcService(f.controller, f.graph.enhancer).prompt(id, 'proofread')).system;
    });
    expect(system.endsWith(`${LABEL}\n- Slack, "general - Acme"\n---`)).toBe(true);
    // The panel's "show prompt" shows the prompt as sent, context included.
    expect(shown).toBe(system);
    expect(fx.records()[0]?.input_context).toEqual(SLACK);
  });

  it('off: nothing is read, sent or stored', async () => {
    const calls: InputContextLevel[] = [];
    fx = await setup('off', calls);
    const system = await dictate(fx);
    expect(calls).toEqual([]);
    expect(system).not.toContain(LABEL);
    expect(fx.records()[0]).not.toHaveProperty('input_context');
  });

  it('the context follows the history lines: the cached prefix is byte-identical with and without it', async () => {
    const calls: InputContextLevel[] = [];
    fx = await setup('detailed', calls, true);
    await dictate(fx); // a confirmed dictation: the next prompt has a history line
    const sent = await dictate(fx);
    expect(sent).toContain('Conversation record:');
    const without = await fx.graph.enhancer.buildRequest('ship it on friday', 'proofread', '');
    const withCtx = await fx.graph.enhancer.buildRequest('ship it on friday', 'proofread', 'Slack, "general - Acme"');
    const a = String(without?.request.messages[0]?.content);
    const b = String(withCtx?.request.messages[0]?.content);
    // Without any tail the prompt ends with the closing rule; everything before it is the cached prefix.
    const prefix = a.slice(0, -'\n---'.length);
    expect(prefix).toContain('Conversation record:');
    expect(b.startsWith(prefix)).toBe(true);
    expect(b.slice(prefix.length)).toBe(`\n\n${LABEL}\n- Slack, "general - Acme"\n---`);
    // The request sent in the dictation had the same shape: history lines, then the context, then the rule.
    expect(sent.endsWith(`- [ship→Ship] it on [friday→Friday.]\n\n${LABEL}\n- Slack, "general - Acme"\n---`)).toBe(true);
  });

  it('a platform read that never answers holds the enhancement up 500 ms at most, the record 3 s, then both go without', async () => {
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'ship it' }), chat: () => ({ kind: 'text', content: 'Ship it.' }) }, {}, undefined, {
      inputContext: { capture: () => new Promise(() => undefined) },
    });
    const started = Date.now();
    const system = await dictate(fx);
    expect(Date.now() - started).toBeLessThan(6000);
    expect(system).not.toContain(LABEL);
    expect(fx.records()[0]).not.toHaveProperty('input_context');
  });
});

describe('the enhance-selection shortcut', () => {
  it('runs the tray item\'s flow: copy the selection, enhance it into the preview, log a clipboard record with the context', async () => {
    vi.doMock('electron', () => ({ globalShortcut: { register: () => false, unregister: () => undefined } }));
    const { createHotkeys } = await import('../../../../src/main/app/hotkeys.ts');
    const { enhanceSelectionFlow } = await import('../../../../src/main/app/enhance-selection.ts');
    const calls: InputContextLevel[] = [];
    fx = await setup('basic', calls);
    const f = fx;
    f.server.setChat(() => ({ kind: 'text', content: 'The selected text, enhanced.' }));
    f.config = configSchema.parse({ ...f.config, recording: { ...f.config.recording, enhance_selection_shortcut: 'CommandOrControl+Alt+E' } });
    const steps: string[] = [];
    const flow = enhanceSelectionFlow({
      rememberTarget: () => steps.push('remember'),
      copySelection: () => (steps.push('copy'), Promise.resolve('the selected text')),
      enhanceText: (t) => f.controller.enhanceText(t),
      notify: (_l, n) => steps.push(`notice:${n.code}`),
    });
    const registered = new Map<string, () => void>();
    const hk = createHotkeys({
      config: () => f.config,
      platform: 'linux',
      session: 'x11',
      target: { recording: () => false, idle: () => true, press: () => undefined, release: () => undefined, cancel: () => undefined, restart: () => undefined, stepMode: () => undefined },
      beforeStart: () => undefined,
      enhanceSelection: () => void flow(),
      notify: () => undefined,
      log: () => undefined,
      shortcuts: { register: (acc, cb) => (registered.set(acc, cb), true), unregister: (acc) => void registered.delete(acc) },
      startHook: () => ({ ok: true, hook: { onKey: () => () => undefined, keyTap: () => undefined, stop: () => undefined } }),
    });
    hk.apply();
    expect([...registered.keys()]).toContain('CommandOrControl+Alt+E');
    registered.get('CommandOrControl+Alt+E')?.();
    await untilState(f.controller, 'preview');
    expect(steps).toEqual(['remember', 'copy']);
    expect(f.controller.snapshot()).toMatchObject({ text: 'The selected text, enhanced.' });
    const chat = f.server.requests.find((r) => r.path.endsWith('/chat/completions'));
    expect(JSON.stringify(chat?.json)).toContain('the selected text');
    const id = f.controller.snapshot().sessionId ?? '';
    f.controller.confirm(id, f.controller.snapshot().text, 'paste');
    await untilIdle(f.controller);
    await f.graph.history.settled();
    expect(f.sink.delivered).toEqual([{ text: 'The selected text, enhanced.', action: 'paste' }]);
    expect(f.records()[0]).toMatchObject({ source: 'clipboard', asr_text: 'the selected text', input_context: { app_name: 'Slack', bundle_id: 'com.tinyspeck.slackmacgap' } });
    // Unset ('' = the default): nothing registered.
    f.config = configSchema.parse({ ...f.config, recording: { ...f.config.recording, enhance_selection_shortcut: '' } });
    hk.apply();
    expect([...registered.keys()]).not.toContain('CommandOrControl+Alt+E');
    hk.dispose();
  });

  it('a shortcut another app holds is reported as a key problem, and nothing else breaks', async () => {
    vi.doMock('electron', () => ({ globalShortcut: { register: () => false, unregister: () => undefined } }));
    const { createHotkeys } = await import('../../../../src/main/app/hotkeys.ts');
    const notices: unknown[] = [];
    const hk = createHotkeys({
      config: () => configSchema.parse({ recording: { enhance_selection_shortcut: 'CommandOrControl+Alt+E' } }),
      platform: 'linux',
      session: 'x11',
      target: { recording: () => false, idle: () => true, press: () => undefined, release: () => undefined, cancel: () => undefined, restart: () => undefined, stepMode: () => undefined },
      beforeStart: () => undefined,
      enhanceSelection: () => undefined,
      notify: (_l, n) => notices.push(...n),
      log: () => undefined,
      shortcuts: { register: (acc) => acc !== 'CommandOrControl+Alt+E', unregister: () => undefined },
      startHook: () => ({ ok: true, hook: { onKey: () => () => undefined, keyTap: () => undefined, stop: () => undefined } }),
    });
    const status = hk.apply();
    expect(notices).toEqual([expect.objectContaining({ code: 'key-problem', role: 'enhance-selection shortcut', key: 'CommandOrControl+Alt+E' })]);
    expect(status.hook).toBe('running');
    hk.dispose();
  });
});
