import fs from 'node:fs';
import { ConfigStore } from '../../main/settings/config-store.ts';
import { applyForDictation } from '../../main/text-rules/dictation-rules.ts';
import { RuleStore } from '../../main/text-rules/rule-store.ts';
import type { ReplacementRule, Snippet } from '../../main/text-rules/rule-types.ts';
import { EXIT_ERROR, EXIT_OK, UsageError, type CliCommand, type CliContext, type CliGroup } from '../types.ts';
import { parsePair } from './vocabulary.ts';

/**
 * `tingxie rules`: the replacement rules and snippets the app applies to recognized text (text-rules.json
 * in the data folder, RuleStore), and `rules apply TEXT`, which runs the dictation's own pipeline
 * (text-rules/dictation-rules.ts) on TEXT with the config's switches: what it prints is what a dictation
 * in that mode would get, before any LLM.
 */

function ruleLine(r: ReplacementRule): string {
  const flags = [r.same_pinyin ? 'same-pinyin' : '', r.anywhere ? 'anywhere' : ''].filter((f) => f !== '').join(',');
  return `${r.id}\t${r.heard} → ${r.written}${flags ? `\t[${flags}]` : ''}\n`;
}

function snippetLine(s: Snippet): string {
  const one = s.text.replace(/\n/g, '⏎');
  return `${s.id}\t“${s.trigger}” ⇒ ${one.length > 60 ? `${one.slice(0, 59)}…` : one}\n`;
}

/** Runs `fn` and turns a thrown error into `error: …` and exit 1. */
function attempt(ctx: CliContext, fn: () => number): number {
  try {
    return fn();
  } catch (err) {
    ctx.stderr.write(`error: ${(err as Error).message.split('\n')[0]}\n`);
    return EXIT_ERROR;
  }
}

const list: CliCommand = {
  name: 'list',
  args: '',
  summary: 'the replacement rules and snippets',
  async run(ctx, argv) {
    if (argv.length > 0) throw new UsageError('list takes no arguments');
    const data = new RuleStore(ctx.dataDir).read();
    if (data.damaged !== undefined) ctx.stderr.write(`warning: text-rules.json does not parse (${data.damaged}); it will be set aside at the next change\n`);
    if (ctx.json) ctx.stdout.write(`${JSON.stringify({ replacements: data.replacements, snippets: data.snippets }, null, 2)}\n`);
    else if (data.replacements.length + data.snippets.length === 0) ctx.stdout.write('no rules and no snippets\n');
    else {
      for (const r of data.replacements) ctx.stdout.write(ruleLine(r));
      for (const s of data.snippets) ctx.stdout.write(snippetLine(s));
    }
    return EXIT_OK;
  },
};

const add: CliCommand = {
  name: 'add',
  args: '"heard→written" [--same-pinyin] [--anywhere] | --snippet TRIGGER TEXT',
  summary: 'adds a replacement rule (or a snippet); the same heard text / trigger is updated',
  details:
    'A replacement matches Latin words whole and case-insensitively, Chinese exactly and never inside a longer word.\n' +
    '--same-pinyin: also every spelling read the same (平平, 苹苹 → 萍萍). --anywhere: inside longer words too.\n' +
    '--snippet TRIGGER TEXT: when TRIGGER is the whole dictation, TEXT is pasted ({date} and {time} filled in).',
  options: {
    'same-pinyin': { type: 'boolean', description: 'match any spelling with the same pinyin (Chinese heard text)' },
    anywhere: { type: 'boolean', description: 'replace inside longer words too' },
    snippet: { type: 'boolean', description: 'add a snippet: TRIGGER TEXT' },
  },
  async run(ctx, argv, options) {
    const store = new RuleStore(ctx.dataDir);
    if (options.snippet === true) {
      if (argv.length !== 2) throw new UsageError('expected --snippet TRIGGER TEXT');
      return attempt(ctx, () => {
        const s = store.addSnippet({ trigger: argv[0] ?? '', text: argv[1] ?? '' });
        ctx.stdout.write(ctx.json ? `${JSON.stringify(s, null, 2)}\n` : `added ${snippetLine(s)}`);
        return EXIT_OK;
      });
    }
    const pair = parsePair(argv);
    return attempt(ctx, () => {
      const r = store.addReplacementRule({ heard: pair.wrong, written: pair.right, samePinyin: options['same-pinyin'] === true, anywhere: options.anywhere === true });
      ctx.stdout.write(ctx.json ? `${JSON.stringify(r, null, 2)}\n` : `added ${ruleLine(r)}`);
      return EXIT_OK;
    });
  },
};

