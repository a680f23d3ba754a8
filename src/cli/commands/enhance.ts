import path from 'node:path';
import { contextWindowLookup } from '../../main/enhance/context-window.ts';
import { Enhancer, providerFromConfig, settingsFromConfig } from '../../main/enhance/enhancer.ts';
import { budgetReport, countLabel, type BudgetReport } from '../../main/enhance/request-builder.ts';
import { VOCABULARY_DB_FILE, VocabularyStore } from '../../main/enhance/vocabulary-store.ts';
import { HistoryService } from '../../main/history/history-service.ts';
import { ConfigStore } from '../../main/settings/config-store.ts';
import { inputContextLine } from '../../main/enhance/input-context-line.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import { pickRule, type RuleChoice } from '../../shared/config/app-rules.ts';
import { EXIT_ERROR, EXIT_OK, UsageError, type CliCommand, type CliContext, type CliGroup } from '../types.ts';

/**
 * `tingxie enhance [--dry-run] [--mode M] TEXT`: with --dry-run, print the exact request body the app
 * would send (first step of a chain); without, send it and print the result. Both use the data dir's
 * config, modes, history (JSONL + index, so older corrections are retrieved as in the app) and vocabulary. The CLI has no OS keyring (no Electron), so the provider's API
 * key is read from the environment: TINGXIE_API_KEY (or TINGXIE_API_KEY_<PROVIDER> in upper case).
 */

/** The text to enhance: one argument (quote it); `--` before it when it starts with `--` or is `modes`. */
function textArgument(argv: readonly string[]): string {
  if (argv.length === 0) throw new UsageError('missing TEXT');
  if (argv.length > 1) throw new UsageError('put the text in quotes');
  return argv[0] ?? '';
}

async function openEnhancer(ctx: CliContext): Promise<{ enhancer: Enhancer; config: Config; close: () => Promise<void> }> {
  const config = (await ConfigStore.open({ dataDir: ctx.dataDir, readOnly: true })).get();
  const lang = config.ui.language === 'en' ? 'en' : 'zh';
  // The CLI never logs a dictation; `enabled` only matters for log(). The index check runs inline so the
  // retrieval of older corrections sees the whole history, exactly as the app does once it is up.
  const history = await HistoryService.open({ dataDir: ctx.dataDir, enabled: config.history.enabled, rebuildInline: true, follow: false, warn: (m) => ctx.stderr.write(`warning: ${m}\n`) });
  let vocabulary: VocabularyStore | null = null;
  try {
    vocabulary = VocabularyStore.open(path.join(ctx.dataDir, VOCABULARY_DB_FILE));
  } catch (err) {
    ctx.stderr.write(`warning: vocabulary unavailable: ${(err as Error).message}\n`);
  }
  const env = ctx.env;
  const secrets = { get: (name: string) => env[`TINGXIE_API_KEY_${name.replace(/^provider:/, '').toUpperCase()}`] ?? env.TINGXIE_API_KEY };
  const enhancer = await Enhancer.open(
    { dataDir: ctx.dataDir, history: history.store, corrections: history, vocabulary, provider: (id) => providerFromConfig(config, secrets, id), log: (_l, m) => ctx.stderr.write(`${m}\n`), contextWindows: contextWindowLookup },
    settingsFromConfig(config, lang),
  );
  for (const i of enhancer.modeIssues) ctx.stderr.write(`warning: ${i.file}: ${i.message}\n`);
  await enhancer.correctionsLoaded();
  return {
    enhancer,
    config,
    close: async () => {
      enhancer.close();
      vocabulary?.close();
      await history.close();
    },
  };
}

const enhanceText: CliCommand = {
  name: 'text',
  args: '[--dry-run] [--mode M] [--app NAME [--title T]] TEXT',
  summary: 'enhance TEXT with the configured provider and print the result (raw text on any failure)',
  details: 'The API key comes from TINGXIE_API_KEY or TINGXIE_API_KEY_<PROVIDER>.',
  options: {
    'dry-run': { type: 'boolean', description: 'print the exact request body the app would send, send nothing' },
    mode: { type: 'string', description: 'the mode id (default: ai_enhance.mode)' },
    app: { type: 'string', description: 'dictate as into this app (name, bundle id, .exe or WM_CLASS): its app rule picks the mode' },
    title: { type: 'string', description: 'with --app: the window title the app rules see' },
  },
  async run(ctx, argv, options) {
    const text = textArgument(argv);
    const { enhancer, config, close } = await openEnhancer(ctx);
    try {
      const app = appOf(ctx, config, options);
      // --mode wins, as the mode keys win over a rule in the app.
      const mode = typeof options.mode === 'string' ? options.mode : app.rule?.mode;
      if (options['dry-run'] === true) return printRequest(ctx, await enhancer.buildRequest(text, mode, app.line), enhancer.currentModel, app.rule);
      const r = await enhancer.enhance({ text, ...(mode !== undefined ? { mode } : {}), ...(app.line !== '' ? { inputContext: app.line } : {}) });
      if (ctx.json) ctx.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
      else {
        ctx.stdout.write(`${r.text}\n`);
        if (r.reason) ctx.stderr.write(`${r.status}: ${r.reason.code}: ${r.reason.message}\n`);
      }
      return r.status === 'fallback' ? EXIT_ERROR : EXIT_OK;
    } finally {
      await close();
    }
  },
};

