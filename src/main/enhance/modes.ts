import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BUILTIN_MODES, RESERVED_MODE_OFF, type PromptLanguage } from './builtin-modes.ts';

/**
 * Enhancement modes as Markdown files in `<dataDir>/enhance_modes/` (WenZi's format): the file name is
 * the id, an optional front matter block sets `label`, `order` (default 50), `steps` (a chain of other
 * modes) and `track_corrections`; the body is the system prompt. Tingxie adds `guard`
 * (`full` | `length` | `off`) for the divergence guard.
 */

/** How strictly the divergence guard compares the output with the ASR text. */
export type GuardLevel = 'full' | 'length' | 'off';

/** One loaded mode. */
export interface EnhanceMode {
  readonly id: string;
  readonly label: string;
  readonly order: number;
  /** System prompt (empty for chains). */
  readonly prompt: string;
  /** Mode ids run one after the other, or null for a single-step mode. */
  readonly steps: readonly string[] | null;
  readonly trackCorrections: boolean;
  readonly guard: GuardLevel;
  readonly file: string;
}

/** A mode file that could not be used, with the reason to show. */
export interface ModeIssue {
  readonly file: string;
  readonly message: string;
  /** 1-based line of the file the problem is on, when it is on one. */
  readonly line: number | null;
}

/** A broken mode file: the message says what, `line` where (1-based, null when it is not one line). */
export class ModeFileError extends Error {
  readonly line: number | null;
  constructor(message: string, line: number | null) {
    super(message);
    this.name = 'ModeFileError';
    this.line = line;
  }
}

/** The mode used when the chosen one cannot be (broken file, unknown id): plain proofreading, never a translation. */
export const FALLBACK_MODE_ID = 'proofread';

/** Result of loading the folder. */
export interface LoadedModes {
  /** Sorted by order, then id. */
  readonly modes: readonly EnhanceMode[];
  readonly issues: readonly ModeIssue[];
  /** Built-in files written during this load. */
  readonly created: readonly string[];
}

/** Default `order` of a mode without one (WenZi). */
export const DEFAULT_MODE_ORDER = 50;
const MODE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Folder of the mode files under a data dir. */
export function modesDir(dataDir: string): string {
  return path.join(dataDir, 'enhance_modes');
}

