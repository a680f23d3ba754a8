import { createRequire } from 'node:module';
import path from 'node:path';
import { openHostPort } from '../platform/child-host.ts';
import type { HostEvent, HostRequest, HostSegment, WhisperCallParams } from './engine-protocol.ts';
import { sherpaLoad, sherpaLoaded, sherpaTranscribe, sherpaUnload } from './engine-host-sherpa.ts';
import { ModelFileError, validateModelFile } from './model-file.ts';
import { ENGINE_NOT_BUILT_MESSAGE, whisperAddon, whisperUsesGpu } from './whisper-addon.ts';

/*
 * The ASR engine host: runs in its own process (a Node child process, or an Electron utilityProcess) so a
 * native crash inside whisper.cpp cannot take the app down. It keeps one model loaded and answers the
 * requests of engine-protocol.ts. It validates the model file before whisper.cpp sees it, because the
 * loader segfaults on garbage. A load naming a sherpa-onnx family is served by engine-host-sherpa.ts
 * instead; one model of either kind is loaded at a time.
 */

/** The smart-whisper addon's API, as far as we use it. */
interface WhisperBinding {
  WhisperModel: { load(file: string, gpu: boolean): Promise<{ readonly handle: unknown; free(): Promise<void> }> };
  transcribe(
    handle: unknown,
    pcm: Float32Array,
    params: Record<string, unknown>,
    finish: (results: RawSegment[]) => void,
    progress: (segment: RawSegment) => void,
  ): void;
}
interface RawSegment {
  from: number;
  to: number;
  text: string;
  lang?: string;
  confidence?: number;
}

const port = openHostPort<HostRequest, HostEvent>('engine-host');
// Not named `require`: electron-vite's ESM shim declares a top-level `require` in every chunk that calls one.
const nodeRequire = createRequire(import.meta.url);
let binding: WhisperBinding | undefined;
let model: { path: string; handle: unknown; free(): Promise<void> } | undefined;
let work: Promise<void> = Promise.resolve();

/** Loads the addon build this CPU runs (whisper-variant.ts), saying which on stderr: a crash report then names it. */
function loadBinding(): WhisperBinding {
  const addon = whisperAddon();
  process.stderr.write(`tingxie engine: whisper addon ${addon.variant} (${addon.reason}): ${addon.path}\n`);
  // Metal (Apple silicon) compiles its shaders from ggml-metal.metal at first use and looks for it in
  // $GGML_METAL_PATH_RESOURCES, else in the main bundle or the cwd, where it is not: the build script
  // puts it next to the addon, which is unpacked in a packaged app.
  if (whisperUsesGpu()) process.env.GGML_METAL_PATH_RESOURCES ??= path.dirname(addon.path);
  return nodeRequire(addon.path) as WhisperBinding;
}

function toSegment(s: RawSegment): HostSegment {
  return { startMs: s.from, endMs: s.to, text: s.text, ...(s.lang ? { language: s.lang } : {}), ...(Number.isFinite(s.confidence) ? { confidence: s.confidence } : {}) };
}

function whisperParams(p: WhisperCallParams): Record<string, unknown> {
  return {
    strategy: 0, // greedy: beam search costs 3-5× for little gain on dictation-length audio
    n_threads: p.threads,
    ...(p.audioCtx ? { audio_ctx: p.audioCtx } : {}),
    language: p.language === '' ? 'auto' : p.language,
    ...(p.initialPrompt ? { initial_prompt: p.initialPrompt } : {}),
    temperature: p.temperature,
    translate: false,
    no_timestamps: false,
    suppress_blank: true,
    suppress_non_speech_tokens: true,
    print_progress: false,
    print_realtime: false,
    print_timestamps: false,
    format: 'detail',
  };
}

