import { afterEach, describe, expect, it } from 'vitest';
import type { InputContextInfo, InputContextLevel, InputContextPort } from '../../../../src/main/ports/input-context-port.ts';
import { configSchema } from '../../../../src/shared/config/config-schema.ts';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { makeDictationFixture, untilIdle, untilState, type DictationFixture } from './dictation-fixture.ts';

/**
 * App rules in a dictation (real controller, real enhancer over the local OpenAI-compatible test server,
 * real history): the app read at key-down picks the mode and the output; the mode keys still win.
 */

const WECHAT: InputContextInfo = { app_name: 'WeChat', bundle_id: 'wechat', window_title: 'Chat with Li' };
const MAIL: InputContextInfo = { app_name: 'Thunderbird', bundle_id: 'Mail', window_title: 'Write: hello' };

function port(app: () => InputContextInfo, calls: InputContextLevel[]): InputContextPort {
  return { capture: (level) => (calls.push(level), Promise.resolve(level === 'detailed' ? app() : { app_name: app().app_name, bundle_id: app().bundle_id })) };
}

let fx: DictationFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

async function setup(app: () => InputContextInfo, over: Record<string, unknown>, calls: InputContextLevel[] = []): Promise<DictationFixture> {
  const f = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'see you at five' }), chat: () => ({ kind: 'text', content: 'See you at five.' }) }, {}, undefined, { inputContext: port(app, calls) });
  f.config = configSchema.parse({ ...f.config, ...over, ai_enhance: { ...f.config.ai_enhance, enabled: true, ...((over.ai_enhance as object | undefined) ?? {}) }, output: { ...f.config.output, preview: false, ...((over.output as object | undefined) ?? {}) } });
  return f;
}

/** One direct dictation; `during` runs while recording (after the key-down read settled). */
async function dictate(f: DictationFixture, during?: () => void): Promise<string> {
  const c = f.controller;
  c.press('hold');
  const id = c.snapshot().sessionId ?? '';
  await new Promise((r) => setTimeout(r, 20));
  during?.();
  f.feed(id, readPcm(speechWav('see you at five')).samples, 16000);
  c.release();
  await untilIdle(c);
  await f.graph.history.settled();
  return id;
}

const RULES = [
  { label: '微信', app: 'wechat', mode: 'translate_en', submit: 'enter' },
  { app: 'mail', mode: 'proofread', method: 'copy' },
];

describe('app rules in a dictation', () => {
  it('the app at key-down picks the mode (the prompt sent, the record), the submit key, and the notice names the rule', async () => {
    fx = await setup(() => WECHAT, { app_rules: RULES, ai_enhance: { mode: 'proofread', input_context: 'off' } });
    const f = fx;
    await dictate(f);
    expect(f.records()[0]?.enhance_mode).toBe('translate_en');
    expect(f.sink.delivered).toEqual([{ text: 'See you at five.', action: 'paste', submit: 'enter' }]);
    const notices = f.events.flatMap((e) => (e.kind === 'notice' ? [e.notice] : []));
    expect(notices).toContainEqual(expect.objectContaining({ code: 'mode-by-rule', rule: '微信', mode: 'translate_en' }));
    // input_context off: the rule read the app, the record does not keep it.
    expect(f.records()[0]?.input_context).toBeUndefined();
  });

  it('a rule may copy instead of pasting; an app no rule names keeps the configured mode and output.submit_key', async () => {
    let app = MAIL;
    fx = await setup(() => app, { app_rules: RULES, output: { submit_key: 'shift+enter' }, ai_enhance: { mode: 'translate_en' } });
    const f = fx;
    await dictate(f);
    expect(f.sink.delivered.at(-1)).toEqual({ text: 'See you at five.', action: 'copy' });
    expect(f.records()[0]?.enhance_mode).toBe('proofread');
    app = { app_name: 'Gedit', bundle_id: 'gedit' };
    await dictate(f);
    expect(f.sink.delivered.at(-1)).toEqual({ text: 'See you at five.', action: 'paste', submit: 'shift+enter' });
    expect(f.records().map((r) => r.enhance_mode)).toContain('translate_en');
  });

  it('the mode key pressed while recording wins over the rule', async () => {
    fx = await setup(() => WECHAT, { app_rules: [{ app: 'WeChat', mode: 'translate_en' }], ai_enhance: { mode: 'proofread' } });
    const f = fx;
    const c = f.controller;
    c.press('hold');
    const id = c.snapshot().sessionId ?? '';
    // Before the key-down read settles: the user's pick must survive it.
    c.setMode('commandline_master', id);
    await new Promise((r) => setTimeout(r, 30));
    expect(c.snapshot().mode).toBe('commandline_master');
    f.feed(id, readPcm(speechWav('see you at five')).samples, 16000);
    c.release();
    await untilState(c, 'idle');
    await f.graph.history.settled();
    expect(f.records()[0]?.enhance_mode).toBe('commandline_master');
  });

  it('a title rule reads the title even at input_context basic; the record keeps only what basic allows', async () => {
    const calls: InputContextLevel[] = [];
    fx = await setup(() => WECHAT, { app_rules: [{ title: 'chat with', mode: 'translate_en' }], ai_enhance: { input_context: 'basic' } }, calls);
    const f = fx;
    await dictate(f);
    expect(calls).toEqual(['detailed']);
    expect(f.records()[0]?.enhance_mode).toBe('translate_en');
    expect(f.records()[0]?.input_context).toEqual({ app_name: 'WeChat', bundle_id: 'wechat' });
  });
});
