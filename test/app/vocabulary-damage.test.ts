/**
 * The built app started on a data folder whose vocabulary.db is damaged ("database disk image is
 * malformed": header intact, pages after it garbled): the dictation is transcribed, pasted and logged
 * as usual, the user is told (notice and tray line) where the damaged file was put, and that file is
 * kept byte for byte beside a fresh vocabulary holding the pairs that could still be read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VOCABULARY_DB_FILE, VocabularyStore } from '../../src/main/enhance/vocabulary-store.ts';
import { noticeText } from '../../src/shared/notices/notice-text.ts';
import type { Notice } from '../../src/shared/notices/notice.ts';
import { launchApp, waitUntil } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { historyRecords, useScenarioSuite, windowVisible } from './harness/scenario-suite.ts';

/** A vocabulary of many pages, then every page after the second overwritten: SQLite's header still reads. */
function damagedVocabulary(dataDir: string): Buffer {
  const file = path.join(dataDir, VOCABULARY_DB_FILE);
  const store = VocabularyStore.open(file);
  for (let i = 0; i < 300; i++) store.add({ wrong: `hallo ${i}`, right: `Hello ${i}`, note: 'padding '.repeat(40) });
  store.close();
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, Buffer.alloc(size - 8192, 0xa5), 0, size - 8192, 8192);
  fs.closeSync(fd);
  return fs.readFileSync(file);
}

describe('the built app with a damaged vocabulary.db', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  beforeAll(() => {
    s = suite.scenario();
  });

  it('dictates, pastes and logs as usual; the user is told where the damaged file is; the file is kept', async () => {
    const dataDir = s.dataDir({ output: { preview: false } });
    const damagedBytes = damagedVocabulary(dataDir);
    const app = suite.track(launchApp({ dataDir, env: s.x.env, fakeAudio: s.speech }));
    await app.waitForLog('ready');
    await app.waitForLog('microphone ready');

    // The notice, as the log records it and as the user reads it.
    const logged = await waitUntil(() => app.log().find((l) => l.msg === 'notice' && (l.notice as Notice | undefined)?.code === 'vocabulary-degraded'), 10_000, 'the vocabulary notice');
    const notice = logged.notice as Extract<Notice, { code: 'vocabulary-degraded' }>;
    expect(notice).toMatchObject({ state: 'repaired' });
    expect(notice.copy).toMatch(/vocabulary\.db\.damaged-[0-9T-]+Z$/);
    expect(path.dirname(notice.copy ?? '')).toBe(dataDir);
    const words = noticeText('en', notice);
    expect(words).toContain(notice.copy);
    expect(words).toMatch(/Dictation works as usual/);
    // The tray keeps a problem line for the session.
    const tray = (await app.state()).tray;
    expect(tray?.menu.map((m) => m.label)).toEqual(expect.arrayContaining([expect.stringMatching(/^⚠ Your vocabulary file was damaged/)]));

    // A dictation: transcribed (with whatever hotwords survived), pasted straight into the focused field, logged.
    const field = await s.targetField();
    await field.fill('#t', '');
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => windowVisible(app, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 2500));
    await s.xdotool('keyup', 'Alt_R');
    await waitUntil(async () => (await field.inputValue('#t')) === 'Hello world.', 45_000, 'the pasted text');
    const records = await historyRecords(dataDir, 1, 10_000);
    expect(records[0]).toMatchObject({ final_text: 'Hello world.', source: 'voice' });
    expect(app.log().filter((l) => l.msg === 'notice' && (l.notice as Notice | undefined)?.code === 'asr-failed')).toEqual([]);

    // Set aside, not lost: the damaged bytes are kept as they were, and a fresh vocabulary.db is in use.
    expect(fs.readFileSync(notice.copy ?? '')).toEqual(damagedBytes);
    expect(fs.statSync(path.join(dataDir, VOCABULARY_DB_FILE)).isFile()).toBe(true);
  }, 120_000);
});