/** Loads a model: a sherpa-onnx one, or a whisper.cpp file (validated first; the one already loaded is kept). */
async function load(msg: Extract<HostRequest, { type: 'load' }>): Promise<void> {
  if (msg.sherpa !== undefined) {
    if (model !== undefined) await model.free();
    model = undefined;
    await sherpaLoad(msg, port.send);
    return;
  }
  await sherpaUnload();
  const t0 = performance.now();
  let info;
  try {
    info = validateModelFile(msg.modelPath);
  } catch (err) {
    const code = err instanceof ModelFileError && err.reason === 'missing' ? 'model-missing' : 'model-invalid';
    port.send({ type: 'error', id: msg.id, code, message: (err as Error).message });
    return;
  }
  if (model?.path === msg.modelPath) {
    port.send({ type: 'loaded', id: msg.id, loadMs: 0, hparams: info.hparams, alreadyLoaded: true });
    return;
  }
  try {
    binding ??= loadBinding();
  } catch (err) {
    port.send({ type: 'error', id: msg.id, code: 'engine-not-built', message: `${ENGINE_NOT_BUILT_MESSAGE} (${(err as Error).message})` });
    return;
  }
  if (model !== undefined) {
    await model.free();
    model = undefined;
  }
  try {
    const m = await binding.WhisperModel.load(msg.modelPath, whisperUsesGpu());
    model = { path: msg.modelPath, handle: m.handle, free: () => m.free() };
  } catch (err) {
    port.send({ type: 'error', id: msg.id, code: 'model-invalid', message: `whisper.cpp could not load ${msg.modelPath}: ${(err as Error).message}` });
    return;
  }
  port.send({ type: 'loaded', id: msg.id, loadMs: performance.now() - t0, hparams: info.hparams, alreadyLoaded: false });
}

/** Transcribes one request's audio with the loaded model, streaming its segments as they come. */
async function transcribe(msg: Extract<HostRequest, { type: 'transcribe' }>): Promise<void> {
  if (sherpaLoaded()) {
    await sherpaTranscribe(msg, port.send);
    return;
  }
  const loaded = model;
  const b = binding;
  if (loaded === undefined || b === undefined) {
    port.send({ type: 'error', id: msg.id, code: 'bad-request', message: 'no model loaded' });
    return;
  }
  if (!(msg.pcm instanceof Float32Array) || msg.pcm.length === 0) {
    port.send({ type: 'error', id: msg.id, code: 'bad-request', message: 'audio must be a non-empty Float32Array' });
    return;
  }
  const t0 = performance.now();
  try {
    const segments = await new Promise<RawSegment[]>((resolve, reject) => {
      try {
        b.transcribe(loaded.handle, msg.pcm, whisperParams(msg.params), resolve, (s) => port.send({ type: 'segment', id: msg.id, segment: toSegment(s) }));
      } catch (err) {
        reject(err as Error);
      }
    });
    port.send({ type: 'result', id: msg.id, segments: segments.map(toSegment), transcribeMs: performance.now() - t0 });
  } catch (err) {
    port.send({ type: 'error', id: msg.id, code: 'engine-failed', message: `whisper failed: ${(err as Error).message}` });
  }
}

/** Frees the models and exits. */
async function shutdown(): Promise<void> {
  await sherpaUnload();
  if (model !== undefined) await model.free();
  model = undefined;
  process.exit(0);
}

async function handle(msg: HostRequest): Promise<void> {
  switch (msg.type) {
    case 'load':
      return load(msg);
    case 'transcribe':
      return transcribe(msg);
    case 'shutdown':
      return shutdown();
    default: {
      const never: never = msg;
      void never;
    }
  }
}

// One request at a time: whisper already uses every thread it is given, and ordering keeps replies simple.
port.onMessage((msg) => {
  work = work.then(() => handle(msg)).catch((err: unknown) => {
    port.send({ type: 'error', id: (msg as { id?: number }).id ?? -1, code: 'engine-failed', message: String((err as Error)?.message ?? err) });
  });
});
port.send({ type: 'ready', pid: process.pid });
