import { promises as fsp } from 'node:fs';
import type { z } from 'zod';
import path from 'node:path';
import { redact } from '../../shared/redact.ts';
import { writeFileAtomic, SerialQueue } from './atomic-write.ts';
import { pruneBackups, writePrivateBackup } from './backups.ts';
import { configSchema, isSecretKeyName, type Config } from '../../shared/config/config-schema.ts';
import { mergePreserving, repairConfig, type ConfigIssue, type FoundSecret } from './config-repair.ts';
import { MAX_CONFIG_BYTES, parseJsonc } from './jsonc.ts';
import { decodeText, OversizedConfigError, readLimited, withoutSecrets } from './config-file-read.ts';
import { getPath, joinPath, parseKeyPath, schemaAt, setPath } from './key-path.ts';
import { cloneJson, deepFreeze, isPlainObject } from './plain.ts';

export type { Config } from '../../shared/config/config-schema.ts';
export type { ConfigIssue, FoundSecret } from './config-repair.ts';

/** A zod issue as plain data: its message plus the code and bounds the Settings window translates. */
function issueDetail(i: z.core.$ZodIssue): Omit<ConfigIssue, 'path'> {
  const base = { message: i.message, code: i.code };
  if (i.code === 'too_small' || i.code === 'too_big') {
    const limit = Number(i.code === 'too_small' ? i.minimum : i.maximum);
    return { ...base, origin: i.origin, ...(Number.isFinite(limit) ? { limit } : {}), inclusive: i.inclusive !== false };
  }
  if (i.code === 'invalid_type') return { ...base, expected: i.expected };
  return base;
}

/** Thrown by getAt/set for an unknown key path or a value the schema rejects. */
export class ConfigValidationError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(message: string, issues: readonly ConfigIssue[]) {
    super(message);
    this.name = 'ConfigValidationError';
    this.issues = issues;
  }
}

/** Payload of a change event. */
export interface ConfigChange {
  readonly keyPath: string;
  readonly config: Config;
}

/**
 * Takes API keys found in config.json into the secret store (resolves once they are safely stored; rejects
 * otherwise). Given the repaired config, e.g. for the plain-text consent setting.
 */
export type KeepSecrets = (found: readonly FoundSecret[], config: Config) => Promise<void>;

/** The file name of the config inside the data folder. */
export const CONFIG_FILE = 'config.json';

/** Loads, validates, repairs and saves `<dataDir>/config.json`; see docs on `open`. */
export class ConfigStore {
  /** <dataDir>/config.json */
  readonly path: string;
  /** Fields that fell back to their defaults at load (plus file-level problems, path ''). */
  readonly loadIssues: readonly ConfigIssue[];
  /** Where the original file was copied before it was rewritten (bad, migrated or holding API keys), if it was. */
  readonly backupPath: string | null;
  /** API keys found in config.json at load; the app moves them into the SecretStore. */
  readonly foundSecrets: readonly FoundSecret[];

  /** API keys in config.json that could not be moved to the secret store: saving would drop them, so set() refuses. */
  readonly secretsPending: boolean;

  private config: Config;
  private raw: Record<string, unknown>;
  private readonly listeners = new Set<(e: ConfigChange) => void>();
  private readonly queue = new SerialQueue();

  private constructor(init: {
    path: string; config: Config; raw: Record<string, unknown>; issues: readonly ConfigIssue[];
    backupPath: string | null; foundSecrets: readonly FoundSecret[]; secretsPending?: boolean;
  }) {
    this.secretsPending = init.secretsPending ?? false;
    this.path = init.path;
    this.config = deepFreeze(init.config);
    this.raw = init.raw;
    this.loadIssues = deepFreeze([...init.issues]);
    this.backupPath = init.backupPath;
    this.foundSecrets = deepFreeze([...init.foundSecrets]);
  }