function parseScalarList(value: string): string[] {
  const inner = value.trim().replace(/^\[/, '').replace(/\]$/, '');
  return inner
    .split(/[,，→>]/)
    .map((s) => s.trim().replace(/^["']|["']$/g, ''))
    .filter((s) => s !== '');
}

function parseBool(value: string, key: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no') return false;
  throw new Error(`${key} must be true or false, got "${value.trim()}"`);
}

/** Parses one mode file's text; throws a ModeFileError (message and line) when it is broken. Never throws anything else. */
export function parseModeText(id: string, text: string, file = `${id}.md`): EnhanceMode {
  if (!MODE_ID.test(id)) throw new ModeFileError(`file name "${id}" is not a valid mode id (letters, digits, _ -)`, null);
  if (id === RESERVED_MODE_OFF) throw new ModeFileError(`"${RESERVED_MODE_OFF}" is reserved (it means no enhancement)`, null);
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let body = normalized;
  let bodyLine = 1;
  const meta: Record<string, string> = {};
  /** The line each key was set on, for messages. */
  const lineOf: Record<string, number> = {};
  let listKey: string | null = null;
  if (normalized.startsWith('---\n')) {
    const end = normalized.indexOf('\n---', 4);
    if (end === -1) throw new ModeFileError('front matter starts with --- but never ends', 1);
    const header = normalized.slice(4, end);
    const closeLine = header.split('\n').length + 2;
    const after = normalized.slice(end + 4);
    if (after !== '' && !after.startsWith('\n')) throw new ModeFileError('front matter must end with a line of ---', closeLine);
    body = after.replace(/^\n/, '');
    bodyLine = closeLine + 1;
    for (const [n, line] of header.split('\n').entries()) {
      if (line.trim() === '' || line.trim().startsWith('#')) continue;
      const item = /^\s+-\s*(.+)$/.exec(line);
      if (item && listKey !== null) {
        meta[listKey] = meta[listKey] === '' ? (item[1] ?? '') : `${meta[listKey]}, ${item[1] ?? ''}`;
        continue;
      }
      const kv = /^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$/.exec(line);
      if (!kv) throw new ModeFileError(`front matter line ${n + 2} is not "key: value": ${line.slice(0, 80)}`, n + 2);
      const key = kv[1] ?? '';
      // A plain object would let a key named like a prototype member read as set: only own keys count.
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new ModeFileError(`front matter key "${key}" is not allowed`, n + 2);
      meta[key] = (kv[2] ?? '').trim();
      lineOf[key] = n + 2;
      listKey = meta[key] === '' ? key : null;
    }
  }
  const has = (k: string): boolean => Object.hasOwn(meta, k);
  const at = (k: string): number | null => lineOf[k] ?? null;
  const label = ((has('label') ? meta.label : '') ?? '').replace(/^["']|["']$/g, '') || id;
  let order = DEFAULT_MODE_ORDER;
  if (has('order') && meta.order !== '') {
    order = Number(meta.order);
    if (!Number.isFinite(order)) throw new ModeFileError(`order must be a number, got "${meta.order}"`, at('order'));
  }
  const steps = has('steps') && meta.steps !== '' ? parseScalarList(meta.steps ?? '') : null;
  if (steps !== null) {
    if (steps.length < 2) throw new ModeFileError('a chain needs at least two steps', at('steps'));
    const bad = steps.find((s) => !MODE_ID.test(s));
    if (bad !== undefined) throw new ModeFileError(`step "${bad}" is not a valid mode id`, at('steps'));
    if (steps.includes(id)) throw new ModeFileError('a chain cannot contain itself', at('steps'));
  }
  let trackCorrections = false;
  if (has('track_corrections') && meta.track_corrections !== '') {
    try {
      trackCorrections = parseBool(meta.track_corrections ?? '', 'track_corrections');
    } catch (err) {
      throw new ModeFileError((err as Error).message, at('track_corrections'));
    }
  }
  const guardRaw = ((has('guard') ? meta.guard : 'full') ?? 'full').trim() || 'full';
  if (guardRaw !== 'full' && guardRaw !== 'length' && guardRaw !== 'off') throw new ModeFileError(`guard must be full, length or off, got "${guardRaw}"`, at('guard'));
  const prompt = body.trim();
  if (steps === null && prompt === '') throw new ModeFileError('the prompt (text after the front matter) is empty', bodyLine);
  return { id, label, order, prompt, steps, trackCorrections, guard: guardRaw, file };
}

/** Writes every built-in mode whose file is missing (never overwrites); returns the files written. */
export async function ensureBuiltinModes(dir: string, lang: PromptLanguage): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const created: string[] = [];
  for (const m of BUILTIN_MODES) {
    const file = path.join(dir, `${m.id}.md`);
    try {
      await writeFile(file, `${m.text[lang]}\n`, { flag: 'wx' });
      created.push(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return created;
}

/** Loads every `*.md` mode (creating missing built-ins first); broken files are reported and skipped, chains with unknown steps too. */
export async function loadModes(dir: string, opts: { readonly lang: PromptLanguage; readonly createBuiltins?: boolean }): Promise<LoadedModes> {
  const created = opts.createBuiltins === false ? [] : await ensureBuiltinModes(dir, opts.lang);
  const issues: ModeIssue[] = [];
  const parsed: EnhanceMode[] = [];
  let names: string[] = [];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      parsed.push(parseModeText(name.slice(0, -3), await readFile(file, 'utf8'), file));
    } catch (err) {
      issues.push({ file, message: err instanceof Error ? err.message : String(err), line: err instanceof ModeFileError ? err.line : null });
    }
  }
  const singles = new Map(parsed.filter((m) => m.steps === null).map((m) => [m.id, m]));
  const modes = parsed.filter((m) => {
    const missing = m.steps?.find((s) => !singles.has(s));
    if (missing !== undefined) issues.push({ file: m.file, message: `chain step "${missing}" is not a loaded single-step mode`, line: null });
    return missing === undefined;
  });
  modes.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  return { modes, issues, created };
}

/** The built-in proofread mode, parsed from its text in `lang` (the fallback of a mode that cannot be used). */
export function builtinFallbackMode(lang: PromptLanguage): EnhanceMode {
  const m = BUILTIN_MODES.find((b) => b.id === FALLBACK_MODE_ID);
  if (!m) throw new Error(`built-in mode ${FALLBACK_MODE_ID} is missing`);
  return { ...parseModeText(m.id, m.text[lang], `(built-in) ${m.id}.md`), file: `(built-in) ${m.id}.md` };
}

/**
 * The configured mode. When it is unknown or its file is broken, the plain built-in proofread mode —
 * never another loaded mode (the first in the menu can be a translation: a typo in proofread.md once
 * turned every dictation into English).
 */
export function resolveMode(modes: readonly EnhanceMode[], id: string, lang: PromptLanguage = 'en'): EnhanceMode {
  return modes.find((m) => m.id === id) ?? builtinFallbackMode(lang);
}

/** The issue that makes the chosen mode unusable (its file is broken), or null when it loaded or has no file. */
export function chosenModeIssue(modes: readonly EnhanceMode[], issues: readonly ModeIssue[], id: string): ModeIssue | null {
  if (modes.some((m) => m.id === id)) return null;
  return issues.find((i) => path.basename(i.file) === `${id}.md`) ?? null;
}

/** The single-step modes a mode runs, in order (itself for a single-step mode). */
export function stepsOf(modes: readonly EnhanceMode[], mode: EnhanceMode): EnhanceMode[] {
  if (mode.steps === null) return [mode];
  return mode.steps.map((s) => {
    const step = modes.find((m) => m.id === s && m.steps === null);
    if (!step) throw new Error(`chain ${mode.id}: step ${s} is not loaded`);
    return step;
  });
}
