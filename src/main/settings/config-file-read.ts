/**
 * Reading config.json's bytes without trusting the file (its size checked on the open handle, text only
 * when it is valid UTF-8) and the backup copy with every key taken out.
 */
import { promises as fsp } from 'node:fs';
import { redact } from '../../shared/redact.ts';
import type { FoundSecret } from './config-repair.ts';
import { MAX_CONFIG_BYTES } from './jsonc.ts';

/** A config.json larger than MAX_CONFIG_BYTES (found by its size, before reading). */
export class OversizedConfigError extends Error {
  readonly size: number;
  constructor(size: number) {
    super(`config.json is ${size} bytes`);
    this.size = size;
  }
}

/** Reads a file after checking its size on the open handle (so a file swapped in between cannot slip past). */
export async function readLimited(file: string): Promise<Buffer> {
  const fh = await fsp.open(file, 'r');
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw Object.assign(new Error(`${file} is not a file`), { code: st.isDirectory() ? 'EISDIR' : 'EINVAL' });
    if (st.size > MAX_CONFIG_BYTES) throw new OversizedConfigError(st.size);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/** UTF-8 text without a BOM, or null when the bytes are not text (binary garbage). */
export function decodeText(bytes: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  if (text.includes('\u0000')) return null;
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The backup's bytes with every key removed: the found ones (as written, JSON-escaped or not) and anything
 * shaped like a credential. Binary content (not UTF-8) is kept as it is: no key could be read from it.
 */
export function withoutSecrets(bytes: Buffer, found: readonly FoundSecret[]): Buffer {
  const text = decodeText(bytes);
  if (text === null) return bytes;
  let clean = text;
  for (const f of found) {
    // As a JSON value (`: "…"`): a short key such as WenZi's "ollama" must not take the provider id with it.
    const quoted = JSON.stringify(f.value);
    clean = clean.split(/(:\s*)/).map((part, i, all) => (i > 0 && /^:\s*$/.test(all[i - 1] ?? '') && part.startsWith(quoted) ? `"***"${part.slice(quoted.length)}` : part)).join('');
  }
  // Long keys anywhere (inside a URL…), and anything shaped like a credential.
  clean = redact(clean, found.map((f) => f.value).filter((v) => v.length >= 10));
  return clean === text ? bytes : Buffer.from(clean, 'utf8');
}
