import type { HostEvent, HostRequest, HostSegment } from './engine-protocol.ts';
import { SherpaOfflineEngine } from './sherpa-engine.ts';
import { AsrError } from './types.ts';

/*
 * The sherpa-onnx side of the engine host (engine-host.ts): the same load / transcribe requests, served by
 * SherpaOfflineEngine inside the host process, so a native failure in onnxruntime stays as isolated as
 * one in whisper.cpp. The engine keeps its recognizer warm between calls.
 */

type LoadRequest = Extract<HostRequest, { type: 'load' }>;
type TranscribeRequest = Extract<HostRequest, { type: 'transcribe' }>;

let engine: { key: string; engine: SherpaOfflineEngine } | undefined;

function errorEvent(id: number, err: unknown, fallback: 'model-invalid' | 'engine-failed'): HostEvent {
  if (err instanceof AsrError) {
    const code = err.code === 'model-missing' || err.code === 'model-invalid' || err.code === 'engine-not-built' || err.code === 'bad-request' ? err.code : 'engine-failed';
    return { type: 'error', id, code, message: err.message };
  }
  return { type: 'error', id, code: fallback, message: String((err as Error)?.message ?? err) };
}

/** Whether a sherpa model is what the host has loaded. */
export function sherpaLoaded(): boolean {
  return engine !== undefined;
}

/** Loads (or keeps) the sherpa model of `msg`. */
export async function sherpaLoad(msg: LoadRequest, send: (e: HostEvent) => void): Promise<void> {
  const params = msg.sherpa;
  if (params === undefined) return;
  const key = `${params.family}:${msg.modelPath}:${params.itn !== false}:${params.threads ?? 0}`;
  if (engine?.key === key) {
    send({ type: 'loaded', id: msg.id, loadMs: 0, alreadyLoaded: true });
    return;
  }
  await sherpaUnload();
  const t0 = performance.now();
  const e = new SherpaOfflineEngine({ family: params.family, modelPath: msg.modelPath, ...(params.itn !== undefined ? { itn: params.itn } : {}), ...(params.threads !== undefined ? { threads: params.threads } : {}) });
  try {
    await e.warmUp(params.language !== undefined ? { language: params.language } : {});
  } catch (err) {
    send(errorEvent(msg.id, err, 'model-invalid'));
    return;
  }
  engine = { key, engine: e };
  send({ type: 'loaded', id: msg.id, loadMs: performance.now() - t0, alreadyLoaded: false });
}

/** Transcribes with the loaded sherpa model; segments carry the language the model reports. */
export async function sherpaTranscribe(msg: TranscribeRequest, send: (e: HostEvent) => void): Promise<void> {
  const e = engine?.engine;
  if (e === undefined) {
    send({ type: 'error', id: msg.id, code: 'bad-request', message: 'no model loaded' });
    return;
  }
  const t0 = performance.now();
  try {
    const lang = msg.params.language === '' ? 'auto' : msg.params.language;
    const r = await e.transcribe(msg.pcm, { language: lang });
    const segments: HostSegment[] = r.segments.map((s) => ({ startMs: s.startMs, endMs: s.endMs, text: s.text, ...(r.language !== undefined ? { language: r.language } : {}) }));
    for (const s of segments) send({ type: 'segment', id: msg.id, segment: s });
    send({ type: 'result', id: msg.id, segments, transcribeMs: performance.now() - t0 });
  } catch (err) {
    send(errorEvent(msg.id, err, 'engine-failed'));
  }
}

/** Drops the sherpa model (the recognizer is freed once unreferenced). */
export async function sherpaUnload(): Promise<void> {
  const e = engine;
  engine = undefined;
  await e?.engine.dispose();
}
