import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../platform/durable-fs.ts';
import { compileRules, type CompiledRules } from './pipeline.ts';
import { rulesFileSchema, type ReplacementRule, type RulesFile, type Snippet } from './rule-types.ts';
import { isCjk } from './text-chars.ts';

/**
 * The user's replacement rules and snippets: `text-rules.json` in the data folder. A JSON file of its own,
 * not config.json: snippets are the user's text (addresses, signatures) of any length, and the file is
 * what `tingxie rules export` writes and `import` reads, so it can be kept and shared as one file. Written
 * atomically (temp file, fsync, rename). A file that does not parse is never overwritten: it is moved
 * aside as `text-rules.json.damaged-<time>` on the next write, and reads see no rules meanwhile.
 */

/** File name under the data folder. */
export const RULES_FILE = 'text-rules.json';

/** What {@link RuleStore.addReplacementRule} takes (the learner's "always" pairs too). */
export interface NewReplacement {
  readonly heard: string;
  readonly written: string;
  readonly samePinyin?: boolean;
  readonly anywhere?: boolean;
}

const newId = (prefix: string): string => `${prefix}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/** True when every character of `s` is Chinese: only such rules can match by pinyin. */
function allChinese(s: string): boolean {
  for (const c of s) if (!isCjk(c)) return false;
  return s.length > 0;
}

/** Merges `incoming` into `base`: a rule with the same heard text (a snippet with the same trigger) is replaced. */
function merge(base: RulesFile, incoming: RulesFile): { file: RulesFile; added: number; replaced: number } {
  const replacements = [...base.replacements];
  const snippets = [...base.snippets];
  let added = 0;
  let replaced = 0;
  for (const r of incoming.replacements) {
    const at = replacements.findIndex((x) => x.heard.toLowerCase() === r.heard.toLowerCase());
    if (at >= 0) replacements[at] = { ...r, id: replacements[at]?.id ?? r.id };
    else replacements.push(r);
    if (at >= 0) replaced += 1;
    else added += 1;
  }
  for (const s of incoming.snippets) {
    const at = snippets.findIndex((x) => x.trigger.toLowerCase() === s.trigger.toLowerCase());
    if (at >= 0) snippets[at] = { ...s, id: snippets[at]?.id ?? s.id };
    else snippets.push(s);
    if (at >= 0) replaced += 1;
    else added += 1;
  }
  return { file: { version: 1, replacements, snippets }, added, replaced };
}

/** The rules file of one data folder. Every call reads the file as it is now (the app and the CLI share it). */
export class RuleStore {
  readonly file: string;
  private cache: { readonly key: string; readonly rules: CompiledRules; readonly data: RulesFile } | null = null;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, RULES_FILE);
  }

  /** The stored rules ({} when there is no file; `damaged` when it does not parse). */
  read(): RulesFile & { readonly damaged?: string } {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return rulesFileSchema.parse({});
      throw err;
    }
    try {
      return rulesFileSchema.parse(JSON.parse(text));
    } catch (err) {
      return { ...rulesFileSchema.parse({}), damaged: err instanceof Error ? err.message.slice(0, 300) : String(err) };
    }
  }

  /** The rules compiled for the pipeline, recompiled only when the file changed (size and mtime). */
  compiled(): CompiledRules {
    let key = 'none';
    try {
      const st = fs.statSync(this.file);
      key = `${st.size}:${st.mtimeMs}`;
    } catch {
      // no file: no rules
    }
    if (this.cache?.key !== key) {
      const data = this.read();
      this.cache = { key, data, rules: compileRules(data) };
    }
    return this.cache.rules;
  }

  /** Replaces the whole file (a damaged one is kept aside first). */
  write(file: RulesFile): void {
    const valid = rulesFileSchema.parse(file);
    if (this.read().damaged !== undefined) fs.renameSync(this.file, `${this.file}.damaged-${Date.now()}`);
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileAtomicSync(this.file, `${JSON.stringify(valid, null, 2)}\n`);
    this.cache = null;
  }

  /**
   * Adds a `heard → written` rule, or updates the rule with the same heard text (case-insensitive); returns it.
   * `samePinyin` needs a heard text in Chinese characters only.
   */
  addReplacementRule(input: NewReplacement): ReplacementRule {
    const heard = input.heard.trim();
    if (heard === '') throw new Error('the heard text is empty');
    if (heard === input.written) throw new Error('heard and written are the same text');
    if (input.samePinyin === true && !allChinese(heard)) throw new Error('"same pinyin" needs the heard text in Chinese characters only');
    const rule: ReplacementRule = { id: newId('r'), heard, written: input.written, same_pinyin: input.samePinyin ?? false, anywhere: input.anywhere ?? false };
    const { file } = merge(this.read(), { version: 1, replacements: [rule], snippets: [] });
    this.write(file);
    return file.replacements.find((r) => r.heard.toLowerCase() === heard.toLowerCase()) ?? rule;
  }

  /** Adds a snippet, or replaces the text of the snippet with the same trigger; returns it. */
  addSnippet(input: { readonly trigger: string; readonly text: string }): Snippet {
    const trigger = input.trigger.trim();
    if (trigger === '' || input.text === '') throw new Error('a snippet needs a trigger phrase and a text');
    const { file } = merge(this.read(), { version: 1, replacements: [], snippets: [{ id: newId('s'), trigger, text: input.text }] });
    this.write(file);
    return file.snippets.find((s) => s.trigger.toLowerCase() === trigger.toLowerCase()) as Snippet;
  }

  /** Removes the rule or snippet with this id (or heard text / trigger); false when there is none. */
  remove(idOrText: string): boolean {
    const cur = this.read();
    const hit = (id: string, text: string): boolean => id === idOrText || text.toLowerCase() === idOrText.trim().toLowerCase();
    const replacements = cur.replacements.filter((r) => !hit(r.id, r.heard));
    const snippets = cur.snippets.filter((s) => !hit(s.id, s.trigger));
    if (replacements.length === cur.replacements.length && snippets.length === cur.snippets.length) return false;
    this.write({ version: 1, replacements, snippets });
    return true;
  }

  /** Merges a rules file's JSON text (the export format) into the store; how many rules were added and replaced. */
  importText(text: string): { added: number; replaced: number } {
    const incoming = rulesFileSchema.parse(JSON.parse(text));
    const r = merge(this.read(), incoming);
    this.write(r.file);
    return { added: r.added, replaced: r.replaced };
  }

  /** The export format: the file's JSON text. */
  exportText(): string {
    const { damaged: _damaged, ...data } = this.read();
    return `${JSON.stringify(data, null, 2)}\n`;
  }
}