  /**
   * Opens the store. Never throws for a bad file: a missing file gives the defaults (and is created), an
   * unreadable or unparseable one gives the defaults, a mangled one keeps every good field; each fallback is
   * listed in `loadIssues`, and before a damaged, older-version or key-holding file is rewritten its exact
   * bytes are copied to `config.json.bad-<time>` (or `.pre-v<N>-<time>` for a plain migration; mode 0600,
   * the newest 3 of each kind kept). API keys found in the file are first handed to `keepSecrets` (the
   * secret store) and removed from the backup; without `keepSecrets`, or when it fails, a file holding keys
   * is left exactly as it is (nothing backed up or rewritten), so a key is never lost nor copied.
   * `readOnly` loads and repairs in memory only (nothing created, backed up or rewritten).
   */
  static async open(opts: { readonly dataDir: string; readonly readOnly?: boolean; readonly keepSecrets?: KeepSecrets }): Promise<ConfigStore> {
    const file = path.join(opts.dataDir, CONFIG_FILE);
    const issues: ConfigIssue[] = [];
    let bytes: Buffer | null = null;
    try {
      bytes = await readLimited(file);
    } catch (err) {
      if (err instanceof OversizedConfigError) {
        // Never read: a 200 MB file once took a gigabyte to load. Moved aside whole (a rename, no copy).
        return ConfigStore.oversized(file, err.size, opts.readOnly === true);
      }
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') issues.push({ path: '', message: `cannot read ${file} (${code ?? String(err)}): using defaults, the file is left alone` });
    }
    const unreadable = bytes === null && issues.length > 0;

    let doc: unknown = undefined;
    let damaged = false;
    if (bytes !== null) {
      const text = decodeText(bytes);
      if (text === null) {
        issues.push({ path: '', message: 'config.json is not UTF-8 text: every setting uses its default' });
        damaged = true;
      } else {
        const parsed = parseJsonc(text);
        for (const k of parsed.droppedKeys) issues.push({ path: k, message: 'reserved key name ignored' });
        if (parsed.errors.length > 0) {
          damaged = true;
          const usable = isPlainObject(parsed.value);
          issues.push({
            path: '',
            message: `config.json is damaged (${parsed.errors.slice(0, 3).join('; ')})${usable ? ': the readable settings are kept, the rest use defaults' : ': every setting uses its default'}`,
          });
          doc = usable ? parsed.value : undefined;
        } else {
          doc = parsed.value;
        }
        if (parsed.droppedKeys.length > 0) damaged = true;
      }
    }

    const repaired = repairConfig(doc);
    issues.push(...repaired.issues);
    const store = new ConfigStore({ path: file, config: repaired.config, raw: repaired.raw, issues, backupPath: null, foundSecrets: repaired.foundSecrets });
    // Never overwrite what could not be read (EACCES, a directory…); read-only callers (CLI `config get`) write nothing.
    if (unreadable || opts.readOnly === true) return store;

    if (repaired.foundSecrets.length > 0) {
      // The keys go to the secret store before anything is copied or rewritten: a failure here leaves the file as it is.
      const kept = await keepFoundSecrets(opts.keepSecrets, repaired.foundSecrets, repaired.config);
      if (kept !== null) {
        return store.clone({
          secretsPending: true,
          issues: [...store.loadIssues, { path: '', message: `config.json holds API keys that could not be moved to the secret store (${kept}); the file is left as it is` }],
        });
      }
    }
    const bad = damaged || issues.length > 0;
    const needsWrite = bytes === null || bad || repaired.migrated;
    let backupPath: string | null = null;
    if (bytes !== null && needsWrite) {
      const tag = bad ? 'bad' : `pre-v${repaired.config.version}`;
      try {
        backupPath = await writePrivateBackup(file, tag, withoutSecrets(bytes, repaired.foundSecrets));
      } catch (err) {
        // Without a backup the original must not be replaced: run on the repaired values in memory only.
        return store.withIssue({ path: '', message: `could not back up config.json (${(err as Error).message}); repaired settings are used but not saved` });
      }
    }
    const withBackup = backupPath === null ? store : store.withBackup(backupPath);
    if (needsWrite) {
      try {
        await withBackup.writeNow();
      } catch (err) {
        return withBackup.withIssue({ path: '', message: `could not write ${file} (${(err as Error).message}); settings are used but not saved` });
      }
    }
    return withBackup;
  }

