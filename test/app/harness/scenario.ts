/**
 * What every whole-app scenario sets up: an Xvfb display, a data folder with a config, the local
 * OpenAI-compatible server (LLM), a speech model on disk (the random-weight whisper model: real
 * whisper.cpp, scripted words), a looping espeak-ng WAV for Chromium's fake microphone, and a real X11
 * text field (a headed Chromium textarea) to dictate into.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { paddedSpeechWav } from '../../helpers/audio-fixtures.ts';
import { startOpenAiTestServer, type OpenAiTestServer, type OpenAiTestServerOptions } from '../../helpers/openai-test-server.ts';
import { ensureRandomWhisperModel } from '../../helpers/whisper-model.ts';
import { startXvfb, type Xvfb } from '../../helpers/xvfb.ts';
import { runCommand } from '../../../src/main/platform/run-command.ts';

const CHROMIUM = process.env.TINGXIE_CHROMIUM ?? '/usr/bin/chromium';

/** The shared fixtures of one scenario file. */
export interface Scenario {
  readonly x: Xvfb;
  readonly llm: OpenAiTestServer;
  /** The looping speech WAV for the fake microphone. */
  readonly speech: string;
  /** A fresh data folder with config.json (merged over the scenario defaults) and, unless `noModel`, the speech model. */
  dataDir(config?: Record<string, unknown>, opts?: { noModel?: boolean }): string;
  /** A real X11 text field, focused (the app the user dictates into). */
  targetField(): Promise<Page>;
  /** Runs xdotool on the display. */
  xdotool(...args: string[]): Promise<void>;
  /** Reads / writes the X clipboard. */
  clipboard: { read(): Promise<string>; write(text: string): Promise<void> };
  close(): Promise<void>;
}

/** The model name the scenarios install (a random-weight model with whisper tiny's real dimensions). */
export const SCENARIO_MODEL = 'tiny';

/** Config every scenario starts from: local whisper, English, the test LLM, hold Right Alt. */
export function scenarioConfig(baseURL: string): Record<string, unknown> {
  return {
    hotkeys: { alt_r: true },
    asr: { engine: 'local', language: 'en', local: { model: SCENARIO_MODEL } },
    ai_enhance: {
      enabled: true,
      mode: 'proofread',
      providers: { test: { base_url: baseURL, models: ['test-model'] } },
      default_provider: 'test',
      default_model: 'test-model',
      timeout: 5,
      connection_timeout: 2,
      max_retries: 0,
    },
    feedback: { sound_enabled: false },
  };
}

function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = v !== null && typeof v === 'object' && !Array.isArray(v) && prev !== null && typeof prev === 'object' && !Array.isArray(prev) ? merge(prev as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}

/** Starts the fixtures; `close()` stops them and removes every data folder made. */
export async function startScenario(llm: OpenAiTestServerOptions = {}): Promise<Scenario> {
  const x = await startXvfb();
  const server = await startOpenAiTestServer({ chat: () => ({ kind: 'text', content: 'Hello world.' }), ...llm });
  const model = ensureRandomWhisperModel({ state: 384, heads: 6, layers: 4 });
  const speech = paddedSpeechWav('hello world, this is a dictation test', 0.1, 0.3);
  const dirs: string[] = [];
  let target: Browser | null = null;
  const xdotool = async (...args: string[]): Promise<void> => {
    const r = await runCommand('xdotool', args, { env: x.env, timeoutMs: 5000 });
    if (r.code !== 0) throw new Error(`xdotool ${args.join(' ')}: ${r.stderr}`);
  };
  return {
    x,
    llm: server,
    speech,
    dataDir(config = {}, opts = {}) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-app-'));
      dirs.push(dir);
      fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(merge(scenarioConfig(server.baseURL), config), null, 2));
      if (opts.noModel !== true) {
        fs.mkdirSync(path.join(dir, 'models'));
        fs.copyFileSync(model, path.join(dir, 'models', `ggml-${SCENARIO_MODEL}.bin`));
      }
      return dir;
    },
    async targetField() {
      target ??= await chromium.launch({
        executablePath: CHROMIUM,
        headless: false,
        env: x.env,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--window-position=0,0', '--window-size=800,600'],
      });
      const page = target.contexts()[0]?.pages()[0] ?? (await target.newPage());
      await page.setContent('<textarea id="t" style="width:600px;height:300px"></textarea>');
      await page.click('#t');
      return page;
    },
    xdotool,
    clipboard: {
      read: async () => (await runCommand('xclip', ['-selection', 'clipboard', '-o'], { env: x.env, timeoutMs: 3000 })).stdout,
      write: async (text) => {
        const { xclipClipboard } = await import('../../../src/main/platform/clipboard-xclip.ts');
        await xclipClipboard(x.env).writeText(text);
      },
    },
    async close() {
      await target?.close().catch(() => undefined);
      await server.close();
      await x.stop();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}
