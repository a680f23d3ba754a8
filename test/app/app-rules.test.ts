/**
 * Modes that follow the app, in the built app on Xvfb: two real X11 windows of different WM_CLASS
 * (WeChat, Thunderbird) get different modes from app rules — the prompt sent to the model, the history
 * record and the indicator say which — and the WeChat rule's "paste + Enter" submits the window's form
 * with the pasted text (a real Enter keystroke after the paste, read back from the page).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppWindow, focusedClass, type AppWindow } from './harness/app-windows.ts';
import { waitUntil, type RunningApp } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { historyRecords, useScenarioSuite } from './harness/scenario-suite.ts';

const RULES = [
  { label: '微信', app: 'WeChat', mode: 'translate_en', submit: 'enter' },
  { app: 'thunderbird', mode: 'commandline_master' },
];

/** The system prompt of each enhancement the model got since `from` (its key-down warm-ups, one token and no user text, left out). */
function systemPrompts(s: Scenario, from: number): string[] {
  return s.llm.requests.slice(from).flatMap((r) => {
    const messages = (r.json as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
    if (!r.path.endsWith('/chat/completions') || !messages.some((m) => m.role === 'user')) return [];
    return [messages.find((m) => m.role === 'system')?.content ?? ''];
  });
}

/** Holds the dictation key for a while in the focused window and lets go. */
async function dictate(s: Scenario): Promise<void> {
  await s.xdotool('keydown', 'Alt_R');
  await new Promise((r) => setTimeout(r, 2500));
  await s.xdotool('keyup', 'Alt_R');
}

describe('app rules in the built app: the focused X11 app picks the mode and the output', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  const browsers: Browser[] = [];
  let wechat: AppWindow;
  let mail: AppWindow;
  beforeAll(async () => {
    s = suite.scenario();
    wechat = await openAppWindow(s, 'WeChat', 0, browsers);
    mail = await openAppWindow(s, 'Thunderbird', 500, browsers);
  }, 60_000);
  afterAll(async () => {
    for (const b of browsers) await b.close().catch(() => undefined);
  });

  it('WeChat → translate_en + Enter submits its form; Thunderbird → commandline_master pastes without Enter; the indicator names the rule', async () => {
    const a: RunningApp = await suite.startApp({ config: { output: { preview: false }, app_rules: RULES, ai_enhance: { input_context: 'basic' } } });
    const indicator = await a.page('indicator');
    const before = s.llm.requests.length;

    await wechat.focus();
    expect(await focusedClass(s)).toBe('WeChat');
    await s.xdotool('keydown', 'Alt_R');
    // The rule's name is on the indicator while the user speaks ("微信 → <mode label>").
    await waitUntil(async () => ((await indicator.textContent('body')) ?? '').includes('微信 →'), 5000, 'the indicator naming the rule');
    await new Promise((r) => setTimeout(r, 2000));
    await s.xdotool('keyup', 'Alt_R');
    // Paste + a real Enter: the form was submitted with the pasted text.
    await waitUntil(async () => (await wechat.sent()).length === 1, 20_000, 'the WeChat form submitted');
    expect(await wechat.sent()).toEqual(['Hello world.']);
    const first = await historyRecords(a.dataDir, 1, 5000);
    expect(first[0]).toMatchObject({ enhance_mode: 'translate_en', final_text: 'Hello world.', input_context: { app_name: 'WeChat' } });

    await mail.focus();
    expect(await focusedClass(s)).toBe('Thunderbird');
    await dictate(s);
    await waitUntil(async () => (await mail.value()) === 'Hello world.', 20_000, 'the text pasted into Thunderbird');
    const both = await historyRecords(a.dataDir, 2, 5000);
    expect(both[1]).toMatchObject({ enhance_mode: 'commandline_master', input_context: { app_name: 'Thunderbird' } });
    // No Enter there: the form was never submitted.
    await new Promise((r) => setTimeout(r, 500));
    expect(await mail.sent()).toEqual([]);
    // The model got each app's mode: two different system prompts, the input context naming each app.
    const prompts = systemPrompts(s, before);
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).toMatch(/translate/i);
    expect(prompts[1]).toMatch(/shell command/i);
    expect(prompts[0]).toContain('- WeChat');
    expect(prompts[1]).toContain('- Thunderbird');
  }, 120_000);

  it('the mode key pressed while recording wins over the rule for that dictation', async () => {
    const a = await suite.startApp({ config: { output: { preview: false }, app_rules: RULES } });
    await wechat.clear();
    await wechat.focus();
    await s.xdotool('keydown', 'Alt_R');
    await new Promise((r) => setTimeout(r, 800));
    // Left arrow: the previous mode, proofread (consumed while recording), after the rule chose translate_en.
    await s.xdotool('key', 'Left');
    await new Promise((r) => setTimeout(r, 1700));
    await s.xdotool('keyup', 'Alt_R');
    const records = await historyRecords(a.dataDir, 1, 20_000);
    expect(records[0]?.enhance_mode).toBe('proofread');
  }, 90_000);
});