  /**
   * The store for a config.json over MAX_CONFIG_BYTES: every setting at its default, and the file renamed
   * to `config.json.bad-<time>` (its exact bytes, mode 0600) so the next save cannot overwrite it.
   */
  private static async oversized(file: string, size: number, readOnly: boolean): Promise<ConfigStore> {
    const repaired = repairConfig(undefined);
    const mb = (size / 1048576).toFixed(1);
    const base = { path: file, config: repaired.config, raw: repaired.raw, foundSecrets: [] as FoundSecret[] };
    if (readOnly) {
      return new ConfigStore({ ...base, backupPath: null, issues: [{ path: '', message: `config.json is ${mb} MB, over the ${MAX_CONFIG_BYTES / 1048576} MB limit: not read, every setting uses its default` }] });
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const aside = `${file}.bad-${stamp}`;
    try {
      await fsp.rename(file, aside);
      await fsp.chmod(aside, 0o600).catch(() => undefined);
      await pruneBackups(file, 'bad');
    } catch (err) {
      return new ConfigStore({ ...base, backupPath: null, issues: [{ path: '', message: `config.json is ${mb} MB, over the limit, and could not be moved aside (${(err as Error).message}): every setting uses its default, nothing is saved over it` }] });
    }
    const store = new ConfigStore({ ...base, backupPath: aside, issues: [{ path: '', message: `config.json was ${mb} MB, over the ${MAX_CONFIG_BYTES / 1048576} MB limit: it was not read and is kept as ${path.basename(aside)}; every setting uses its default` }] });
    try {
      await store.writeNow();
    } catch (err) {
      return store.withIssue({ path: '', message: `could not write ${file} (${(err as Error).message}); settings are used but not saved` });
    }
    return store;
  }

  /** A deep-frozen snapshot of the whole config. */
  get(): Config {
    return this.config;
  }

  /** The value at a key path (e.g. 'ai_enhance.conversation_history.max_entries'); throws for an unknown key. */
  getAt(keyPath: string): unknown {
    const segs = checkKeyPath(keyPath);
    return getPath(this.config, segs);
  }

  /**
   * Validates and saves one setting. The whole config is re-validated with the new value (so cross-field
   * rules apply), saved atomically after any save already in flight, then listeners are told.
   */
  set(keyPath: string, value: unknown): Promise<Config> {
    return this.queue.run(async () => {
      if (this.secretsPending) {
        throw new ConfigValidationError('config.json holds API keys that are not in the secret store yet; saving now would lose them. Start Tingxie once (it moves them), then try again', [
          { path: '', message: 'API keys in config.json not moved yet' },
        ]);
      }
      const secretPath = findSecretKey(undefined, keyPath.split('.'));
      if (secretPath !== null) {
        throw new ConfigValidationError(`'${keyPath}' would store a secret in config.json: enter the key in Settings → API key, which keeps it in the secret store`, [
          { path: keyPath, message: 'secrets are never stored in config.json' },
        ]);
      }
      const segs = checkKeyPath(keyPath);
      const json = toJsonValue(keyPath, value);
      const secret = findSecretKey(json, segs);
      if (secret !== null) {
        throw new ConfigValidationError(`'${secret}' would store a secret in config.json: enter the key in Settings → API key, which keeps it in the secret store`, [
          { path: secret, message: 'secrets are never stored in config.json' },
        ]);
      }
      const candidate = cloneJson(this.raw);
      setPath(candidate, segs, json);
      const parsed = configSchema.safeParse(candidate);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: joinPath(i.path), ...issueDetail(i) }));
        const text = issues.map((i) => (i.path === keyPath ? i.message : `${i.path}: ${i.message}`)).join('; ');
        throw new ConfigValidationError(`invalid value for ${keyPath}: ${text}`, issues);
      }
      const nextConfig = deepFreeze(parsed.data);
      const doc = mergePreserving(candidate, nextConfig) as Record<string, unknown>;
      await writeFileAtomic(this.path, serialize(doc));
      this.raw = doc;
      this.config = nextConfig;
      this.emit({ keyPath, config: nextConfig });
      return nextConfig;
    });
  }

  /** Subscribes to saved changes; returns the unsubscribe function. */
  onChange(listener: (e: ConfigChange) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit(e: ConfigChange): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        // A faulty listener must not undo a save that already happened or starve the other listeners.
        console.error('config change listener failed:', err);
      }
    }
  }

  private writeNow(): Promise<void> {
    return this.queue.run(async () => {
      // From now on the raw document is what the file holds, so later saves keep its key order.
      const doc = mergePreserving(this.raw, this.config) as Record<string, unknown>;
      await writeFileAtomic(this.path, serialize(doc));
      this.raw = doc;
    });
  }

  private withBackup(backupPath: string): ConfigStore {
    return this.clone({ backupPath });
  }

  private withIssue(issue: ConfigIssue): ConfigStore {
    return this.clone({ issues: [...this.loadIssues, issue] });
  }

  private clone(over: { backupPath?: string; issues?: readonly ConfigIssue[]; secretsPending?: boolean }): ConfigStore {
    return new ConfigStore({
      path: this.path, config: this.config, raw: this.raw, issues: over.issues ?? this.loadIssues,
      backupPath: over.backupPath ?? this.backupPath, foundSecrets: this.foundSecrets, secretsPending: over.secretsPending ?? this.secretsPending,
    });
  }
}

