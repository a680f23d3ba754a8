import { promises as fsp } from 'node:fs';
import { rememberSecret } from '../../shared/redact.ts';
import type { KeyMismatch } from '../../shared/secret-names.ts';
import { SerialQueue, writeFileAtomic } from './atomic-write.ts';
import { writePrivateBackup } from './backups.ts';
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
  /** The server origin (scheme://host:port) the key was entered for; it is sent nowhere else. */
  readonly origin?: string;
}

/** Where a key may be sent now: the origin its service points to (undefined = not configured, no check). */
export type OriginResolver = (name: string) => string | undefined;

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
  /** Origin each key is bound to (see bindOrigins). */
  private readonly origins = new Map<string, string>();
  /** Keys kept on disk in plain text although the backend would not write them (adopted from config.json). */
  private readonly plainOnDisk = new Set<string>();
  private originOf: OriginResolver | undefined;
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
      const origin = typeof entry.origin === 'string' && entry.origin !== '' ? entry.origin : undefined;
      const stored: StoredEntry = { enc: entry.enc, data: entry.data, ...(origin === undefined ? {} : { origin }) };
      const value = store.decode(name, stored, issues);
      if (value === undefined) {
        store.opaque.set(name, stored);
      } else {
        store.values.set(name, value);
        store.persisted.add(name);
        if (origin !== undefined) store.origins.set(name, origin);
        if (stored.enc === 'plain') store.plainOnDisk.add(name);
        // Every key held is removed from logs, journal entries and error messages from now on.
        rememberSecret(value);
      }
    }
    return store;
  }

  /** Whether anything is stored under `name`, readable now or not (an entry of another keyring counts). */
  holds(name: string): boolean {
    return this.values.has(name) || this.opaque.has(name);
  }

  /** Whether a value for `name` is available now. */
  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The value, if available and bound to the origin its service points to now (never sent to another server). */
  get(name: string): string | undefined {
    return this.mismatch(name) === undefined ? this.values.get(name) : undefined;
  }

  /** Set when the key was entered for another origin than its service's current one: the user must enter it again. */
  mismatch(name: string): KeyMismatch | undefined {
    const savedFor = this.origins.get(name);
    const now = this.originOf?.(name);
    return savedFor !== undefined && now !== undefined && savedFor !== now && this.values.has(name) ? { savedFor, now } : undefined;
  }

  /**
   * Binds keys to the origin their service points to (`originOf`, read from the config each time). Keys
   * stored before binding existed are bound to the current origin now (a one-time migration, saved).
   */
  bindOrigins(originOf: OriginResolver): Promise<void> {
    return this.queue.run(async () => {
      this.originOf = originOf;
      let changed = false;
      for (const name of this.values.keys()) {
        const origin = originOf(name);
        if (origin !== undefined && !this.origins.has(name)) {
          this.origins.set(name, origin);
          changed = this.persisted.has(name) || changed;
        }
      }
      if (changed) await this.save();
    });
  }

  /** Stores a value (in memory, and on disk where the backend allows), bound to its service's current origin. */
  set(name: string, value: string): Promise<void> {
    return this.queue.run(async () => {
      this.put(name, value);
      if (this.backend === 'memory') {
        // Memory means memory: a plain copy of the old value left on disk is removed, the new one is not written.
        if (this.plainOnDisk.delete(name)) {
          await this.save();
          this.persisted.delete(name);
        }
        return;
      }
      this.plainOnDisk.delete(name);
      await this.save();
      this.persisted.add(name);
    });
  }

  /**
   * Takes over a key that was found in plain text on disk (config.json): stored like `set`, except that
   * without a keyring or consent it is still written, in plain text to the 0600 secrets.json, because
   * keeping it only in memory would lose it once config.json is rewritten. The app encrypts it with the
   * OS keyring at the next save when one is available. Rejects when the file cannot be written.
   */
  adopt(name: string, value: string): Promise<void> {
    return this.queue.run(async () => {
      this.put(name, value);
      if (this.backend === 'memory') this.plainOnDisk.add(name);
      await this.save();
      this.persisted.add(name);
    });
  }

  private put(name: string, value: string): void {
    checkName(name);
    if (typeof value !== 'string' || value === '') throw new Error('a secret value must be a non-empty string');
    this.values.set(name, value);
    this.opaque.delete(name);
    const origin = this.originOf?.(name);
    if (origin === undefined) this.origins.delete(name);
    else this.origins.set(name, origin);
    rememberSecret(value);
  }

  /** Forgets a value (also on disk). */
  delete(name: string): Promise<void> {
    return this.queue.run(async () => {
      checkName(name);
      const wasOnDisk = this.persisted.has(name) || this.opaque.has(name);
      this.values.delete(name);
      this.opaque.delete(name);
      this.persisted.delete(name);
      this.origins.delete(name);
      this.plainOnDisk.delete(name);
      // Under the memory backend the file can still hold adopted plain keys and opaque entries: rewrite it too.
      if (wasOnDisk) await this.save();
    });
  }

  /** The names held (never the values), whether each is on disk, and `savedFor` when it must be entered again for a new origin. */
  list(): readonly { name: string; persisted: boolean; savedFor?: string }[] {
    return [...this.values.keys()].sort().map((name) => {
      const m = this.mismatch(name);
      return { name, persisted: this.persisted.has(name), ...(m === undefined ? {} : { savedFor: m.savedFor }) };
    });
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

  private encode(name: string, value: string): StoredEntry | undefined {
    const origin = this.origins.get(name);
    const at = origin === undefined ? {} : { origin };
    if (this.plainOnDisk.has(name) && this.backend !== 'os-keyring') return { enc: 'plain', data: value, ...at };
    switch (this.backend) {
      case 'os-keyring':
        return { enc: 'safe-storage', data: this.safe.encryptString(value).toString('base64'), ...at };
      case 'plaintext-consented':
        return { enc: 'plain', data: value, ...at };
      case 'memory':
        // Values entered this session stay in memory; only keys already on disk (plainOnDisk) are written.
        return undefined;
      default: {
        const never: never = this.backend;
        return never;
      }
    }
  }

  private async save(): Promise<void> {
    const secrets: Record<string, StoredEntry> = {};
    for (const [name, entry] of this.opaque) secrets[name] = entry;
    const written: string[] = [];
    for (const [name, value] of this.values) {
      const entry = this.encode(name, value);
      if (entry === undefined) continue;
      secrets[name] = entry;
      written.push(name);
    }
    const doc = { version: 1, secrets };
    await writeFileAtomic(this.file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
    // Values kept only in memory under this backend are now on disk too; a keyring save encrypted the plain ones.
    for (const name of written) this.persisted.add(name);
    if (this.backend === 'os-keyring') this.plainOnDisk.clear();
  }
}

function checkName(name: string): void {
  if (!NAME_RE.test(name)) throw new Error(`invalid secret name '${String(name).slice(0, 80)}' (expected e.g. provider:openai or asr:remote)`);
}

async function backupCorrupt(file: string, issues: string[]): Promise<void> {
  try {
    // Still key material (maybe readable in part): private from its first byte, and only the newest few kept.
    const backup = await writePrivateBackup(file, 'bad', await fsp.readFile(file));
    await fsp.rm(file);
    issues.push(`the damaged file was moved to ${backup}`);
  } catch (err) {
    issues.push(`could not back up the damaged secrets file (${(err as Error).message})`);
  }
}
