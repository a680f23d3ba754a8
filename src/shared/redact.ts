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

/*
 * Every pattern below is linear in its input. A backtracking engine (V8's irregexp) retries a pattern at
 * each position; a pattern that opens with a repeated class (`[A-Za-z0-9_.-]+=`) therefore rescans a run of
 * those characters from each of its positions, n²/2 steps on a long run (100,000 letters: seconds). So
 * each pattern that opens with a repeated class is anchored to the start of its run with a one-character
 * lookbehind, and no quantified part can end in the middle of a run it could continue: from any position
 * inside a run the match would have had to end at the same place as from the run's start, so only the
 * start needs trying, and each character is scanned a bounded number of times.
 */

/** Provider key formats worth catching even when the key was never stored: OpenAI/DeepSeek `sk-`, Groq, Google, Hugging Face, xAI… */
const KEY_SHAPES = /\b(?:sk|pk|rk)[-_](?:[A-Za-z0-9]+[-_])?[A-Za-z0-9_-]{12,}|\b(?:gsk|hf|xai|pplx|nvapi|csk)[-_][A-Za-z0-9_-]{12,}|\bAIza[0-9A-Za-z_-]{30,}/g;
const BEARER = /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{4,}/gi;
/**
 * `scheme://user:pass@host` and `scheme://token@host`: a run of scheme characters before `://`, taken whole
 * (see `schemeInRun` for where in it a scheme may start).
 */
const URL_USERINFO = /(?<![a-z0-9+.-])([a-z0-9+.-]+)(:\/\/)[^\s/?#@"'<>]+@/gi;
/** `name=value` in a query string, a form body or a header-ish text, when the name is a credential. */
const NAME_EQUALS = /(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)(=)([^&#\s"'<>,;]+)/g;
/** `"api_key": "value"` / `x-api-key: value` (JSON bodies and headers echoed in error text). */
const NAME_COLON = /("?)(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)("?\s*:\s*)("?)([^\s",}]+)/g;
/** A scheme starts with a letter at a word boundary (`\b[a-z]`), so `x.https` and `https` are schemes but `_https`, `9x` are not. */
const WORD_CHAR = /[A-Za-z0-9_]/;
const LETTER = /[A-Za-z]/;

/**
 * True when a run of scheme characters (`[a-z0-9+.-]+` ending at `://`) holds a scheme, a letter at a word
 * boundary: at the run's start when the character before is not `_`, or after a `+`, `.` or `-` inside it.
 * This is the `\b[a-z][a-z0-9+.-]*://` the pattern once said, checked once per run instead of per position.
 */
function schemeInRun(run: string, before: string): boolean {
  for (let i = 0; i < run.length; i++) {
    const prev = i === 0 ? before : (run[i - 1] as string);
    if (LETTER.test(run[i] as string) && !WORD_CHAR.test(prev)) return true;
  }
  return false;
}

/** The secrets to remove: the remembered ones and the given ones, longest first (a key containing another is removed whole). */
function secretsToRemove(secrets: Iterable<string | undefined>): string[] {
  const values = new Set(known);
  for (const s of secrets) if (typeof s === 'string' && s.length >= MIN_SECRET_LENGTH) values.add(s);
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * Removes credentials from any text: the given keys and every remembered key (in full, and their last 8
 * characters), `Bearer …` tokens, `sk-…`-style keys, credential query values (`?key=`, `api_key=`),
 * `"api_key": "…"` fields and `user:pass@` in URLs. Idempotent; never throws; linear in the text's length.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  if (typeof text !== 'string' || text === '') return text;
  let out = text;
  const sorted = secretsToRemove(secrets);
  for (const s of sorted) if (out.includes(s)) out = out.split(s).join(REDACTED);
  for (const s of sorted) {
    if (s.length >= 2 * TAIL_LENGTH) {
      const tail = s.slice(-TAIL_LENGTH);
      if (out.includes(tail)) out = out.split(tail).join(REDACTED);
    }
  }
  out = out.replace(URL_USERINFO, (m, run: string, sep: string, at: number, whole: string) => (schemeInRun(run, whole[at - 1] ?? '') ? `${run}${sep}${REDACTED}@` : m));
  out = out.replace(BEARER, `$1$2${REDACTED}`);
  out = out.replace(NAME_EQUALS, (m, name: string, eq: string, value: string) => (isCredentialName(name) && value !== REDACTED ? `${name}${eq}${REDACTED}` : m));
  out = out.replace(NAME_COLON, (m, q1: string, name: string, sep: string, q2: string, value: string) =>
    isCredentialName(name) && value !== REDACTED && !/^(Bearer|Basic|Token)$/i.test(value) ? `${q1}${name}${sep}${q2}${REDACTED}` : m,
  );
  out = out.replace(KEY_SHAPES, REDACTED);
  return out;
}

/**
 * Characters a credential this module recognises by its shape is made of: every key shape, `Bearer` value
 * and `user:pass` is printable ASCII without spaces, quotes, `/?#@<>`. A text cut inside a run of these may
 * have cut a credential in two, and the half left is too short or lacks the `@` the patterns need.
 */
const CREDENTIAL_CHAR = /[!$%&()*+,\-.0-9:;=A-Z[\\\]^_`a-z{|}~]/;

/** Where the run of credential characters that ends `text` starts (text.length when it ends in another character). */
function trailingRunStart(text: string): number {
  let i = text.length;
  while (i > 0 && CREDENTIAL_CHAR.test(text[i - 1] as string)) i--;
  return i;
}

/** How many characters at the end of `text` are the start of a secret (one not made only of credential characters, which the run rule covers). */
function trailingSecretPrefix(text: string, secrets: readonly string[]): number {
  let longest = 0;
  for (const s of secrets) {
    if ([...s].every((c) => CREDENTIAL_CHAR.test(c))) continue;
    const from = Math.max(0, text.length - s.length + 1);
    for (let p = text.indexOf(s[0] as string, from); p !== -1; p = text.indexOf(s[0] as string, p + 1)) {
      if (s.startsWith(text.slice(p))) {
        longest = Math.max(longest, text.length - p);
        break;
      }
    }
  }
  return longest;
}

/**
 * Cuts `text` to at most `maxChars` and then redacts it, so the redaction's work is bounded by the cut,
 * not by whatever a server sent. Cutting first must not leave half a secret that the whole would have
 * revealed (`sk-abc…` shorter than a key shape, `https://user:pa` without its `@`, the start of a stored
 * key): when the cut splits a run of credential characters, that run's remains are replaced by `***`, as
 * is a trailing start of a remembered or given key. Text within the limit is redacted as `redact` does.
 */
export function redactCut(text: string, maxChars: number, secrets: Iterable<string | undefined> = []): string {
  if (typeof text !== 'string' || text.length <= maxChars) return redact(text, secrets);
  const list = secretsToRemove(secrets);
  let cut = text.slice(0, maxChars);
  // A lone high surrogate left at the end is half a character; drop it.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  // The run goes on past the cut, or the `@` that makes `user:pass` a URL's userinfo comes right after it.
  const next = text[maxChars] as string;
  const splitRun = (CREDENTIAL_CHAR.test(next) || next === '@') && cut !== '' && CREDENTIAL_CHAR.test(cut[cut.length - 1] as string);
  const keep = Math.min(splitRun ? trailingRunStart(cut) : cut.length, cut.length - trailingSecretPrefix(cut, list));
  if (keep < cut.length) cut = `${cut.slice(0, keep)}${REDACTED}`;
  // `***` can lengthen the text by a few characters; a prefix of redacted text holds no secret.
  return redact(cut, list).slice(0, maxChars);
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
