/** Shared types of the `tingxie` command line. */

/** Exit codes: 0 success, 1 the command failed, 2 the command line was wrong, 3 done but incomplete. */
export const EXIT_OK = 0;
/** The command ran and failed (bad value, unreadable file…). */
export const EXIT_ERROR = 1;
/** The command line itself was wrong (unknown command or option, missing argument). */
export const EXIT_USAGE = 2;
/** The command did its work, but some of the data could not be read (named on stderr): the output is incomplete. */
export const EXIT_PARTIAL = 3;

/** A mistake in the command line; main prints it with the usage and exits with EXIT_USAGE. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Where a command writes; a stream-like sink so tests can capture output. */
export interface CliOutput {
  write(chunk: string): unknown;
}

/** What every command gets: global options already applied. */
export interface CliContext {
  readonly dataDir: string;
  /** --json: machine-readable output where the command supports it. */
  readonly json: boolean;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly env: NodeJS.ProcessEnv;
}

/** One subcommand, e.g. `config set`. */
export interface CliCommand {
  readonly name: string;
  /** Argument synopsis shown in help, e.g. 'KEY VALUE'. */
  readonly args: string;
  readonly summary: string;
  /** Longer help text (optional). */
  readonly details?: string;
  /**
   * Options this command accepts (name without `--`). When declared, main parses them and refuses
   * unknown ones; when absent, the command gets its raw arguments (options included) in `argv`.
   */
  readonly options?: Readonly<Record<string, CliOptionSpec>>;
  /** Runs with the positional arguments after the subcommand (and the parsed options); returns the exit code. */
  readonly run: (ctx: CliContext, argv: readonly string[], options: CliOptionValues) => Promise<number>;
}

/** One command option: a flag, or one that takes a value. */
export interface CliOptionSpec {
  readonly type: 'boolean' | 'string';
  /** One line for the help text, e.g. 'local|remote  which engine to use'. */
  readonly description: string;
}

/** Parsed option values by name: `true` for a flag, the text for a valued option. */
export type CliOptionValues = Readonly<Record<string, string | boolean | undefined>>;

/** A command group, e.g. `config` with get/set/path/issues; one file under src/cli/commands/ each. */
export interface CliGroup {
  readonly name: string;
  readonly summary: string;
  /** The command to run when no subcommand name follows the group (e.g. `tingxie transcribe FILE`). */
  readonly defaultCommand?: string;
  readonly commands: readonly CliCommand[];
}
