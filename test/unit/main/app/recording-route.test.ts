/**
 * The History player's route on the app's protocol (src/main/app/recording-route.ts through
 * serveAppRequest): a record key in, that record's WAV out; anything that is not a plain key, another
 * host, a traversal or a record without audio gets no audio. Real web Responses over a real journal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAppRequest } from '../../../../src/main/app/app-protocol.ts';
import { recordingKeyOf } from '../../../../src/main/app/recording-route.ts';
import { AudioJournal } from '../../../../src/main/audio/journal.ts';

let root: string;
let journal: AudioJournal;
const read = (key: string): Uint8Array | null => {
  const e = journal.recordingOf(key);
  return e === undefined ? null : journal.readWav(e.id);
};
const get = (url: string, method = 'GET'): Promise<Response> => serveAppRequest({ url, method }, path.join(root, 'renderer'), () => undefined, undefined, read);

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-rec-route-'));
  fs.mkdirSync(path.join(root, 'renderer', 'recordings'), { recursive: true });
  // A file the renderer folder happens to hold under the same path is never what the route answers.
  fs.writeFileSync(path.join(root, 'renderer', 'recordings', 'R1.wav'), 'not the recording');
  journal = new AudioJournal(path.join(root, 'data'));
  journal.write('s1', new Float32Array(1600).fill(0.25), 16000);
  journal.complete('s1', 7, 'R1');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('app://tingxie/recordings/<key>.wav', () => {
  it("serves the record's WAV from the journal, as audio/wav, not cached", async () => {
    const r = await get('app://tingxie/recordings/R1.wav');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('audio/wav');
    expect(r.headers.get('cache-control')).toBe('no-store');
    const body = Buffer.from(await r.arrayBuffer());
    expect(body.equals(journal.readWav('s1'))).toBe(true);
    const head = await get('app://tingxie/recordings/R1.wav', 'HEAD');
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('no audio for an unknown key, a deleted record, a malformed key, another host or a traversal', async () => {
    expect((await get('app://tingxie/recordings/R2.wav')).status).toBe(404);
    expect((await get('app://tingxie/recordings/ts%3A2026-01-01.wav')).status).toBe(404);
    expect((await get('app://other/recordings/R1.wav')).status).toBe(404);
    expect((await get('app://tingxie/recordings/..%2Fdata%2Fjournal%2Fs1.wav')).status).toBe(400);
    expect((await get('app://tingxie/recordings/R1.wav', 'POST')).status).toBe(405);
    journal.write('s2', new Float32Array(160), 16000);
    journal.complete('s2', 7, 'R3');
    expect((await get('app://tingxie/recordings/R3.wav')).status).toBe(200);
    journal.forgetRecord('R3');
    expect((await get('app://tingxie/recordings/R3.wav')).status).toBe(404);
  });

  it('a key is a plain record id', () => {
    expect(recordingKeyOf('/recordings/01JABCDEF.wav')).toBe('01JABCDEF');
    expect(recordingKeyOf('/history/index.html')).toBeNull();
    expect(recordingKeyOf('/recordings/a.b.wav')).toBeUndefined();
    expect(recordingKeyOf('/recordings/x/y.wav')).toBeUndefined();
  });
});
