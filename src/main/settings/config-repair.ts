import { configSchema, defaultConfig, isSecretKeyName, type Config } from '../../shared/config/config-schema.ts';
import { deletePath, getPath, joinPath, schemaAt, unwrapSchema } from './key-path.ts';
import { migrate } from './migrations.ts';
import { cloneJson, isPlainObject } from './plain.ts';
import { holdsCredential, isCredentialName, urlHoldsCredential } from '../../shared/redact.ts';

/** A setting that could not be used as written, and why; `path` is a key path ('' = the whole file). */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
  /** The schema's issue code and bounds (bridge-types.ts BridgeIssue), so Settings can say it in the UI language. */
  readonly code?: string;
  readonly origin?: string;
  readonly limit?: number;
  readonly inclusive?: boolean;
  readonly expected?: string;
}

/** An API key found in config.json (e.g. WenZi's `providers.<id>.api_key`), to be moved to the secret store. */
export interface FoundSecret {
  /** Secret-store name: `provider:<id>`, `asr:remote`, or `config:<key path>` for anything else. */
  readonly name: string;
  readonly value: string;
  readonly path: string;
}

/** What repairing a raw document produced. */
export interface RepairResult {
  readonly config: Config;
  /** The document with bad fields and secrets removed, unknown keys kept; what gets saved (merged with config). */
  readonly raw: Record<string, unknown>;
  readonly issues: readonly ConfigIssue[];
  readonly foundSecrets: readonly FoundSecret[];
  readonly migrated: boolean;
  readonly migrationNotes: readonly string[];
}

const MAX_ROUNDS = 64;

/**
 * Turns whatever was in config.json into a valid Config, field by field: a field that fails validation is
 * removed so its default applies, and an issue says which and why. Never throws.
 */
export function repairConfig(input: unknown): RepairResult {
  const issues: ConfigIssue[] = [];
  let raw: Record<string, unknown>;
  if (isPlainObject(input)) {
    raw = cloneJson(input);
  } else {
    if (input !== undefined) issues.push({ path: '', message: `config is ${describe(input)}, not an object: every setting uses its default` });
    raw = {};
  }
  const foundSecrets: FoundSecret[] = [];
  extractSecrets(raw, [], foundSecrets, issues);

  let migrated = false;
  let migrationNotes: readonly string[] = [];
  try {
    const m = migrate(raw);
    migrated = m.fromVersion !== m.toVersion;
    migrationNotes = m.notes;
    if (m.newer) issues.push({ path: 'version', message: `written by a newer Tingxie (version ${m.fromVersion}); settings this version does not know are kept untouched` });
  } catch (err) {
    issues.push({ path: 'version', message: `migration failed (${(err as Error).message}); using the file as is` });
  }

  const defaults = defaultConfig();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const parsed = configSchema.safeParse(raw);
    if (parsed.success) return { config: parsed.data, raw, issues, foundSecrets, migrated, migrationNotes };
    let progressed = false;
    for (const zi of parsed.error.issues) {
      // The unit of repair is a field: an array is reset as a whole rather than losing one element.
      const path = truncateAtArrayIndex(zi.path.map(String));
      for (let p = path; p.length > 0; p = p.slice(0, -1)) {
        if (!removable(p)) continue;
        const bad = getPath(raw, p);
        if (deletePath(raw, p)) {
          progressed = true;
          const where = p.length === path.length ? '' : ` (at ${joinPath(path)})`;
          issues.push({ path: joinPath(p), message: `${zi.message}${where}, found ${describe(bad)}; ${defaultNote(defaults, p)}` });
          break;
        }
      }
    }
    if (!progressed) break;
  }
  issues.push({ path: '', message: 'config could not be repaired field by field: every setting uses its default' });
  return { config: defaults, raw: { version: defaults.version }, issues, foundSecrets, migrated, migrationNotes };
}

/**
 * Whether removing the value at `path` can fix it: the field has a default (or is optional), or it is an
 * entry of a map such as `providers`. A required field without a default (a provider's base_url) cannot be
 * fixed alone, so repair moves up to the entry that holds it.
 */