function checkKeyPath(keyPath: string): readonly string[] {
  let segs: readonly string[];
  try {
    segs = parseKeyPath(keyPath);
  } catch (err) {
    throw new ConfigValidationError((err as Error).message, [{ path: keyPath, message: (err as Error).message }]);
  }
  if (schemaAt(configSchema, segs) === undefined) {
    throw new ConfigValidationError(`unknown setting '${keyPath}'`, [{ path: keyPath, message: 'unknown setting' }]);
  }
  return segs;
}

/** Copies a value through JSON so only plain data is stored; refuses what JSON cannot hold faithfully. */
function toJsonValue(keyPath: string, value: unknown): unknown {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
    throw new ConfigValidationError(`invalid value for ${keyPath}: not JSON data`, [{ path: keyPath, message: 'not JSON data' }]);
  }
  const text = JSON.stringify(value);
  const parsed = parseJsonc(text); // drops __proto__-style keys the same way loading does
  if (parsed.droppedKeys.length > 0) {
    throw new ConfigValidationError(`invalid value for ${keyPath}: reserved key name`, parsed.droppedKeys.map((k) => ({ path: `${keyPath}.${k}`, message: 'reserved key name' })));
  }
  return parsed.value;
}

function findSecretKey(value: unknown, at: readonly string[]): string | null {
  const last = at[at.length - 1];
  if (last !== undefined && isSecretKeyName(last)) return joinPath(at);
  if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      const hit = findSecretKey(v, [...at, k]);
      if (hit !== null) return hit;
    }
  }
  return null;
}

function serialize(doc: Record<string, unknown>): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Runs keepSecrets; null when the keys are stored, else why not. */
async function keepFoundSecrets(keep: KeepSecrets | undefined, found: readonly FoundSecret[], config: Config): Promise<string | null> {
  if (keep === undefined) return 'no secret store is open here';
  try {
    await keep(found, config);
    return null;
  } catch (err) {
    return redact((err as Error).message ?? String(err), found.map((f) => f.value));
  }
}
