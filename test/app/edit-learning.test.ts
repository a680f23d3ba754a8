/**
 * Learning from an edit in the built app: the first dictation of a name comes out wrong ("cloud"), the
 * user corrects it in the real preview panel, the panel proposes "cloud → Claude", one click adds it to
 * vocabulary.db, and the next dictation of the same name is right: the pair reached the LLM's prompt (the
 * scripted model writes the name the way the prompt's vocabulary says). That the same pair reaches
 * whisper's hotwords is shown in test/unit/main/enhance/edit-learning-learner.test.ts. And without a click:
 * the same correction confirmed in two dictations is added by itself (`auto_add_learned`, on by default).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDIT_LEARNING_FILE } from '../../src/main/enhance/edit-learning/edit-learner.ts';
import { VOCABULARY_DB_FILE } from '../../src/main/enhance/vocabulary-store.ts';
import type { ChatCall } from '../helpers/openai-test-server.ts';
import { waitUntil, type RunningApp } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { historyRecords, useScenarioSuite, windowVisible } from './harness/scenario-suite.ts';

// The prompt's vocabulary line for the pair (src/main/enhance/prompt.ts vocabularyLine).
const PAIR_LINE = '"cloud" → "Claude"';
const knowsPair = (call: ChatCall): boolean => call.messages.some((m) => m.content.includes(PAIR_LINE));

function vocabularyPairs(dataDir: string): string[][] {
  const db = new Database(path.join(dataDir, VOCABULARY_DB_FILE), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT wrong, right FROM vocab_entry ORDER BY id').all() as { wrong: string; right: string }[]).map((r) => [r.wrong, r.right]);
  } finally {
    db.close();
  }
}

describe('the built app: a vocabulary that learns from an edit in the preview', () => {
  // A model that puts the name in place of the dictation's last word (the random-weight whisper model's words
  // are not a name): spelled as the prompt's vocabulary says, else as a speech engine hears it.
  const withName = (heard: string, name: string): string => heard.trim().replace(/\S+$/u, name);
  const suite = useScenarioSuite({ chat: (call) => ({ kind: 'text', content: withName(call.messages.at(-1)?.content ?? '', knowsPair(call) ? 'Claude' : 'cloud') }) });
  let s: Scenario;
  beforeAll(() => {
    s = suite.scenario();
  });

  async function dictateToPanel(a: RunningApp): Promise<void> {
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => windowVisible(a, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 2500));
    await s.xdotool('keyup', 'Alt_R');
    await waitUntil(() => windowVisible(a, 'panel'), 20_000, 'the preview panel');
  }

  it('an edit proposes the pair, Add stores it, and the next dictation of the name is right', async () => {
    const a = await suite.startApp();
    const field = await s.targetField();
    await field.fill('#t', '');

    await dictateToPanel(a);
    const panel = await a.page('panel');
    const final = panel.getByTestId('panel-final');
    await waitUntil(async () => (await final.inputValue()).endsWith(' cloud'), 20_000, 'the first text in the panel');
    const wrong = await final.inputValue();
    const right = wrong.replace(/cloud$/u, 'Claude');
    await final.fill(right);
    await waitUntil(async () => (await panel.getByTestId('panel-proposal-text').count()) > 0, 5000, 'the proposal');
    expect(await panel.getByTestId('panel-proposal-text').textContent()).toBe('Add cloud → Claude to the vocabulary?');
    await panel.getByTestId('panel-proposal-add').click();
    await waitUntil(async () => (await panel.getByTestId('panel-proposal-status').count()) > 0, 5000, 'the added status');
    expect(await panel.getByTestId('panel-proposal-status').textContent()).toBe('Added cloud → Claude to the vocabulary.');
    expect(vocabularyPairs(a.dataDir)).toEqual([['cloud', 'Claude']]);
    await final.focus();
    await panel.keyboard.press('Enter');
    await waitUntil(async () => (await field.inputValue('#t')) === right, 20_000, 'the corrected text pasted');

    // The next dictation: the pair is in the model's prompt and the text is right without an edit.
    await field.fill('#t', '');
    const chatsBefore = s.llm.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    await dictateToPanel(a);
    await waitUntil(async () => (await final.inputValue()).endsWith(' Claude'), 20_000, 'the second text in the panel');
    const second = await final.inputValue();
    expect(await panel.getByTestId('panel-proposal').count()).toBe(0);
    await final.focus();
    await panel.keyboard.press('Enter');
    await waitUntil(async () => (await field.inputValue('#t')) === second, 20_000, 'the second text pasted');
    const chats = s.llm.requests.filter((r) => r.path.endsWith('/chat/completions')).slice(chatsBefore);
    expect(chats.some((r) => r.bodyText.includes(JSON.stringify(PAIR_LINE).slice(1, -1)))).toBe(true);
    const records = await historyRecords(a.dataDir, 2, 5000);
    expect(records.map((r) => [r.final_text, r.user_corrected])).toEqual([
      [right, true],
      [second, false],
    ]);
  }, 120_000);

  it('a correction confirmed in two dictations is added without asking, and the third dictation is right', async () => {
    const a = await suite.startApp();
    const field = await s.targetField();
    const counted = (): string => {
      const file = path.join(a.dataDir, EDIT_LEARNING_FILE);
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    };
    for (const round of [1, 2]) {
      await field.fill('#t', '');
      await dictateToPanel(a);
      const panel = await a.page('panel');
      const final = panel.getByTestId('panel-final');
      await waitUntil(async () => (await final.inputValue()).endsWith(' cloud'), 20_000, `the text of dictation ${round}`);
      const right = (await final.inputValue()).replace(/cloud$/u, 'Claude');
      // Corrected and confirmed, the proposal left alone.
      await final.fill(right);
      await final.focus();
      await panel.keyboard.press('Enter');
      await waitUntil(async () => (await field.inputValue('#t')) === right, 20_000, `the text of dictation ${round} pasted`);
      await waitUntil(() => counted().includes(`"n":${round}`), 5000, `the correction counted ${round} time(s)`);
      if (round === 1) expect(vocabularyPairs(a.dataDir)).toEqual([]);
    }
    await waitUntil(() => vocabularyPairs(a.dataDir).length > 0, 5000, 'the pair added');
    expect(vocabularyPairs(a.dataDir)).toEqual([['cloud', 'Claude']]);

    await field.fill('#t', '');
    await dictateToPanel(a);
    const panel = await a.page('panel');
    await waitUntil(async () => (await panel.getByTestId('panel-final').inputValue()).endsWith(' Claude'), 20_000, 'the third text, right');
  }, 150_000);
});