function removable(path: readonly string[]): boolean {
  const here = schemaAt(configSchema, path);
  if (here === undefined) return true; // not a known setting: removing it is the only repair
  const type = (here._zod.def as { type: string }).type;
  if (type === 'default' || type === 'prefault' || type === 'optional') return true;
  const parent = schemaAt(configSchema, path.slice(0, -1));
  return parent !== undefined && (unwrapSchema(parent)._zod.def as { type: string }).type === 'record';
}

/** Removes secret-named keys anywhere in the document (and keys inside URLs and extra_body), recording them as FoundSecrets. */
function extractSecrets(node: unknown, path: string[], out: FoundSecret[], issues: ConfigIssue[]): void {
  if (!isPlainObject(node)) return;
  const inExtraBody = path.includes('extra_body');
  for (const key of Object.keys(node)) {
    const here = [...path, key];
    const value = node[key];
    if (isSecretKeyName(key) || (inExtraBody && (isCredentialName(key) || (typeof value === 'string' && holdsCredential(value))))) {
      delete node[key];
      const keyPath = joinPath(here);
      if (typeof value === 'string' && value !== '') out.push({ name: secretNameFor(here), value, path: keyPath });
      issues.push({ path: keyPath, message: 'API keys are not kept in config.json; it was moved to the secret store (the backup of the file has it removed)' });
    } else if (typeof value === 'string' && key.endsWith('url') && urlHoldsCredential(value)) {
      const split = splitUrlCredential(value);
      if (split === null) continue; // not a URL: validation refuses it with its message
      node[key] = split.url;
      const keyPath = joinPath(here);
      if (split.key !== '') out.push({ name: secretNameFor(here), value: split.key, path: keyPath });
      issues.push({ path: keyPath, message: 'the URL held an API key; it was removed from the URL and moved to the secret store' });
    } else {
      extractSecrets(value, here, out, issues);
    }
  }
}

/** A URL without its credentials, and the key it held (the password, else the user name, else a key-named query value). */
function splitUrlCredential(text: string): { url: string; key: string } | null {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  let key = decodeURIComponent(u.password !== '' ? u.password : u.username);
  u.username = '';
  u.password = '';
  for (const name of [...u.searchParams.keys()]) {
    if (!isCredentialName(name)) continue;
    if (key === '') key = u.searchParams.get(name) ?? '';
    u.searchParams.delete(name);
  }
  // WHATWG URL adds a '/' to a bare origin (https://host → https://host/): keep the user's spelling.
  const bare = u.pathname === '/' && u.search === '' && u.hash === '' && !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\//i.test(text);
  return { url: bare ? u.href.replace(/\/$/, '') : u.href, key };
}

/** Maps where a secret was found to its name in the secret store. */
export function secretNameFor(path: readonly string[]): string {
  if (path.length === 4 && path[0] === 'ai_enhance' && path[1] === 'providers') return `provider:${path[2]}`;
  if (path.length === 3 && path[0] === 'asr' && path[1] === 'remote') return 'asr:remote';
  return `config:${joinPath(path)}`;
}

/**
 * The document to save: the validated config with every key it does not know (from WenZi or a newer
 * Tingxie) carried over from the raw document, in the raw document's key order.
 */
export function mergePreserving(raw: unknown, validated: unknown): unknown {
  if (!isPlainObject(raw) || !isPlainObject(validated)) return validated;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    out[key] = Object.hasOwn(validated, key) ? mergePreserving(raw[key], validated[key]) : raw[key];
  }
  for (const key of Object.keys(validated)) {
    if (!Object.hasOwn(out, key) && validated[key] !== undefined) out[key] = validated[key];
  }
  return out;
}

function truncateAtArrayIndex(path: readonly string[]): string[] {
  const i = path.findIndex((s) => /^\d+$/.test(s));
  return i === -1 ? [...path] : path.slice(0, i);
}

function defaultNote(defaults: Config, path: readonly string[]): string {
  const d = getPath(defaults, path);
  return d === undefined ? 'removed' : `using the default ${JSON.stringify(d)}`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 40 ? `a string "${v.slice(0, 40)}…"` : `"${v}"`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
