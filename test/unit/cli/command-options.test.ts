import { describe, expect, it } from 'vitest';
import { parseCommandOptions, parseGlobalArgs } from '../../../src/cli/main.ts';
import { UsageError, type CliCommand } from '../../../src/cli/types.ts';

const command: CliCommand = {
  name: 'list',
  args: '',
  summary: 'test command',
  options: {
    'include-archived': { type: 'boolean', description: 'flag' },
    limit: { type: 'string', description: 'valued' },
  },
  run: () => Promise.resolve(0),
};

describe('command options', () => {
  it('leaves command options (and negative numbers) to the command while taking the global ones', () => {
    const g = parseGlobalArgs(['history', 'list', '--limit', '5', '--json', '--data-dir', '/d', '--include-archived', '-3']);
    expect(g).toMatchObject({ dataDir: '/d', json: true });
    expect(g.positionals).toEqual(['history', 'list', '--limit', '5', '--include-archived', '-3']);
  });

  it('parses declared flags and values in both spellings, and keeps `--` literal', () => {
    expect(parseCommandOptions(command, ['a', '--limit=7', '--include-archived', '--', '--limit', 'b'])).toEqual({
      positionals: ['a', '--limit', 'b'],
      options: { limit: '7', 'include-archived': true },
    });
  });

  it('refuses unknown options, a flag given a value, and a missing value', () => {
    expect(() => parseCommandOptions(command, ['--limt', '3'])).toThrow(UsageError);
    expect(() => parseCommandOptions(command, ['--include-archived=yes'])).toThrow(/takes no value/);
    expect(() => parseCommandOptions(command, ['--limit'])).toThrow(/needs a value/);
    expect(() => parseCommandOptions(command, ['--__proto__'])).toThrow(/unknown option/);
  });
});
