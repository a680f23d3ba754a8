import { afterEach, describe, expect, it } from 'vitest';
import { chineseScriptLoaded, resolveChineseScript, toChineseScript } from '../../../../src/main/asr/chinese-script.ts';
import { correctionPairs, inlineDiff } from '../../../../src/main/enhance/wenzi-diff.ts';
import { configSchema } from '../../../../src/shared/config/config-schema.ts';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { makeDictationFixture, untilIdle, untilState, type DictationFixture } from '../dictation/dictation-fixture.ts';

/**
 * Whisper's Traditional answer for Mandarin is turned into the user's script right after
 * recognition, so the panel, the diff and the history record all hold one script.
 */

// What whisper typically answers for Mandarin: Traditional characters (Taiwan variants: 著, 裡) mixed with English.
const WHISPER_TRADITIONAL = '我們明天在會議室裡討論 SQLite 資料庫的設計，請著手準備 PR #42。';
const SIMPLIFIED = '我们明天在会议室里讨论 SQLite 资料库的设计，请着手准备 PR #42。';

describe('resolveChineseScript', () => {
  const cases: readonly [setting: Parameters<typeof resolveChineseScript>[0], language: string, expected: string][] = [
    ['auto', 'auto', 'simplified'],
    ['auto', 'zh', 'simplified'],
    ['auto', 'zh-CN', 'simplified'],
    ['auto', 'en', 'simplified'],
    ['auto', 'zh-TW', 'traditional'],
    ['auto', 'zh-HK', 'traditional'],
    ['auto', 'yue', 'traditional'],
    // The recognition-language values of `asr.language`: the app's Chinese is Simplified, the mix is Mandarin.
    ['auto', 'follow-ui', 'simplified'],
    ['auto', 'zh-en', 'simplified'],
    ['traditional', 'zh-en', 'traditional'],
    ['simplified', 'zh-TW', 'simplified'],
    ['traditional', 'zh', 'traditional'],
    ['as-recognized', 'zh', 'as-recognized'],
  ];
  it.each(cases)('%s with asr.language %s → %s', (setting, language, expected) => {
    expect(resolveChineseScript(setting, language)).toBe(expected);
  });
  it('defaults to auto in config.json', () => {
    expect(configSchema.parse({}).asr.chinese_script).toBe('auto');
  });
});

describe('toChineseScript', () => {
  it('loads no converter until Chinese text needs converting (it is not on the start path)', async () => {
    expect(chineseScriptLoaded()).toBe(false);
    expect(await toChineseScript('hello', 'simplified')).toBe('hello');
    expect(await toChineseScript(WHISPER_TRADITIONAL, 'as-recognized')).toBe(WHISPER_TRADITIONAL);
    expect(chineseScriptLoaded()).toBe(false);
  });
  it('Traditional → Simplified, English, digits and punctuation untouched', async () => {
    expect(await toChineseScript(WHISPER_TRADITIONAL, 'simplified')).toBe(SIMPLIFIED);
  });
  it('Simplified → Traditional (Taiwan) for users who write Traditional', async () => {
    expect(await toChineseScript('我们在这里开会，头发后面 Hello world', 'traditional')).toBe('我們在這裡開會，頭髮後面 Hello world');
  });
  it('as-recognized leaves the text as it is', async () => {
    expect(await toChineseScript(WHISPER_TRADITIONAL, 'as-recognized')).toBe(WHISPER_TRADITIONAL);
  });
  it('English-only text is returned as is', async () => {
    const en = 'Ship the release on Friday, not Thursday (v2.3.1).';
    expect(await toChineseScript(en, 'simplified')).toBe(en);
    expect(await toChineseScript(en, 'traditional')).toBe(en);
  });
});

describe('a dictation with whisper answering in Traditional', () => {
  let fx: DictationFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  async function dictate(script: string, enhanced: string, confirmAs?: string): Promise<{ snapshot: ReturnType<DictationFixture['controller']['snapshot']>; record: Record<string, unknown>; prompt: string }> {
    fx = await makeDictationFixture(
      { transcription: () => ({ kind: 'text', text: WHISPER_TRADITIONAL, language: 'chinese' }), chat: () => ({ kind: 'text', content: enhanced }) },
    );
    fx.config = configSchema.parse({ ...fx.config, asr: { ...fx.config.asr, language: 'zh', chinese_script: script } });
    const c = fx.controller;
    c.press('hold');
    const id = c.snapshot().sessionId ?? '';
    const { samples, sampleRate } = readPcm(speechWav('ni hao'));
    fx.feed(id, samples, sampleRate);
    c.release();
    await untilState(c, 'preview');
    const snapshot = c.snapshot();
    c.confirm(id, confirmAs ?? snapshot.text, 'paste');
    await untilIdle(c);
    await fx.graph.history.settled();
    const chat = fx.server.requests.find((r) => r.path.endsWith('/chat/completions'));
    const messages = (chat?.json as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
    const record = fx.records()[0] ?? {};
    return { snapshot, record, prompt: messages.find((m) => m.role === 'user')?.content ?? '' };
  }

  it('simplified: the panel, the enhancer input and the record hold Simplified; the diff has no noise', async () => {
    const { snapshot, record, prompt } = await dictate('simplified', SIMPLIFIED);
    expect(snapshot.asrText).toBe(SIMPLIFIED);
    expect(prompt).toBe(SIMPLIFIED);
    expect(record).toMatchObject({ asr_text: SIMPLIFIED, final_text: SIMPLIFIED, user_corrected: false });
    // Confirmed unchanged: nothing in the diff reads as a correction, and nothing is learned.
    expect(inlineDiff(String(record.asr_text), String(record.final_text))).toBe(SIMPLIFIED);
    expect(correctionPairs(String(record.asr_text), String(record.final_text))).toEqual([]);
  });

  it('auto with asr.language zh behaves as simplified', async () => {
    const { record } = await dictate('auto', SIMPLIFIED);
    expect(record.asr_text).toBe(SIMPLIFIED);
  });

  it('as-recognized keeps whisper\'s Traditional text', async () => {
    const { snapshot, record } = await dictate('as-recognized', WHISPER_TRADITIONAL);
    expect(snapshot.asrText).toBe(WHISPER_TRADITIONAL);
    expect(record.asr_text).toBe(WHISPER_TRADITIONAL);
  });

  it('traditional: Simplified recognised text becomes Traditional before the record', async () => {
    fx = await makeDictationFixture(
      { transcription: () => ({ kind: 'text', text: '我们在这里讨论 SQLite', language: 'chinese' }), chat: () => ({ kind: 'text', content: '我們在這裡討論 SQLite' }) },
    );
    fx.config = configSchema.parse({ ...fx.config, asr: { ...fx.config.asr, language: 'zh', chinese_script: 'traditional' } });
    const c = fx.controller;
    c.press('hold');
    const id = c.snapshot().sessionId ?? '';
    fx.feed(id, readPcm(speechWav('ni hao')).samples, 16000);
    c.release();
    await untilState(c, 'preview');
    c.confirm(id, c.snapshot().text, 'paste');
    await untilIdle(c);
    await fx.graph.history.settled();
    expect(fx.records()[0]).toMatchObject({ asr_text: '我們在這裡討論 SQLite', final_text: '我們在這裡討論 SQLite' });
  });
});
