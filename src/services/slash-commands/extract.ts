/**
 * The slash commands Forge knows, as GitLab 8.12's `SlashCommands::InterpretService` listed them.
 * Every one of them is taken out of the text it is found in, whether the caller may run it or not
 * (8.12's extractor knew the names, not the conditions); the interpreter decides what runs.
 */
export const COMMAND_NAMES = [
  'close',
  'reopen',
  'title',
  'assign',
  'unassign',
  'milestone',
  'remove_milestone',
  'label',
  'unlabel',
  'relabel',
  'todo',
  'done',
  'subscribe',
  'unsubscribe',
  'due',
  'remove_due_date',
  'wip',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

/** One command as written: its name and its argument, trimmed ('' when none was given). */
export interface Command {
  name: CommandName;
  arg: string;
}

/**
 * 8.12's `Gitlab::SlashCommands::Extractor`, in one regular expression: a fenced code block, an
 * HTML block or a `>>>` quote is matched whole and kept as it is, so a command inside one is text;
 * elsewhere a line that starts with `/name`, followed by a space and an argument or by the end of
 * the line, is a command. Names are case-sensitive (`/Close` is text), a command must start its
 * line (`see /close` is text), and an argument holds no `/` (`/title a/b` is text, as in 8.12).
 */
const names = COMMAND_NAMES.join('|');
const COMMANDS = new RegExp(
  [
    '(?<code>^```.+?\\n```$)',
    '(?<html>^<[^>]+?>\\n.+?\\n<\\/[^>]+?>$)',
    '(?<quote>^>>>.+?\\n>>>$)',
    `(?:^\\/(?<cmd>${names})(?: (?<arg>[^\\/\\n]*))?(?:\\n|$))`,
  ].join('|'),
  'gms',
);

/**
 * The commands of a text and the text without them. As in 8.12, carriage returns go and the rest
 * is trimmed; a text without commands comes back exactly as it was given.
 */
export function extractCommands(text: string): { text: string; commands: Command[] } {
  const commands: Command[] = [];
  const rest = text.replace(/\r/g, '').replace(COMMANDS, (whole, ...groups) => {
    const named = groups.at(-1) as { cmd?: string; arg?: string };
    if (named.cmd === undefined) return whole;
    commands.push({ name: named.cmd as CommandName, arg: (named.arg ?? '').trim() });
    return '';
  });
  return commands.length === 0 ? { text, commands } : { text: rest.trim(), commands };
}