const remove: CliCommand = {
  name: 'remove',
  args: 'ID | HEARD | TRIGGER',
  summary: 'removes a rule or snippet (by the id `list` shows, its heard text or its trigger)',
  async run(ctx, argv) {
    if (argv.length !== 1) throw new UsageError('expected one ID, heard text or trigger');
    if (!new RuleStore(ctx.dataDir).remove(argv[0] ?? '')) {
      ctx.stderr.write('error: no such rule or snippet (see `tingxie rules list`)\n');
      return EXIT_ERROR;
    }
    ctx.stdout.write(ctx.json ? `${JSON.stringify({ removed: argv[0] })}\n` : `removed ${argv[0]}\n`);
    return EXIT_OK;
  },
};

const importCmd: CliCommand = {
  name: 'import',
  args: 'FILE',
  summary: 'merges the rules and snippets of a file `rules export` wrote (same heard text / trigger: replaced)',
  async run(ctx, argv) {
    if (argv.length !== 1) throw new UsageError('expected one FILE');
    return attempt(ctx, () => {
      const r = new RuleStore(ctx.dataDir).importText(fs.readFileSync(argv[0] ?? '', 'utf8'));
      ctx.stdout.write(ctx.json ? `${JSON.stringify(r)}\n` : `imported ${r.added} new, ${r.replaced} replaced\n`);
      return EXIT_OK;
    });
  },
};

const exportCmd: CliCommand = {
  name: 'export',
  args: '[FILE]',
  summary: 'writes the rules and snippets as JSON to FILE (or prints them)',
  async run(ctx, argv) {
    if (argv.length > 1) throw new UsageError('expected at most one FILE');
    const text = new RuleStore(ctx.dataDir).exportText();
    if (argv[0] === undefined) {
      ctx.stdout.write(text);
      return EXIT_OK;
    }
    return attempt(ctx, () => {
      fs.writeFileSync(argv[0] ?? '', text);
      ctx.stdout.write(`exported to ${argv[0]}\n`);
      return EXIT_OK;
    });
  },
};

const apply: CliCommand = {
  name: 'apply',
  args: 'TEXT [--mode ID]',
  summary: 'prints TEXT after fillers, self-corrections, replacements and snippets, as a dictation gets it',
  options: { mode: { type: 'string', description: 'ID  the mode whose switches apply (default: ai_enhance.mode)' } },
  async run(ctx, argv, options) {
    if (argv.length !== 1) throw new UsageError('expected one TEXT (quote it)');
    const config = (await ConfigStore.open({ dataDir: ctx.dataDir, readOnly: true })).get();
    const mode = typeof options.mode === 'string' ? options.mode : config.ai_enhance.mode;
    const r = applyForDictation(new RuleStore(ctx.dataDir), config, mode, argv[0] ?? '');
    ctx.stdout.write(ctx.json ? `${JSON.stringify(r, null, 2)}\n` : `${r.text}\n`);
    return EXIT_OK;
  },
};

/** The `rules` command group. */
export const rulesGroup: CliGroup = {
  name: 'rules',
  summary: 'replacement rules and snippets applied to recognized text (text-rules.json), and `apply` to try them',
  commands: [list, add, remove, importCmd, exportCmd, apply],
};