/** `--app NAME [--title T]`: the app rule it matches (said on stderr) and the prompt's input-context line. */
function appOf(ctx: CliContext, config: Config, options: Readonly<Record<string, unknown>>): { readonly rule: RuleChoice | null; readonly line: string } {
  if (typeof options.app !== 'string') return { rule: null, line: '' };
  const who = { app_name: options.app, bundle_id: options.app, ...(typeof options.title === 'string' ? { window_title: options.title } : {}) };
  const rule = pickRule(config.app_rules, who);
  if (!ctx.json) {
    const output = rule === null ? '' : [rule.method, rule.submit !== undefined ? `submit ${rule.submit}` : undefined].filter(Boolean).join(', ');
    ctx.stderr.write(rule === null ? `app rule: none matches ${options.app} (mode ${config.ai_enhance.mode})\n` : `app rule ${rule.index + 1}: ${rule.label} → ${rule.mode ?? config.ai_enhance.mode}${output !== '' ? ` (${output})` : ''}\n`);
  }
  return { rule, line: inputContextLine(who, config.ai_enhance.input_context) };
}

function printRequest(ctx: CliContext, built: Awaited<ReturnType<Enhancer['buildRequest']>>, model: string, rule: RuleChoice | null = null): number {
  if (!built) {
    ctx.stderr.write('error: no enhancement mode could be loaded\n');
    return EXIT_ERROR;
  }
  const budget = budgetReport(model, built.request);
  if (ctx.json) ctx.stdout.write(`${JSON.stringify({ mode: built.mode.id, ...(rule !== null ? { rule } : {}), steps: built.steps.map((s) => s.id), promptTokens: built.request.promptTokens, promptTokensMethod: countLabel(built.request.tokenMethod), budget, body: built.request.body }, null, 2)}\n`);
  else {
    ctx.stdout.write(`${JSON.stringify(built.request.body, null, 2)}\n`);
    // The body stays pipeable on stdout; the budget report goes to stderr.
    ctx.stderr.write(budgetText(budget));
  }
  return EXIT_OK;
}

/** The budget report as lines (seed 002: history tokens, max, remaining). */
export function budgetText(b: BudgetReport): string {
  const how = b.method === 'exact' ? `exact (${b.tokenizer} tokenizer)` : 'estimate (no tokenizer known for this model)';
  const dropped = [
    b.dropped.historyLines > 0 ? `${b.dropped.historyLines} oldest history lines` : '',
    b.dropped.retrieved > 0 ? `${b.dropped.retrieved} retrieved corrections` : '',
    b.dropped.vocabularyPairs > 0 ? `${b.dropped.vocabularyPairs} vocabulary pairs` : '',
  ].filter((s) => s !== '');
  return [
    `budget: ${b.model}, tokens ${how}`,
    `  system prompt   ${b.systemTokens}`,
    `  history         ${b.historyTokens} (${b.historyLines} lines)`,
    `  vocabulary      ${b.vocabularyTokens} (${b.vocabularyPairs} pairs)`,
    `  tail            ${b.tailTokens} (${b.retrieved} retrieved corrections, input context)`,
    `  input           ${b.inputTokens} (+${b.overheadTokens} message overhead)`,
    `  prompt          ${b.promptTokens} (${b.method === 'exact' ? 'exact' : 'estimate'})`,
    `  max output      ${b.maxOutputTokens} (from the ${b.requestCount.method === 'exact' ? 'exact' : b.requestCount.method === 'bound' ? 'byte upper bound of the' : 'estimated'} prompt count ${b.requestCount.tokens}, at most max_output_tokens)`,
    `  context window  ${b.window} (${b.windowSource})`,
    `  remaining       ${b.remaining} of the prompt budget ${b.budget}`,
    `  dropped         ${dropped.length > 0 ? dropped.join(', ') : 'nothing'}`,
    '',
  ].join('\n');
}

const modes: CliCommand = {
  name: 'modes',
  args: '',
  summary: 'list the enhancement modes (creating missing built-ins) and any broken mode files',
  async run(ctx) {
    const { enhancer, close } = await openEnhancer(ctx);
    try {
      for (const m of enhancer.modes) ctx.stdout.write(`${m.id}\t${m.label}${m.steps ? `\t(${m.steps.join(' → ')})` : ''}\n`);
      return enhancer.modeIssues.length > 0 ? EXIT_ERROR : EXIT_OK;
    } finally {
      await close();
    }
  },
};

/** The `enhance` command group. */
export const enhanceGroup: CliGroup = {
  name: 'enhance',
  summary: 'run or inspect the AI enhancement step',
  defaultCommand: 'text',
  commands: [enhanceText, modes],
};
