/*
 * The one redaction function. Every path that can carry text a provider sent (LLM errors, remote ASR
 * errors, the journal, the log) runs it, because servers echo keys back ("Incorrect API key provided:
 * sk-…", a URL with `?key=` in a 404). It removes the keys the app holds (remembered by the secret store)
 * and, for keys it was never told about, anything shaped like a credential.
 */

/** What a removed secret is replaced with. */
export const REDACTED = '***';

/**
 * Remembered keys shorter than this are not real secrets (`ollama`, `lm-studio`) and removing them from every
 * message would mangle it; a key passed explicitly (the one a request just sent) is removed from 4 characters.
 */
const MIN_REMEMBERED_LENGTH = 10;
const MIN_SECRET_LENGTH = 4;
/** A key echoed in part (its tail) is removed too, once the key is long enough that its tail is unique. */
const TAIL_LENGTH = 8;

const known = new Set<string>();

/** Adds a key value the redaction must remove from now on (the secret store calls it for each key it holds). */
export function rememberSecret(value: string | undefined): void {
  if (typeof value === 'string' && value.length >= MIN_REMEMBERED_LENGTH) known.add(value);
}

/** Forgets every remembered key (tests; a real app only adds). */
export function forgetRememberedSecrets(): void {
  known.clear();
}

/** Word pieces that make a field or parameter name a credential (see `isCredentialName`). */
const CREDENTIAL_WORDS: ReadonlySet<string> = new Set(['token', 'secret', 'password', 'passwd', 'pwd', 'authorization', 'bearer', 'credential', 'credentials', 'apikey', 'signature', 'sig']);
/** `key` counts only as the whole name or after one of these (so `prompt_cache_key`, `idempotency_key` are fine). */
const KEY_QUALIFIERS: ReadonlySet<string> = new Set(['api', 'access', 'secret', 'private', 'auth', 'client', 'subscription', 'goog', 'x']);

/**
 * True when a field or query-parameter name holds a credential: `api_key`, `apiKey`, `x-api-key`, `key`,
 * `access_token`, `Authorization`, `client_secret`… but not `max_tokens` or `prompt_cache_key`.
 */
export function isCredentialName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  if (words.length === 0) return false;
  if (words.length === 1 && (words[0] === 'key' || words[0] === 'auth')) return true;
  return words.some((w, i) => CREDENTIAL_WORDS.has(w) || (w === 'key' && i > 0 && KEY_QUALIFIERS.has(words[i - 1] as string)));
}

/** Provider key formats worth catching even when the key was never stored: OpenAI/DeepSeek `sk-`, Groq, Google, Hugging Face, xAI… */
const KEY_SHAPES = /\b(?:sk|pk|rk)[-_](?:[A-Za-z0-9]+[-_])?[A-Za-z0-9_-]{12,}|\b(?:gsk|hf|xai|pplx|nvapi|csk)[-_][A-Za-z0-9_-]{12,}|\bAIza[0-9A-Za-z_-]{30,}/g;
const BEARER = /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{4,}/gi;
/** `scheme://user:pass@host` and `scheme://token@host`. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
/** `name=value` in a query string, a form body or a header-ish text, when the name is a credential. */
const NAME_EQUALS = /([A-Za-z0-9_.-]+)(=)([^&#\s"'<>,;]+)/g;
/** `"api_key": "value"` / `x-api-key: value` (JSON bodies and headers echoed in error text). */
const NAME_COLON = /("?)([A-Za-z0-9_.-]+)("?\s*:\s*)("?)([^\s",}]+)/g;

/**
 * Removes credentials from any text: the given keys and every remembered key (in full, and their last 8
 * characters), `Bearer …` tokens, `sk-…`-style keys, credential query values (`?key=`, `api_key=`),
 * `"api_key": "…"` fields and `user:pass@` in URLs. Idempotent; never throws.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  if (typeof text !== 'string' || text === '') return text;
  let out = text;
  const values = new Set(known);
  for (const s of secrets) if (typeof s === 'string' && s.length >= MIN_SECRET_LENGTH) values.add(s);
  // Longest first, so a key that contains another is removed whole.
  const sorted = [...values].sort((a, b) => b.length - a.length);
  for (const s of sorted) if (out.includes(s)) out = out.split(s).join(REDACTED);
  for (const s of sorted) {
    if (s.length >= 2 * TAIL_LENGTH) {
      const tail = s.slice(-TAIL_LENGTH);
      if (out.includes(tail)) out = out.split(tail).join(REDACTED);
    }
  }
  out = out.replace(URL_USERINFO, `$1${REDACTED}@`);
  out = out.replace(BEARER, `$1$2${REDACTED}`);
  out = out.replace(NAME_EQUALS, (m, name: string, eq: string, value: string) => (isCredentialName(name) && value !== REDACTED ? `${name}${eq}${REDACTED}` : m));
  out = out.replace(NAME_COLON, (m, q1: string, name: string, sep: string, q2: string, value: string) =>
    isCredentialName(name) && value !== REDACTED && !/^(Bearer|Basic|Token)$/i.test(value) ? `${q1}${name}${sep}${q2}${REDACTED}` : m,
  );
  out = out.replace(KEY_SHAPES, REDACTED);
  return out;
}

/** True when `text` holds something `redact` would remove (used to refuse keys in URLs and request fields). */
export function holdsCredential(text: string, secrets: Iterable<string | undefined> = []): boolean {
  return redact(text, secrets) !== text;
}

/** True when a URL carries a credential: `user:key@`, a key-named query parameter (`?key=`, `?api_key=`), or a key-shaped part. */
export function urlHoldsCredential(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.username !== '' || u.password !== '') return true;
    for (const [name] of u.searchParams) if (isCredentialName(name)) return true;
  } catch {
    // Not a URL: the text checks below still apply.
  }
  return holdsCredential(url);
}

/**
 * The key path (dot-joined, '' for the top) of the first credential inside request fields such as
 * `extra_body`: a field named like a key, token, authorization or secret, or a value shaped like one
 * (`Bearer …`, `sk-…`). null when there is none.
 */
export function credentialPathIn(value: unknown, at: readonly string[] = []): string | null {
  if (typeof value === 'string') return holdsCredential(value) ? at.join('.') : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = credentialPathIn(value[i], [...at, String(i)]);
      if (hit !== null) return hit;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (isCredentialName(k)) return [...at, k].join('.');
      const hit = credentialPathIn(v, [...at, k]);
      if (hit !== null) return hit;
    }
  }
  return null;
}
