import { recogniseKind } from '../../shared/providers/recognise-kind.ts';
import { CONFIG_VERSION } from '../../shared/config/config-schema.ts';
import { getPath, setPath } from './key-path.ts';
import { isPlainObject } from './plain.ts';

/** One step that lifts a raw config document from `from` to `from + 1`. Works in place on plain JSON. */
export interface Migration {
  readonly from: number;
  readonly describe: string;
  /** `fromVersion`: the document's version before any step ran (which app wrote it: 0 = WenZi or hand-written). */
  readonly apply: (raw: Record<string, unknown>, notes: string[], fromVersion: number) => void;
}

/**
 * Ordered migrations. Version 0 (or no `version`) is a WenZi config.json or one written before versions
 * existed. Add a new step at the end and bump CONFIG_VERSION; never edit an old step.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    from: 0,
    describe: 'WenZi config: output.method "auto" → "paste"',
    apply(raw, notes) {
      // WenZi's "auto" pastes through the clipboard with a keystroke fallback: that is Tingxie's "paste".
      const method = getPath(raw, ['output', 'method']);
      if (method === 'auto') {
        setPath(raw, ['output', 'method'], 'paste');
        notes.push('output.method "auto" (WenZi) became "paste"');
      }
    },
  },
  {
    from: 1,
    describe: 'every AI provider gets an explicit kind, recognised once from its base URL',
    apply(raw, notes) {
      // The only place a base URL decides the provider: the result is written back and chosen in Settings from
      // then on, so no request ever guesses (docs/dev/ARCHITECTURE.md, convention 12).
      const providers = getPath(raw, ['ai_enhance', 'providers']);
      if (!isPlainObject(providers)) return;
      for (const [id, p] of Object.entries(providers)) {
        if (!isPlainObject(p) || p.kind !== undefined) continue;
        const kind = typeof p.base_url === 'string' ? recogniseKind(p.base_url) : 'other';
        p.kind = kind;
        notes.push(`ai_enhance.providers.${id}.kind set to "${kind}" from its base URL`);
      }
    },
  },
  {
    from: 2,
    describe: 'asr.language "auto" written by an older Tingxie → "follow-ui" (the new default)',
    apply(raw, notes, fromVersion) {
      // Tingxie before version 3 defaulted asr.language to "auto" and wrote the whole config on every save,
      // so an "auto" in a file it wrote (version 1 or 2) is the default nobody chose, not a choice: it becomes
      // the new default, "follow-ui" (recognition-language.ts). A user who did pick auto picks it again in
      // Settings, which now warns that detection is unreliable on short clips. A version 0 file is WenZi's
      // (WenZi writes no version; its own default is "zh") or hand-written: there "auto" was chosen, and it
      // stays, as does every other value (zh, en, yue…) in any file.
      if (fromVersion < 1) return;
      const asr = getPath(raw, ['asr']);
      if (!isPlainObject(asr) || asr.language !== 'auto') return;
      asr.language = 'follow-ui';
      notes.push('asr.language "auto" (the old default) became "follow-ui": recognition follows the app language');
    },
  },
  {
    from: 3,
    describe: 'output.append_newline true → output.submit_key "enter" (a real Enter keystroke after the paste)',
    apply(raw, notes) {
      // A newline character pasted at the end sent the message in few apps and added a blank line in most;
      // what the setting was for — sending a chat message — is a real Enter after the paste (paste.ts).
      const output = getPath(raw, ['output']);
      if (!isPlainObject(output) || !('append_newline' in output)) return;
      if (output.append_newline === true && output.submit_key === undefined) {
        output.submit_key = 'enter';
        notes.push('output.append_newline became output.submit_key "enter": a real Enter is pressed after each paste');
      }
      delete output.append_newline;
    },
  },
];

/** Result of migrating a raw document. */
export interface MigrationResult {
  readonly raw: Record<string, unknown>;
  readonly fromVersion: number;
  readonly toVersion: number;
  readonly notes: readonly string[];
  /** The file comes from a newer Tingxie: left as is (unknown keys are kept), version not lowered. */
  readonly newer: boolean;
}

/** Reads the document's version: absent or unusable → 0. */
export function rawVersion(raw: Record<string, unknown>): number {
  const v = raw.version;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

/** Applies every migration from the document's version up to CONFIG_VERSION (in place; returns the same object). */
export function migrate(raw: Record<string, unknown>, migrations: readonly Migration[] = MIGRATIONS, target = CONFIG_VERSION): MigrationResult {
  if (!isPlainObject(raw)) throw new TypeError('migrate expects an object');
  const fromVersion = rawVersion(raw);
  if (fromVersion > target) return { raw, fromVersion, toVersion: fromVersion, notes: [], newer: true };
  const notes: string[] = [];
  let v = fromVersion;
  while (v < target) {
    const step = migrations.find((m) => m.from === v);
    if (step === undefined) throw new Error(`no config migration from version ${v}`);
    step.apply(raw, notes, fromVersion);
    v += 1;
  }
  raw.version = target;
  return { raw, fromVersion, toVersion: target, notes, newer: false };
}
