import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MODEL_CATALOG, RECOMMENDED_MODELS, findModel, modelRelPath, modelUrl, sherpaFileUrl, type CatalogEntry, type GgufCatalogInfo, type RecommendList } from './model-catalog.ts';
import { downloadCap, planResponse } from './model-download.ts';
import { validateModelFile, type ModelFileError } from './model-file.ts';
import { SHERPA_FAMILIES } from './sherpa-families.ts';
import { checkSherpaModel } from './sherpa-model-check.ts';
import { writeFullySync } from '../platform/write-fully.ts';

/*
 * Downloads, verifies, installs and deletes whisper models under <dataDir>/models. A download streams into
 * ggml-<name>.bin.part; an interrupted one resumes with an HTTP Range request; the SHA-1 covers the whole
 * file (the existing part is hashed first); only a verified file is renamed into place, so a half or wrong
 * download is never installed. Free disk space is checked before any byte is written, for as many bytes as the
 * download may write: it stops past the catalog size (model-download.ts `downloadCap`).
 * A sherpa-onnx model is a folder (<name>/model.int8.onnx + tokens.txt): its files download the same way
 * into <name>.partdir/, each checked against its SHA-256 when the catalog has one (null = none published:
 * accepted, said so in the catalog), then the whole folder is checked as sherpa-onnx will read it and
 * renamed into place.
 */

/** Folder under the data dir. */
export const MODELS_DIR = 'models';

/** Progress of a download (bytes include what a resumed download already had). */
export interface DownloadProgress {
  readonly name: string;
  readonly received: number;
  readonly total: number | undefined;
  readonly resumedFrom: number;
}

/** Why a download failed. */
export type DownloadErrorCode = 'unknown-model' | 'http' | 'network' | 'disk-space' | 'checksum' | 'invalid-file' | 'cancelled';

/** A failed download; nothing was installed. */
export class ModelDownloadError extends Error {
  readonly code: DownloadErrorCode;
  constructor(code: DownloadErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ModelDownloadError';
    this.code = code;
  }
}

/** An installed (or catalogued) model. */
export interface ModelListing {
  readonly name: string;
  readonly installed: boolean;
  readonly path: string;
  readonly bytes: number | undefined;
  readonly catalog: CatalogEntry | undefined;
  /** Bytes of an unfinished download waiting to be resumed. */
  readonly partialBytes: number;
  /** Per UI language, this model's place among the recommended ones (0 = first choice); absent when not recommended. */
  readonly recommended: Readonly<Partial<Record<RecommendList, number>>>;
}

/** Options of the manager. */
export interface ModelManagerOptions {
  readonly dataDir: string;
  /**
   * Base URL models are fetched from (config asr.local.models_mirror). A function is read at each download,
   * so a mirror changed in Settings or onboarding applies to the next download without a restart.
   */
  readonly mirror: string | (() => string);
  readonly catalog?: readonly CatalogEntry[];
  /** Recommended models per UI language, best first (default RECOMMENDED_MODELS; tests pass their own catalog's). */
  readonly recommended?: Readonly<Record<'zh' | 'en', readonly string[]>> & { readonly multi?: readonly string[] };
  /** Free bytes on the models volume (injectable so the check itself can be tested). */
  readonly freeBytes?: (dir: string) => number;
  /** Extra room to leave free beyond the download (default 64 MiB). */
  readonly reserveBytes?: number;
}

/** How often (in bytes written) a download re-checks that the free-space reserve is still there. */
const RECHECK_SPACE_BYTES = 64 * 1024 * 1024;

