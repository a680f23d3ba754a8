/**
 * Child process of the kill -9 test: runs a real dictation against the parent's test server (whose
 * chat call may stall) and prints `at:<state>:<id>` as it goes — and `at:pasted:<id>` when the text is
 * handed out, `at:done:<id>` when the session ends — so the parent can kill it at any step.
 * argv: dataDir, baseURL, stopAt ('recording' | 'enhancing' | 'output' | 'pasted' | 'done').
 */
import { DictationController } from '../../../../src/main/dictation/controller.ts';
import { openServiceGraph } from '../../../../src/main/dictation/service-graph.ts';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { fixtureConfig } from './dictation-fixture.ts';

const [dataDir = '', baseURL = '', stopAt = 'enhancing'] = process.argv.slice(2);
const config = fixtureConfig(baseURL, { output: { preview: false }, ai_enhance: { enabled: true, mode: 'proofread', providers: { test: { base_url: baseURL } }, default_provider: 'test', default_model: 'test-model', timeout: 60, connection_timeout: 60, max_retries: 0 } });
const graph = await openServiceGraph({ dataDir, config: () => config, secrets: { get: () => 'sk-test' }, lang: () => 'en', warn: () => {} });
const c = new DictationController({
  dataDir,
  config: () => config,
  capture: { start: () => undefined, stop: async () => undefined },
  asr: graph.ports.asr,
  enhance: graph.ports.enhance,
  history: graph.ports.history,
  output: {
    deliver: async () => {
      const id = c.snapshot().sessionId;
      // A real paste's keystroke comes after the port's first await (paste.ts queues its work).
      await new Promise((r) => setImmediate(r));
      process.stdout.write(`at:pasted:${id}\n`);
      return { ok: true };
    },
  },
  ui: {
    emit: (e) => {
      if (e.kind === 'state') process.stdout.write(`at:${e.state}:${e.sessionId}\n`);
      if (e.kind === 'done') process.stdout.write(`at:done:${e.sessionId}\n`);
    },
    panel: () => undefined,
    sound: () => undefined,
  },
});
c.press('hold');
const id = c.snapshot().sessionId ?? '';
const { samples, sampleRate } = readPcm(speechWav('hello world this is a dictation test'));
const step = sampleRate / 10;
for (let at = 0, seq = 0; at < samples.length; at += step, seq++) c.frames(id, seq, sampleRate, samples.subarray(at, at + step));
if (stopAt !== 'recording') c.release();
// Stay alive until killed.
setInterval(() => undefined, 1000);
