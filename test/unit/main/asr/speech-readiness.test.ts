/**
 * Speech readiness: a chosen local model that is not installed is reported at start, the report clears
 * when the model appears (download finished) or the user switches to the remote engine, and comes back
 * when they choose another model that is not there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { missingSpeechModel, watchSpeechReadiness } from '../../../../src/main/asr/speech-readiness.ts';
import { ConfigStore } from '../../../../src/main/settings/config-store.ts';

describe('speech readiness', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-ready-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const install = (name: string): void => {
    fs.mkdirSync(path.join(dir, 'models'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'models', `ggml-${name}.bin`), 'x');
  };

  it('names the missing local model; nothing is missing with the remote engine', async () => {
    const store = await ConfigStore.open({ dataDir: dir });
    expect(missingSpeechModel(store.get(), dir)).toBe('base');
    install('base');
    expect(missingSpeechModel(store.get(), dir)).toBeNull();
    await store.set('asr.local.model', 'small');
    expect(missingSpeechModel(store.get(), dir)).toBe('small');
    await store.set('asr.engine', 'remote');
    expect(missingSpeechModel(store.get(), dir)).toBeNull();
  });

  it('reports at start, then only changes: model chosen, model installed, engine switched', async () => {
    const store = await ConfigStore.open({ dataDir: dir });
    const reports: [string | null, string][] = [];
    const watch = watchSpeechReadiness({ dataDir: dir, config: () => store.get(), onChange: (l) => store.onChange(l), report: (m, when) => reports.push([m, when]) });
    expect(reports).toEqual([['base', 'start']]);
    await store.set('ui.language', 'zh'); // unrelated: no report
    install('base');
    watch.recheck();
    await store.set('asr.local.model', 'small');
    await store.set('asr.engine', 'remote');
    watch.stop();
    await store.set('asr.engine', 'local');
    expect(reports).toEqual([
      ['base', 'start'],
      [null, 'change'],
      ['small', 'change'],
      [null, 'change'],
    ]);
  });
});
