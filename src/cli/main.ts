import path from 'node:path';
import { defaultDataDir } from '../main/settings/data-dir.ts';
import { COMMAND_GROUPS } from './registry.ts';
import { EXIT_ERROR, EXIT_OK, EXIT_USAGE, UsageError, type CliCommand, type CliContext, type CliGroup, type CliOptionValues, type CliOutput } from './types.ts';

/** Global options, valid anywhere on the command line (before a `--`). */
interface GlobalOptions {
  dataDir: string | undefined;
  json: boolean;
  help: boolean;
  /** Everything that is not a global option, in order: command words, arguments, command options, `--`. */
  positionals: string[];
}

/**
 * Pulls the global options out of argv. Other `--options` stay in place for the command, which either
 * declares them (checked in {@link parseCommandOptions}) or parses its raw argv itself; a `--` is kept so
 * the command still sees where literal arguments begin.
 */
export function parseGlobalArgs(argv: readonly string[]): GlobalOptions {
  const out: GlobalOptions = { dataDir: undefined, json: false, help: false, positionals: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      out.positionals.push(...argv.slice(i));
      break;
    }
    if (a === '--data-dir') {
      const v = argv[i + 1];
      if (v === undefined || v === '') throw new UsageError('--data-dir needs a folder');
      out.dataDir = v;
      i++;
    } else if (a.startsWith('--data-dir=')) {
      const v = a.slice('--data-dir='.length);
      if (v === '') throw new UsageError('--data-dir needs a folder');
      out.dataDir = v;
    } else if (a === '--json') {
      out.json = true;
    } else if (a === '--help' || a === '-h') {
      out.help = true;
    } else if (/^-[A-Za-z]/.test(a)) {
      // Short options are not used; negative numbers (-5) are values and pass through.
      throw new UsageError(`unknown option '${a}'`);
    } else {
      out.positionals.push(a);
    }
  }
  return out;
}

/** A command's arguments split by its declared options: `--flag`, `--name VALUE` or `--name=VALUE`. */
export function parseCommandOptions(
  command: CliCommand,
  tokens: readonly string[],
): { positionals: string[]; options: CliOptionValues } {
  const declared = command.options ?? {};
  const positionals: string[] = [];
  const options: Record<string, string | boolean> = {};
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === '--') {
      positionals.push(...tokens.slice(i + 1));
      break;
    }
    if (!token.startsWith('--')) {
      positionals.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const name = token.slice(2, eq === -1 ? undefined : eq);
    const spec = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (spec === undefined) throw new UsageError(`unknown option '--${name}'`);
    if (spec.type === 'boolean') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      options[name] = true;
    } else {
      const value = eq === -1 ? tokens[++i] : token.slice(eq + 1);
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      options[name] = value;
    }
  }
  return { positionals, options };
}

/** Help for the whole program, a group, or one command. */
export function helpText(group?: CliGroup, command?: CliCommand): string {
  if (group !== undefined && command !== undefined) {
    const words = group.defaultCommand === command.name ? group.name : `${group.name} ${command.name}`;
    const lines = [`usage: tingxie ${words}${command.args === '' ? '' : ` ${command.args}`} [--data-dir DIR] [--json]`, '', command.summary];
    const options = Object.entries(command.options ?? {});
    if (options.length > 0) {
      const width = Math.max(...options.map(([name]) => name.length)) + 2;
      lines.push('', 'options:', ...options.map(([name, spec]) => `  ${`--${name}`.padEnd(width)}  ${spec.description}`));
    }
    if (command.details !== undefined) lines.push('', command.details);
    return `${lines.join('\n')}\n`;
  }
  if (group !== undefined) {
    const width = Math.max(...group.commands.map((c) => `${c.name} ${c.args}`.length));
    const rows = group.commands.map((c) => `  ${`${c.name} ${c.args}`.padEnd(width)}  ${c.summary}`);
    return `usage: tingxie ${group.name} COMMAND [--data-dir DIR] [--json]\n\n${group.summary}\n\ncommands:\n${rows.join('\n')}\n`;
  }
  const words = (g: CliGroup, c: CliCommand): string => (g.defaultCommand === c.name ? g.name : `${g.name} ${c.name}`);
  const rows = COMMAND_GROUPS.flatMap((g) => g.commands.map((c) => `  ${`${words(g, c)} ${c.args}`.trimEnd().padEnd(28)}  ${c.summary}`));
  return [
    'usage: tingxie [--data-dir DIR] [--json] COMMAND [ARGS]',
    '',
    'Tingxie (听写) from the command line, over the same files as the app.',
    '',
    'commands:',
    ...rows,
    `  ${'help [COMMAND]'.padEnd(28)}  show help for a command`,
    '',
    'options:',
    `  --data-dir DIR   the app-data folder (default: ${defaultDataDir()})`,
    '  --json           machine-readable output where supported',
    '  -h, --help       show help',
    '',
    'exit codes: 0 ok, 1 error, 2 wrong command line, 3 done but some history could not be read',
    '',
  ].join('\n');
}

/** Streams the CLI writes to (injectable for tests). */
export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly env: NodeJS.ProcessEnv;
}

function findGroup(name: string | undefined): CliGroup | undefined {
  return COMMAND_GROUPS.find((g) => g.name === name);
}

/** Runs the CLI with argv (without node and script) and returns the exit code; never throws. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let opts: GlobalOptions;
  try {
    opts = parseGlobalArgs(argv);
  } catch (err) {
    io.stderr.write(`tingxie: ${(err as Error).message}\nrun 'tingxie --help' for usage\n`);
    return EXIT_USAGE;
  }
  let [first, second, ...rest] = opts.positionals;
  let help = opts.help;
  if (first === 'help') {
    help = true;
    [first, second, ...rest] = opts.positionals.slice(1);
  }
  if (first === undefined) {
    (help ? io.stdout : io.stderr).write(helpText());
    return help ? EXIT_OK : EXIT_USAGE;
  }
  const group = findGroup(first);
  if (group === undefined) {
    io.stderr.write(`tingxie: unknown command '${first}'\nrun 'tingxie --help' for usage\n`);
    return EXIT_USAGE;
  }
  let command = group.commands.find((c) => c.name === second);
  if (command === undefined && group.defaultCommand !== undefined && !(help && second === undefined && group.commands.length > 1)) {
    // `tingxie transcribe FILE`: the group is the command; what followed the group name are its arguments.
    command = group.commands.find((c) => c.name === group.defaultCommand);
    rest = second === undefined ? rest : [second, ...rest];
  }
  if (command === undefined) {
    if (help && second === undefined) {
      io.stdout.write(helpText(group));
      return EXIT_OK;
    }
    io.stderr.write(`${second === undefined ? `tingxie ${group.name}: missing command` : `tingxie ${group.name}: unknown command '${second}'`}\n\n${helpText(group)}`);
    return EXIT_USAGE;
  }
  if (help) {
    io.stdout.write(helpText(group, command));
    return EXIT_OK;
  }
  const ctx: CliContext = {
    dataDir: path.resolve(opts.dataDir ?? defaultDataDir(io.env)),
    json: opts.json,
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env,
  };
  try {
    if (command.options === undefined) return await command.run(ctx, rest, {});
    const parsed = parseCommandOptions(command, rest);
    return await command.run(ctx, parsed.positionals, parsed.options);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`tingxie ${group.name} ${command.name}: ${err.message}\n\n${helpText(group, command)}`);
      return EXIT_USAGE;
    }
    io.stderr.write(`tingxie ${group.name} ${command.name}: ${(err as Error)?.message ?? String(err)}\n`);
    return EXIT_ERROR;
  }
}
