import { promises as fsp } from 'node:fs';
import { SerialQueue, writeFileAtomic } from './atomic-write.ts';
import { isPlainObject } from './plain.ts';

/** The part of Electron's safeStorage this module uses (injected so it runs and is tested under plain Node). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' / 'unknown' mean no real keyring (Chromium's hard-coded key). */
  getSelectedStorageBackend?(): string;
}

/** Where secrets live: encrypted by the OS keyring on disk, in memory only, or on disk in plain text by consent. */
export type SecretBackend = 'os-keyring' | 'memory' | 'plaintext-consented';

/** File name of the secret store inside the data folder. */
export const SECRETS_FILE = 'secrets.json';

/** Secret-store name of an LLM provider's API key. */
export function providerSecretName(providerId: string): string {
  return `provider:${providerId}`;
}

/** Secret-store name of the remote transcription endpoint's API key. */
export const ASR_REMOTE_SECRET = 'asr:remote';

/** Linux safeStorage backends that encrypt with a fixed key, i.e. give no protection. */
const WEAK_LINUX_BACKENDS: ReadonlySet<string> = new Set(['basic_text', 'unknown']);

/** Picks the backend: a real keyring when there is one, else plain text only with consent, else memory. */
export function chooseSecretBackend(safe: SafeStorageLike, platform: NodeJS.Platform, plaintextConsent: boolean): SecretBackend {
  let encrypted: boolean;
  try {
    encrypted = safe.isEncryptionAvailable();
    if (encrypted && platform === 'linux') {
      const b = safe.getSelectedStorageBackend?.() ?? 'unknown';
      encrypted = !WEAK_LINUX_BACKENDS.has(b);
    }
  } catch {
    encrypted = false;
  }
  if (encrypted) return 'os-keyring';
  return plaintextConsent ? 'plaintext-consented' : 'memory';
}

/** One entry as stored in secrets.json: the value's encoding and data. Entries we cannot read are kept as is. */
interface StoredEntry {
  readonly enc: 'safe-storage' | 'plain';
  readonly data: string;
}

const NAME_RE = /^[a-z][a-z0-9-]*:[A-Za-z0-9_.:-]{1,128}$/;

/** Options for SecretStore.open. */
export interface SecretStoreOptions {
  /** Usually <dataDir>/secrets.json. */
  readonly file: string;
  readonly safeStorage: SafeStorageLike;
  readonly plaintextConsent: boolean;
  readonly platform?: NodeJS.Platform;
}

/**
 * API keys (never in config.json). Values are kept in memory once read; on disk they are encrypted with the
 * OS keyring through safeStorage, or in plain text (mode 0600) only when the user consented and no keyring
 * exists, or not at all. A damaged secrets.json is reported in `loadIssues` and backed up, never a crash.
 */
export class SecretStore {
  /** Where set() puts values. */
  readonly backend: SecretBackend;
  /** Problems met while reading secrets.json. */
  readonly loadIssues: readonly string[];
  private readonly file: string;
  private readonly safe: SafeStorageLike;
  private readonly values = new Map<string, string>();
  private readonly persisted = new Set<string>();
  /** Entries on disk this session cannot decrypt (e.g. written under another keyring): carried over on save. */
  private readonly opaque = new Map<string, StoredEntry>();
  private readonly queue = new SerialQueue();

  private constructor(file: string, safe: SafeStorageLike, backend: SecretBackend, issues: readonly string[]) {
    this.file = file;
    this.safe = safe;
    this.backend = backend;
    this.loadIssues = issues;
  }

