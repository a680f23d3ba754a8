import path from 'node:path';
import { CONFIG_FILE, ConfigStore, ConfigValidationError } from '../../main/settings/config-store.ts';
import { adoptFoundSecrets } from '../../main/settings/found-secrets.ts';
import { SECRETS_FILE, SecretStore, type SafeStorageLike } from '../../main/settings/secrets.ts';
import { EXIT_ERROR, EXIT_OK, UsageError, type CliCommand, type CliContext, type CliGroup } from '../types.ts';

/** Plain Node has no safeStorage: the secret store sees no keyring. */
const NO_KEYRING: SafeStorageLike = {
  isEncryptionAvailable: () => false,
  encryptString: () => {
    throw new Error('no OS keyring from the command line');
  },
  decryptString: () => {
    throw new Error('no OS keyring from the command line');
  },
};

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
  details:
    'API keys are refused here: they never go into config.json. Keys found in config.json (e.g. from WenZi) are moved ' +
    'to the secret store (secrets.json, mode 0600; the app encrypts them with the OS keyring when it can) before the file is saved.',
  async run(ctx, argv) {
    expectArgs(argv, ['KEY', 'VALUE']);
    const [key, raw] = argv as [string, string];
    const store = await ConfigStore.open({
      dataDir: ctx.dataDir,
      keepSecrets: async (found, config) => {
        // The command line has no OS keyring (that is Electron's safeStorage): adopt() keeps the key on disk, private.
        const secrets = await SecretStore.open({ file: path.join(ctx.dataDir, SECRETS_FILE), safeStorage: NO_KEYRING, plaintextConsent: config.secrets.plaintext_consent });
        await adoptFoundSecrets(found, config, secrets, (message, fields) => ctx.stderr.write(`note: ${message} (${String(fields.name)})\n`));
      },
    });
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
