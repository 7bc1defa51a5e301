import { commandList, runCommand, type Command } from './command';
import { serve } from './serve';
import { migrate } from './migrate';
import { backup } from './backup';
import { restore } from './restore';
import { ADMIN_SUMMARY, runAdmin } from './admin/index';
import { RUNNER_SUMMARY, runRunner } from './runner';
import { SETTINGS_HELP } from './settings';

/*
 * `forge …` (npx forge, npm start, node dist/main.js): the command line. `forge` alone serves.
 * Each command is a file of this folder; this picks one and gives back its exit code.
 */

const commands: Command[] = [serve, migrate, backup, restore];
/** `admin` and `runner` have commands (and options) of their own. */
const groups = [
  { name: 'admin', summary: ADMIN_SUMMARY },
  { name: 'runner', summary: RUNNER_SUMMARY },
];

const HELP = `usage: forge [command] [options]

Forge, a self-hostable code-hosting server speaking GitLab's API v4 and 8.12's API v3, with both runner APIs (v4 and v1) and web pages.

Commands:
${commandList([serve, ...groups, migrate, backup, restore])}

\`forge\` alone runs \`forge serve\`. \`forge <command> --help\` (and \`forge admin <command> --help\`) describes a command and its options.

${SETTINGS_HELP}`;

/** Runs the command `argv` names (process.argv without node and the script); resolves with the exit code. */
export async function runCommandLine(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (name === 'admin') return runAdmin(rest);
  if (name === 'runner') return runRunner(rest);
  // `forge` alone, or `forge --some-option`, is `forge serve`.
  const command = name === undefined || name.startsWith('-') ? serve : commands.find((candidate) => candidate.name === name);
  if (!command) {
    process.stderr.write(`forge: no command "${name}"\n\n${HELP}\n`);
    return 2;
  }
  return runCommand(`forge ${command.name}`, command, command === serve && name !== 'serve' ? argv : rest);
}