  /** Opens the store; never throws for a missing, unreadable or corrupt file. */
  static async open(opts: SecretStoreOptions): Promise<SecretStore> {
    const backend = chooseSecretBackend(opts.safeStorage, opts.platform ?? process.platform, opts.plaintextConsent);
    const issues: string[] = [];
    const store = new SecretStore(opts.file, opts.safeStorage, backend, issues);
    let text: string | null = null;
    try {
      text = await fsp.readFile(opts.file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') issues.push(`cannot read ${opts.file} (${code ?? String(err)}); saved API keys are unavailable`);
    }
    if (text === null) return store;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      doc = undefined;
      issues.push(`secrets file is corrupt (${(err as Error).message}); saved API keys must be entered again`);
    }
    const entries = isPlainObject(doc) && isPlainObject(doc.secrets) ? doc.secrets : undefined;
    if (doc !== undefined && entries === undefined) issues.push('secrets file has an unexpected shape; saved API keys must be entered again');
    if (entries === undefined) {
      await backupCorrupt(opts.file, issues);
      return store;
    }
    for (const [name, entry] of Object.entries(entries)) {
      if (!NAME_RE.test(name) || !isPlainObject(entry) || (entry.enc !== 'safe-storage' && entry.enc !== 'plain') || typeof entry.data !== 'string') {
        issues.push(`secret entry '${name.slice(0, 80)}' is malformed and was ignored`);
        continue;
      }
      const stored: StoredEntry = { enc: entry.enc, data: entry.data };
      const value = store.decode(name, stored, issues);
      if (value === undefined) {
        store.opaque.set(name, stored);
      } else {
        store.values.set(name, value);
        store.persisted.add(name);
      }
    }
    return store;
  }

  /** Whether a value for `name` is available now. */
  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The value, if available. */
  get(name: string): string | undefined {
    return this.values.get(name);
  }

  /** Stores a value (in memory, and on disk where the backend allows). */
  set(name: string, value: string): Promise<void> {
    return this.queue.run(async () => {
      checkName(name);
      if (typeof value !== 'string' || value === '') throw new Error('a secret value must be a non-empty string');
      this.values.set(name, value);
      this.opaque.delete(name);
      if (this.backend === 'memory') return;
      await this.save();
      this.persisted.add(name);
    });
  }

  /** Forgets a value (also on disk). */
  delete(name: string): Promise<void> {
    return this.queue.run(async () => {
      checkName(name);
      const wasOnDisk = this.persisted.has(name) || this.opaque.has(name);
      this.values.delete(name);
      this.opaque.delete(name);
      this.persisted.delete(name);
      if (wasOnDisk && this.backend !== 'memory') await this.save();
    });
  }

  /** The names held (never the values), and whether each is on disk. */
  list(): readonly { name: string; persisted: boolean }[] {
    return [...this.values.keys()].sort().map((name) => ({ name, persisted: this.persisted.has(name) }));
  }

  private decode(name: string, entry: StoredEntry, issues: string[]): string | undefined {
    switch (entry.enc) {
      case 'plain':
        return entry.data;
      case 'safe-storage': {
        if (this.backend !== 'os-keyring') {
          issues.push(`'${name}' is encrypted with the OS keyring, which is not available now; it stays on disk unread`);
          return undefined;
        }
        try {
          return this.safe.decryptString(Buffer.from(entry.data, 'base64'));
        } catch (err) {
          issues.push(`'${name}' could not be decrypted (${(err as Error).message}); enter it again`);
          return undefined;
        }
      }
      default: {
        const never: never = entry.enc;
        return never;
      }
    }
  }

  private encode(value: string): StoredEntry {
    switch (this.backend) {
      case 'os-keyring':
        return { enc: 'safe-storage', data: this.safe.encryptString(value).toString('base64') };
      case 'plaintext-consented':
        return { enc: 'plain', data: value };
      case 'memory':
        throw new Error('memory backend never writes secrets');
      default: {
        const never: never = this.backend;
        return never;
      }
    }
  }

  private async save(): Promise<void> {
    const secrets: Record<string, StoredEntry> = {};
    for (const [name, entry] of this.opaque) secrets[name] = entry;
    for (const [name, value] of this.values) secrets[name] = this.encode(value);
    const doc = { version: 1, secrets };
    await writeFileAtomic(this.file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
    // Values kept only in memory under this backend are now on disk too.
    for (const name of this.values.keys()) this.persisted.add(name);
  }
}

function checkName(name: string): void {
  if (!NAME_RE.test(name)) throw new Error(`invalid secret name '${String(name).slice(0, 80)}' (expected e.g. provider:openai or asr:remote)`);
}

async function backupCorrupt(file: string, issues: string[]): Promise<void> {
  const backup = `${file}.bad-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await fsp.copyFile(file, backup);
    await fsp.chmod(backup, 0o600);
    await fsp.rm(file);
    issues.push(`the damaged file was moved to ${backup}`);
  } catch (err) {
    issues.push(`could not back up the damaged secrets file (${(err as Error).message})`);
  }
}
