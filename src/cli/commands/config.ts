import path from 'node:path';
import { CONFIG_FILE, ConfigStore, ConfigValidationError } from '../../main/settings/config-store.ts';
import { EXIT_ERROR, EXIT_OK, UsageError, type CliCommand, type CliContext, type CliGroup } from '../types.ts';

/** Reads a VALUE argument: JSON where it parses (true, 10, "x", {"a":1}), else the raw string. */
export function parseCliValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function expectArgs(argv: readonly string[], names: readonly string[]): void {
  if (argv.length < names.length) throw new UsageError(`missing ${names.slice(argv.length).join(' ')}`);
  if (argv.length > names.length) throw new UsageError(`unexpected argument '${argv[names.length]}'`);
}

function printJson(ctx: CliContext, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function warnIssues(ctx: CliContext, store: ConfigStore): void {
  if (store.loadIssues.length > 0) {
    ctx.stderr.write(`warning: ${store.loadIssues.length} problem(s) in ${store.path}; defaults used for those fields (see: tingxie config issues)\n`);
  }
}

/** Prints a ConfigValidationError (or rethrows anything else). */
function reportConfigError(ctx: CliContext, err: unknown): number {
  if (err instanceof ConfigValidationError) {
    ctx.stderr.write(`error: ${err.message}\n`);
    return EXIT_ERROR;
  }
  throw err;
}

const get: CliCommand = {
  name: 'get',
  args: 'KEY',
  summary: 'print the value of a setting as JSON (KEY like ai_enhance.conversation_history.enabled)',
  async run(ctx, argv) {
    expectArgs(argv, ['KEY']);
    const store = await ConfigStore.open({ dataDir: ctx.dataDir, readOnly: true });
    warnIssues(ctx, store);
    try {
      const value = store.getAt(argv[0] as string);
      printJson(ctx, value === undefined ? null : value);
      return EXIT_OK;
    } catch (err) {
      return reportConfigError(ctx, err);
    }
  },
};

const set: CliCommand = {
  name: 'set',
  args: 'KEY VALUE',
  summary: 'validate and save a setting (VALUE is read as JSON where it parses, e.g. true or 10, else as text)',
  details: 'API keys are refused here: they never go into config.json.',
  async run(ctx, argv) {
    expectArgs(argv, ['KEY', 'VALUE']);
    const [key, raw] = argv as [string, string];
    const store = await ConfigStore.open({ dataDir: ctx.dataDir });
    warnIssues(ctx, store);
    try {
      await store.set(key, parseCliValue(raw));
    } catch (err) {
      return reportConfigError(ctx, err);
    }
    const value = store.getAt(key);
    if (ctx.json) printJson(ctx, { key, value });
    else ctx.stdout.write(`${key} = ${JSON.stringify(value)}\n`);
    return EXIT_OK;
  },
};

const pathCmd: CliCommand = {
  name: 'path',
  args: '',
  summary: 'print where config.json is',
  async run(ctx, argv) {
    expectArgs(argv, []);
    // No open(): printing the path must not create or repair anything.
    const file = path.join(ctx.dataDir, CONFIG_FILE);
    if (ctx.json) printJson(ctx, { path: file });
    else ctx.stdout.write(`${file}\n`);
    return EXIT_OK;
  },
};

const issues: CliCommand = {
  name: 'issues',
  args: '',
  summary: 'list the settings that could not be used as written (exit 0 either way)',
  async run(ctx, argv) {
    expectArgs(argv, []);
    const store = await ConfigStore.open({ dataDir: ctx.dataDir, readOnly: true });
    if (ctx.json) {
      printJson(ctx, store.loadIssues);
    } else if (store.loadIssues.length === 0) {
      ctx.stdout.write(`no problems in ${store.path}\n`);
    } else {
      for (const i of store.loadIssues) ctx.stdout.write(`${i.path === '' ? '(file)' : i.path}: ${i.message}\n`);
    }
    return EXIT_OK;
  },
};

/** `tingxie config …` */
export const configGroup: CliGroup = {
  name: 'config',
  summary: 'read and change settings in config.json',
  commands: [get, set, pathCmd, issues],
};
