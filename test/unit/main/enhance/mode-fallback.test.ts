import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILTIN_MODES } from '../../../../src/main/enhance/builtin-modes.ts';
import { modesDir, parseModeText } from '../../../../src/main/enhance/modes.ts';
import type { ChatCall, ChatReply } from '../../../helpers/openai-test-server.ts';
import { makeFixture, type Fixture } from './enhance-fixture.ts';

/**
 * A typo in the chosen mode's file: the dictation runs as plain proofreading with the built-in prompt
 * (never as the first mode in the menu, which can be a translation), and the problem names the file
 * and the line so the app can say so.
 */

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const echo = (c: ChatCall): ChatReply => ({ kind: 'text', content: c.messages.at(-1)?.content ?? '' });
const builtinProofread = (lang: 'zh' | 'en'): string => parseModeText('proofread', BUILTIN_MODES.find((m) => m.id === 'proofread')?.text[lang] ?? '').prompt;
const builtinTranslate = (lang: 'zh' | 'en'): string => parseModeText('translate_en', BUILTIN_MODES.find((m) => m.id === 'translate_en')?.text[lang] ?? '').prompt;

describe('an invalid chosen mode', () => {
  it('broken front matter in proofread.md: the built-in proofread prompt is sent, never a translation, and the issue names the file and line', async () => {
    fx = await makeFixture({ chat: echo }, { mode: 'proofread', lang: 'zh' });
    const file = path.join(modesDir(fx.dir), 'proofread.md');
    // A missing colon on line 3: the kind of typo users make.
    fs.writeFileSync(file, '---\nlabel: 我的校对\norder 10\n---\n只改错别字。\n');
    await fx.enhancer.reloadModes();
    // translate_en (order 20) is now the first mode of the menu.
    expect(fx.enhancer.modes[0]?.id).toBe('translate_en');

    const r = await fx.enhancer.enhance({ text: '今天天气很好' });
    const system = fx.server.requests.at(-1)?.json as { messages: { role: string; content: string }[] };
    const prompt = system.messages[0]?.content ?? '';
    // Before the fix: the translation prompt (modes[0]).
    expect(prompt).not.toContain(builtinTranslate('zh').slice(0, 40));
    expect(prompt).toContain(builtinProofread('zh').slice(0, 40));
    expect(r.mode).toBe('proofread');
    expect(r.historyMode).toBe('proofread');

    const issue = fx.enhancer.chosenModeIssue();
    expect(issue).toMatchObject({ file, line: 3 });
    expect(issue?.message).toMatch(/line 3/);
  });

  it('every kind of broken value reports its line', () => {
    const cases: [string, number][] = [
      ['---\nlabel: x\n', 1],
      ['---\nlabel: x\n---oops\nprompt', 3],
      ['---\nlabel: x\norder: soon\n---\nprompt', 3],
      ['---\n\nsteps: [a]\n---\n', 3],
      ['---\ntrack_corrections: maybe\n---\nprompt', 2],
      ['---\n# comment\nguard: strict\n---\nprompt', 3],
      ['---\nlabel: x\n---\n\n   \n', 4],
      ['---\n__proto__: 1\n---\nprompt', 2],
    ];
    for (const [text, line] of cases) {
      let caught: unknown;
      try {
        parseModeText('m', text);
      } catch (err) {
        caught = err;
      }
      expect(caught, text).toMatchObject({ line });
    }
  });

  it('an unknown mode id also runs as the built-in proofread mode and is reported', async () => {
    fx = await makeFixture({ chat: echo }, { mode: 'emial', lang: 'en' });
    const r = await fx.enhancer.enhance({ text: 'hello there' });
    expect(r.mode).toBe('proofread');
    const body = fx.server.requests.at(-1)?.json as { messages: { content: string }[] };
    expect(body.messages[0]?.content).toContain(builtinProofread('en').slice(0, 40));
    expect(fx.enhancer.chosenModeIssue()).toMatchObject({ file: path.join(modesDir(fx.dir), 'emial.md'), line: null });
    expect(fx.enhancer.chosenModeIssue('translate_en')).toBeNull();
  });
});