function statfsFree(dir: string): number {
  const s = fs.statfsSync(dir);
  return Number(s.bavail) * Number(s.bsize);
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Models on disk and their downloads. */
export class ModelManager {
  readonly dir: string;
  private readonly opts: ModelManagerOptions;
  private readonly catalog: readonly CatalogEntry[];

  constructor(opts: ModelManagerOptions) {
    this.opts = opts;
    this.dir = path.join(opts.dataDir, MODELS_DIR);
    this.catalog = opts.catalog ?? MODEL_CATALOG;
  }

  /** Where `name` is (or would be) installed. */
  pathOf(name: string): string {
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) throw new ModelDownloadError('unknown-model', `bad model name '${name}'`);
    return path.join(this.dir, modelRelPath(name, this.catalog));
  }

  /** Staging folder of a sherpa model's download. */
  private stageOf(name: string): string {
    return path.join(this.dir, `${name}.partdir`);
  }

  private partialBytesOf(name: string, file: string): number {
    if (findModel(name, this.catalog)?.sherpa === undefined) return sizeOf(`${file}.part`); // whisper and GGUF: one part file
    let n = 0;
    try {
      for (const f of fs.readdirSync(this.stageOf(name))) n += sizeOf(path.join(this.stageOf(name), f));
    } catch {
      // no download started
    }
    return n;
  }

  /** Catalogue models plus any other ggml-*.bin found in the folder. */
  list(): ModelListing[] {
    let files: string[] = [];
    try {
      files = fs.readdirSync(this.dir);
    } catch {
      // no folder yet: nothing installed
    }
    const names = new Set(this.catalog.map((e) => e.name));
    for (const f of files) {
      const m = /^ggml-(.+)\.bin$/.exec(f);
      if (m?.[1] !== undefined) names.add(m[1]);
    }
    const recommended = this.opts.recommended ?? RECOMMENDED_MODELS;
    return [...names].map((name) => {
      const p = this.pathOf(name);
      const installed = fs.existsSync(p);
      const rank: Partial<Record<RecommendList, number>> = {};
      for (const l of ['zh', 'en', 'multi'] as const) {
        const list = recommended[l] ?? [];
        if (list.includes(name)) rank[l] = list.indexOf(name);
      }
      return { name, installed, path: p, bytes: installed ? sizeOf(p) : undefined, catalog: findModel(name, this.catalog), partialBytes: this.partialBytesOf(name, p), recommended: rank };
    });
  }

  /** Deletes an installed model and any partial download; returns true when something was removed. */
  delete(name: string): boolean {
    const p = this.pathOf(name);
    if (findModel(name, this.catalog)?.sherpa !== undefined) {
      const folder = path.join(this.dir, name);
      const existed = fs.existsSync(folder) || fs.existsSync(this.stageOf(name));
      fs.rmSync(folder, { recursive: true, force: true });
      fs.rmSync(this.stageOf(name), { recursive: true, force: true });
      return existed;
    }
    const existed = fs.existsSync(p) || fs.existsSync(`${p}.part`);
    fs.rmSync(p, { force: true });
    fs.rmSync(`${p}.part`, { force: true });
    return existed;
  }

  private checkSpace(need: number): void {
    const free = (this.opts.freeBytes ?? statfsFree)(this.dir);
    const reserve = this.opts.reserveBytes ?? 64 * 1024 * 1024;
    if (free < need + reserve) {
      throw new ModelDownloadError('disk-space', `not enough disk space in ${this.dir}: need ${(need / 1e6).toFixed(0)} MB (+${(reserve / 1e6).toFixed(0)} MB reserve), ${(free / 1e6).toFixed(0)} MB free`);
    }
  }

  /** Downloads (or resumes), verifies and installs `name`; resolves with the installed path. */
  async download(name: string, o: { onProgress?: (p: DownloadProgress) => void; signal?: AbortSignal } = {}): Promise<string> {
    const entry = findModel(name, this.catalog);
    if (entry === undefined) throw new ModelDownloadError('unknown-model', `unknown model '${name}' (see: tingxie models list)`);
    fs.mkdirSync(this.dir, { recursive: true });
    const mirror = typeof this.opts.mirror === 'function' ? this.opts.mirror() : this.opts.mirror;
    if (entry.sherpa !== undefined) return this.downloadFolder(entry, mirror, o);
    if (entry.gguf !== undefined) return this.downloadGguf(entry, entry.gguf, mirror, o);
    const dest = this.pathOf(name);
    const part = `${dest}.part`;
    await this.fetchPart(modelUrl(mirror, name), part, entry.approxBytes, (received, total, resumedFrom) => o.onProgress?.({ name, received, total, resumedFrom }), o.signal);
    return this.install(entry, part, dest);
  }

  /** A sherpa model: each file into the staging folder, then the folder checked and renamed into place. */
  private async downloadFolder(entry: CatalogEntry, mirror: string, o: { onProgress?: (p: DownloadProgress) => void; signal?: AbortSignal }): Promise<string> {
    const info = entry.sherpa;
    if (info === undefined) throw new ModelDownloadError('unknown-model', `${entry.name} is not a sherpa-onnx model`);
    const stage = this.stageOf(entry.name);
    fs.mkdirSync(stage, { recursive: true });
    const resumedFrom = this.partialBytesOf(entry.name, '');
    let done = 0;
    for (const f of info.files) {
      const file = path.join(stage, f.file);
      if (!fs.existsSync(file)) {
        await this.fetchPart(sherpaFileUrl(mirror, info, f.file), `${file}.part`, f.approxBytes, (received) => o.onProgress?.({ name: entry.name, received: done + received, total: entry.approxBytes, resumedFrom }), o.signal);
        if (f.sha256 !== null) {
          const got = await hashFile(`${file}.part`, 'sha256');
          if (got !== f.sha256.toLowerCase()) {
            fs.rmSync(`${file}.part`, { force: true });
            throw new ModelDownloadError('checksum', `checksum mismatch for ${entry.name}/${f.file}: got ${got}, expected ${f.sha256}; the download was discarded`);
          }
        }
        fs.renameSync(`${file}.part`, file);
      }
      done += sizeOf(file);
    }
    try {
      checkSherpaModel(SHERPA_FAMILIES[info.family].spec, path.join(stage, info.modelFile), path.join(stage, 'tokens.txt'));
    } catch (err) {
      fs.rmSync(stage, { recursive: true, force: true });
      throw new ModelDownloadError('invalid-file', `${entry.name} is not a usable ${info.family} model: ${(err as Error).message}`, err);
    }
    const folder = path.join(this.dir, entry.name);
    fs.rmSync(folder, { recursive: true, force: true });
    fs.renameSync(stage, folder);
    return this.pathOf(entry.name);
  }

  /**
   * A GGUF model of the built-in LLM engine: one file from its Hugging Face repository (under the mirror's
   * host), into llm/<file>.part. Its catalog size is approximate (the pages round it), so the download is
   * bounded by the length the server announces (approxBytes 0 to `fetchPart`), not by the catalog; the file
   * must then match its SHA-256 when the catalog has one and start with the GGUF magic
   * (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md, "File Structure"), else it is discarded.
   */
  private async downloadGguf(entry: CatalogEntry, info: GgufCatalogInfo, mirror: string, o: { onProgress?: (p: DownloadProgress) => void; signal?: AbortSignal }): Promise<string> {
    const dest = this.pathOf(entry.name);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    const part = `${dest}.part`;
    this.checkSpace(Math.max(0, entry.approxBytes - sizeOf(part)));
    await this.fetchPart(sherpaFileUrl(mirror, info, info.file), part, 0, (received, total, resumedFrom) => o.onProgress?.({ name: entry.name, received, total, resumedFrom }), o.signal);
    const discard = (code: DownloadErrorCode, message: string): never => {
      fs.rmSync(part, { force: true });
      throw new ModelDownloadError(code, message);
    };
    if (info.sha256 !== null) {
      const got = await hashFile(part, 'sha256');
      if (got !== info.sha256.toLowerCase()) discard('checksum', `checksum mismatch for ${entry.name}: got ${got}, expected ${info.sha256}; the download was discarded (is the mirror serving the right file?)`);
    }
    if (!isGguf(part)) discard('invalid-file', `${entry.name} is not a GGUF model (the file does not start with "GGUF"); the download was discarded`);
    fs.renameSync(part, dest);
    return dest;
  }

  /**
   * Streams `url` into `part`, resuming from what it holds; reports (received, total, resumedFrom). The part
   * never grows past `downloadCap` (model-download.ts): the free-space check before the request asks for
   * room up to that cap, so the one check covers every byte this download may write; the reserve is still
   * re-checked every `RECHECK_SPACE_BYTES` in case something else fills the volume meanwhile.
   */
  private async fetchPart(url: string, part: string, approxBytes: number, progress: (received: number, total: number | undefined, resumedFrom: number) => void, signal: AbortSignal | undefined): Promise<void> {
    const catalogBytes = approxBytes > 0 ? approxBytes : undefined;
    let have = sizeOf(part);
    if (have > downloadCap(catalogBytes, undefined)) {
      fs.rmSync(part, { force: true }); // not a prefix of this model: start over
      have = 0;
    }
    if (catalogBytes !== undefined) this.checkSpace(Math.max(0, downloadCap(catalogBytes, undefined) - have));
    let res: Response;
    try {
      res = await fetch(url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, ...(signal ? { signal } : {}) });
    } catch (err) {
      throw signal?.aborted ? new ModelDownloadError('cancelled', 'download cancelled', err) : new ModelDownloadError('network', `cannot reach ${url}: ${(err as Error).message}`, err);
    }
    if (res.status === 416 && have > 0) {
      // The part is already whole (or the server disagrees about it): verify what we have.
      await res.body?.cancel();
      return;
    }
    const plan = planResponse({ status: res.status, contentRange: res.headers.get('content-range'), contentLength: res.headers.get('content-length') }, have, catalogBytes);
    if (plan.kind === 'refuse') {
      await res.body?.cancel();
      throw new ModelDownloadError('http', `download of ${url} failed: ${plan.reason}`);
    }
    const total = plan.total;
    const cap = downloadCap(catalogBytes, total);
    try {
      if (total !== undefined && total > cap) throw new ModelDownloadError('http', `download of ${url} refused: the server announces ${total} bytes, more than the ${cap} this model can be`);
      if (catalogBytes === undefined) this.checkSpace(Math.max(0, (total ?? 0) - plan.offset));
    } catch (err) {
      await res.body?.cancel();
      throw err;
    }
    // Offset 0 truncates: a server that ignored Range sends the whole file, which must not be appended.
    const fd = fs.openSync(part, plan.offset > 0 ? 'a' : 'w');
    let received = plan.offset;
    let lastEmit = 0;
    let nextSpaceCheck = received + RECHECK_SPACE_BYTES;
    let tooLarge = false;
    const resumedFrom = plan.offset;
    const emit = (force: boolean): void => {
      const now = Date.now();
      if (!force && now - lastEmit < 100) return;
      lastEmit = now;
      progress(received, total, resumedFrom);
    };
    try {
      emit(true);
      if (res.body === null) throw new ModelDownloadError('network', `empty response from ${url}`);
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (received + chunk.length > cap) {
          tooLarge = true;
          throw new ModelDownloadError('http', `download of ${url} stopped: the server sent more than ${cap} bytes, more than this model can be; the download was discarded`);
        }
        writeFullySync(fd, chunk);
        received += chunk.length;
        if (received >= nextSpaceCheck) {
          this.checkSpace(0);
          nextSpaceCheck = received + RECHECK_SPACE_BYTES;
        }
        emit(false);
      }
      fs.fsyncSync(fd);
    } catch (err) {
      // Leaving the loop by a throw cancels the body (the stream iterator's return()).
      if (err instanceof ModelDownloadError) throw err;
      // The part file stays: the next download resumes from it.
      throw signal?.aborted
        ? new ModelDownloadError('cancelled', 'download cancelled; it resumes next time', err)
        : new ModelDownloadError('network', `download of ${url} was interrupted at ${received} bytes; run it again to resume`, err);
    } finally {
      fs.closeSync(fd);
      // Too large: what was written is not this model, so no later download may resume from it.
      if (tooLarge) fs.rmSync(part, { force: true });
    }
    emit(true);
    if (total !== undefined && received < total) {
      throw new ModelDownloadError('network', `download of ${url} ended early (${received} of ${total} bytes); run it again to resume`);
    }
  }

  /** Verifies the part file against the catalog and renames it into place; deletes it when it is wrong. */
  private async install(entry: CatalogEntry, part: string, dest: string): Promise<string> {
    const sha1 = await hashFile(part, 'sha1');
    if (sha1 !== entry.sha1?.toLowerCase()) {
      fs.rmSync(part, { force: true });
      throw new ModelDownloadError('checksum', `checksum mismatch for ${entry.name}: got ${sha1}, expected ${entry.sha1}; the download was discarded (is the mirror serving the right file?)`);
    }
    try {
      validateModelFile(part);
    } catch (err) {
      fs.rmSync(part, { force: true });
      throw new ModelDownloadError('invalid-file', `${entry.name} is not a usable whisper model: ${(err as ModelFileError).message}`, err);
    }
    fs.renameSync(part, dest);
    return dest;
  }
}

function isGguf(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const magic = Buffer.alloc(4);
    return fs.readSync(fd, magic, 0, 4, 0) === 4 && magic.toString('latin1') === 'GGUF';
  } finally {
    fs.closeSync(fd);
  }
}

async function hashFile(file: string, algorithm: 'sha1' | 'sha256'): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
