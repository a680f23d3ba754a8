/**
 * What the Settings window's channels need in the browser harness: a local HTTP "model mirror"
 * serving a generated ggml-sized file (so the REAL ModelManager downloads, resumes and checks SHA-1
 * over real HTTP), and the one stand-in: file dialogs, which need Electron — a recorder that answers
 * with the path a test chose.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import type { CatalogEntry } from '../../src/main/asr/model-catalog.ts';
import { ensureRandomWhisperModel } from './whisper-model.ts';
import type { DialogFilter, FileDialogs } from '../../src/main/ipc/settings-services.ts';

/** A running model mirror. */
export interface ModelMirror {
  readonly origin: string;
  /** The catalog the model manager is given: the served model plus one that the server does not have. */
  readonly catalog: readonly CatalogEntry[];
  /** The served model is the recommendation for both UI languages (the real list names models this catalog lacks); `multi` adds the sherpa one. */
  readonly recommended: Readonly<Record<'zh' | 'en' | 'multi', readonly string[]>>;
  /** Every request the mirror answered: path and Range header (a resumed download sends one). */
  readonly requests: { readonly url: string; readonly range: string | null }[];
  close(): Promise<void>;
}

/** Name of the model the mirror serves. */
export const SERVED_MODEL = 'tiny-test';

/**
 * Serves `ggml-tiny-test.bin` — a real ggml whisper file with random weights (~8 MB, see
 * whisper-model.ts), since the manager validates the structure — in paced chunks so a progress bar shows.
 */
export async function startModelMirror(): Promise<ModelMirror & { readonly size: number }> {
  const body = fs.readFileSync(ensureRandomWhisperModel());
  const SIZE = body.length;
  const sha1 = createHash('sha1').update(body).digest('hex');
  const requests: { url: string; range: string | null }[] = [];
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', range: req.headers.range ?? null });
    if (req.url !== `/ggml-${SERVED_MODEL}.bin`) {
      res.writeHead(404).end('not found');
      return;
    }
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, { 'content-length': String(SIZE - start), ...(m ? { 'content-range': `bytes ${start}-${SIZE - 1}/${SIZE}` } : {}) });
    let at = start;
    const step = 256 * 1024;
    const pump = () => {
      if (res.destroyed) return;
      if (at >= SIZE) {
        res.end();
        return;
      }
      res.write(body.subarray(at, Math.min(SIZE, at + step)));
      at += step;
      setTimeout(pump, 40);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    size: SIZE,
    origin: `http://127.0.0.1:${port}`,
    requests,
    recommended: { zh: [SERVED_MODEL], en: [SERVED_MODEL], multi: ['sense-voice-test', SERVED_MODEL] },
    catalog: [
      { name: SERVED_MODEL, approxBytes: SIZE, sha1, englishOnly: false, quantized: false },
      { name: 'missing-test', approxBytes: 1024, sha1: '0'.repeat(40), englishOnly: true, quantized: false },
      // A sherpa-onnx folder model: its card names its own few languages, not whisper's 99.
      {
        name: 'sense-voice-test',
        approxBytes: 2048,
        sha1: null,
        englishOnly: false,
        quantized: true,
        sherpa: { family: 'sense-voice', repo: 'test/sense-voice-test', modelFile: 'model.int8.onnx', files: [], languages: ['zh', 'en', 'ja', 'ko', 'yue'] },
      },
    ],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One dialog the page asked main to show. */
export interface DialogCall {
  readonly kind: 'save' | 'open' | 'folder';
  readonly defaultName?: string;
  readonly filters?: readonly DialogFilter[];
}

/** Stand-in for Electron's dialog module (needs the Electron binary): answers queued paths, records calls. */
export interface DialogRecorder extends FileDialogs {
  readonly calls: DialogCall[];
  /** The answer of the next dialog (a path, or null for "cancelled"). */
  answerNext(path: string | null): void;
}

/** A dialog recorder; a dialog with no queued answer is "cancelled". */
export function dialogRecorder(): DialogRecorder {
  const answers: (string | null)[] = [];
  const calls: DialogCall[] = [];
  const next = async (call: DialogCall): Promise<string | null> => {
    calls.push(call);
    return answers.shift() ?? null;
  };
  return {
    calls,
    answerNext: (p) => answers.push(p),
    saveFile: (defaultName, filters) => next({ kind: 'save', defaultName, filters }),
    openFile: (filters) => next({ kind: 'open', filters }),
    openFolder: () => next({ kind: 'folder' }),
  };
}
