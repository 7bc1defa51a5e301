import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ApiError } from '../errors';
import { ConfigError } from '../config';

/*
 * What every `forge` command is made of: a name, a one-line summary for `forge --help`, its help
 * text, its options (node:util's parseArgs) and what it does. Exit codes: 0 done, 1 failed, 2 used
 * wrongly (an unknown option, a missing argument).
 */

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export interface Command {
  name: string;
  summary: string;
  /** `forge <name> --help`: the usage line first, then what it does and every option. */
  help: string;
  options?: Options;
  /** How many arguments it takes besides options. */
  positionals?: { min: number; max: number };
  run(parsed: Parsed): Promise<number>;
}

/** A failure the person at the terminal can act on: printed as one line, exit 1. */
export class CommandError extends Error {}

/** The command was used wrongly: the message and the usage line, exit 2. */
export class UsageError extends Error {}

/** Runs `command` with its arguments: `--help`, parsing, then its work, and the exit code. */
export async function runCommand(prefix: string, command: Command, argv: string[]): Promise<number> {
  let parsed: Parsed;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      process.stdout.write(`${command.help.trimEnd()}\n`);
      return 0;
    }
    const { min, max } = command.positionals ?? { min: 0, max: 0 };
    if (positionals.length < min) throw new UsageError(`missing argument`);
    if (positionals.length > max) throw new UsageError(`unexpected argument "${positionals[max]}"`);
    parsed = { values: values as Parsed['values'], positionals };
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS'))
      return misused(prefix, command, error as Error);
    throw error;
  }
  try {
    return await command.run(parsed);
  } catch (error) {
    if (error instanceof UsageError) return misused(prefix, command, error);
    const line = failureLine(error);
    if (line === undefined) throw error;
    process.stderr.write(`${prefix}: ${line}\n`);
    return 1;
  }
}

/** The message, the usage line and where to read more; exit 2. */
function misused(prefix: string, command: Command, error: Error): number {
  process.stderr.write(`${prefix}: ${error.message}\n${command.help.split('\n')[0]}\n(${prefix} --help for more)\n`);
  return 2;
}

/** One line for a failure a person can act on; undefined for a bug (its stack is worth seeing). */
export function failureLine(error: unknown): string | undefined {
  if (error instanceof CommandError) return error.message;
  if (error instanceof ConfigError) return `configuration error: ${error.message}`;
  if (error instanceof ApiError) return apiMessage(error);
  return undefined;
}

/** A service's refusal as the API would word it, on one line (`password: is too short (minimum is 8 characters)`). */
function apiMessage(error: ApiError): string {
  const message = (error.body as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object') {
    return Object.entries(message as Record<string, string[]>)
      .map(([field, texts]) => `${field} ${texts.join(', ')}`)
      .join('; ');
  }
  return `failed (${error.status})`;
}

/** `forge --help`'s list: each command's name and summary, aligned. */
export function commandList(commands: Array<Pick<Command, 'name' | 'summary'>>): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2;
  return commands.map((command) => `  ${command.name.padEnd(width)}${command.summary}`).join('\n');
}
