import { commandList, runCommand, type Command } from '../command';
import { createUser } from './create-user';
import { resetPassword } from './reset-password';
import { makeAdmin } from './make-admin';
import { block, unblock } from './block';
import { runnersToken } from './runners-token';
import { check } from './check';

const commands: Command[] = [createUser, resetPassword, makeAdmin, block, unblock, runnersToken, check];

const HELP = `usage: forge admin <command> [options]

Acts on the instance the server's settings name (DATA_DIR, DATABASE_URL: see forge --help),
through the same services as the API. It says which instance on stderr, and never creates one.

Commands:
${commandList(commands)}

forge admin <command> --help describes a command and its options.`;

export const ADMIN_SUMMARY = 'administer an instance: users, passwords, runners token, health check';

/** `forge admin <command> …`: the administrator's commands, each a file of this folder. */
export async function runAdmin(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(`${HELP}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    process.stderr.write(`forge admin: no command "${name}"\n\n${HELP}\n`);
    return 2;
  }
  return runCommand(`forge admin ${name}`, command, rest);
}
