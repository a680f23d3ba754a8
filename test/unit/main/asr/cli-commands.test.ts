import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelsGroup } from '../../../../src/cli/commands/models.ts';
import { transcribeGroup } from '../../../../src/cli/commands/transcribe.ts';
import type { CliCommand, CliContext, CliOptionValues } from '../../../../src/cli/types.ts';
import { encodeWav } from '../../../../src/main/audio/wav.ts';
import { isEngineBuilt } from '../../../../src/main/asr/whisper-addon.ts';
import { startOpenAiTestServer } from '../../../helpers/openai-test-server.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';

/* The transcribe/models commands run directly (main's option parsing is tested with the CLI itself). */

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(cmd: CliCommand, argv: string[], options: CliOptionValues = {}, extra: Partial<CliContext> = {}) {
  let out = '';
  let err = '';
  const ctx: CliContext = { dataDir: dir, json: false, stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) }, env: {}, ...extra };
  const code = await cmd.run(ctx, argv, options);
  return { code, out, err };
}

const cmd = (group: { commands: readonly CliCommand[] }, name: string): CliCommand => group.commands.find((c) => c.name === name) as CliCommand;

function wavFile(samples: Float32Array, rate = 16000): string {
  const f = path.join(dir, 'in.wav');
  fs.writeFileSync(f, encodeWav(samples, rate));
  return f;
}

describe('tingxie transcribe', () => {
  it('refuses silence with a notice and no engine call', async () => {
    const r = await run(cmd(transcribeGroup, 'file'), [wavFile(new Float32Array(16000))]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no speech/);
  });

  it('--engine remote goes to the configured API (key from TINGXIE_ASR_API_KEY)', async () => {
    const server = await startOpenAiTestServer({ transcription: () => ({ kind: 'text', text: 'from the server' }) });
    try {
      fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ asr: { remote: { base_url: server.baseURL } } }));
      const tone = new Float32Array(16000).map((_, i) => 0.3 * Math.sin(i / 5));
      const r = await run(cmd(transcribeGroup, 'file'), [wavFile(tone, 48000)], { engine: 'remote' }, { env: { TINGXIE_ASR_API_KEY: 'k1' } });
      expect(r).toMatchObject({ code: 0, out: 'from the server\n' });
      expect(server.requests[0]?.headers.authorization).toBe('Bearer k1');
    } finally {
      await server.close();
    }
  });

  it.skipIf(!isEngineBuilt())('--model PATH runs local whisper and prints JSON with segments', async () => {
    const tone = new Float32Array(16000 * 2).map((_, i) => 0.3 * Math.sin(i / 5) * Math.sin(i / 3000));
    const r = await run(cmd(transcribeGroup, 'file'), [wavFile(tone)], { model: ensureRandomWhisperModel(), language: 'en' }, { json: true });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out) as { engine: string; language: string; segments: unknown[] };
    expect(result).toMatchObject({ engine: 'local', language: 'en' });
  });

  it('a missing model names the fix', async () => {
    const tone = new Float32Array(16000).map((_, i) => 0.3 * Math.sin(i / 5));
    const r = await run(cmd(transcribeGroup, 'file'), [wavFile(tone)], { model: 'base' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/model-missing.*tingxie models download/);
  });
});

describe('tingxie models', () => {
  it('list shows the catalogue and delete reports what it did', async () => {
    const l = await run(cmd(modelsGroup, 'list'), []);
    expect(l.code).toBe(0);
    expect(l.out).toMatch(/^large-v3-turbo\s/m);
    const d = await run(cmd(modelsGroup, 'delete'), ['base']);
    expect(d).toMatchObject({ code: 1, out: 'base is not installed\n' });
    fs.mkdirSync(path.join(dir, 'models'));
    fs.writeFileSync(path.join(dir, 'models', 'ggml-base.bin'), 'x');
    expect((await run(cmd(modelsGroup, 'list'), [], {}, { json: true })).out).toContain('"installed": true');
    expect(await run(cmd(modelsGroup, 'delete'), ['base'])).toMatchObject({ code: 0, out: 'deleted base\n' });
  });

  it('download from an unreachable mirror fails clearly', async () => {
    const r = await run(cmd(modelsGroup, 'download'), ['tiny'], { mirror: 'http://127.0.0.1:1/x' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error \(network\)/);
  });
});
