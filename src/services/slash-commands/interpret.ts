import type { Command } from './extract';
import { parseDueDate } from './due-date';

/** What the commands see of the issue or merge request they act on, and what the caller may do to it. */
export interface Target {
  type: 'Issue' | 'MergeRequest';
  /** False while the issuable is being created (commands in a new description). */
  persisted: boolean;
  /** opened or reopened. */
  open: boolean;
  closed: boolean;
  title: string;
  assigneeId: number | null;
  milestoneId: number | null;
  labelIds: number[];
  /** Issues only; undefined on a merge request. */
  dueDate?: string | null;
  /** `update_issue`/`update_merge_request` on it (its author and assignee too). */
  mayUpdate: boolean;
  /** `admin_issue`/`admin_merge_request` on the project: assignee, milestone, labels, due date. */
  mayAdmin: boolean;
  hasPendingTodo: boolean;
  subscribed: boolean;
  /** The merge request's title marks it as work in progress. */
  workInProgress?: boolean;
}

/** What the project offers the commands, read once before they are interpreted. */
export interface Vocabulary {
  labels: { id: number; title: string }[];
  milestones: { id: number; iid: number; title: string; state: string }[];
  /** The id of the user of that username, if there is one. */
  userId(username: string): Promise<number | undefined>;
}

/**
 * The changes the commands ask for, under the names GitLab gave the update's parameters (and the
 * API answers them as `commands_changes`, as later GitLab's notes API did).
 */
export interface CommandsChanges {
  state_event?: 'close' | 'reopen';
  title?: string;
  assignee_id?: number | null;
  milestone_id?: number | null;
  /** Every label the issuable is to carry (`/relabel`, or `/unlabel` without labels: none). */
  label_ids?: number[];
  add_label_ids?: number[];
  remove_label_ids?: number[];
  todo_event?: 'add' | 'done';
  subscription_event?: 'subscribe' | 'unsubscribe';
  due_date?: string | null;
  wip_event?: 'wip' | 'unwip';
}

/**
 * GitLab 8.12's `SlashCommands::InterpretService`: each command whose condition holds for the
 * caller and the issuable adds to the changes, in order; the others are ignored. The conditions
 * are 8.12's: closing, reopening, the title and WIP for those who may update the issuable (its
 * author and assignee too); the assignee, milestone, labels and due date for those who administer
 * the project's issues or merge requests (reporters for issues, developers for merge requests);
 * todos and subscriptions for anyone who reads it. A new issuable takes only `/assign`,
 * `/milestone`, `/label` and `/due`.
 */
export async function interpretCommands(commands: Command[], target: Target, vocabulary: Vocabulary): Promise<CommandsChanges> {
  const changes: CommandsChanges = {};
  const persisted = target.persisted;
  const addAll = (key: 'label_ids' | 'add_label_ids' | 'remove_label_ids', ids: number[]) => {
    if (ids.length) changes[key] = [...new Set([...(changes[key] ?? []), ...ids])];
  };
  for (const { name, arg } of commands) {
    switch (name) {
      case 'close':
        if (persisted && target.open && target.mayUpdate) changes.state_event = 'close';
        break;
      case 'reopen':
        if (persisted && target.closed && target.mayUpdate) changes.state_event = 'reopen';
        break;
      case 'title':
        if (persisted && target.mayUpdate && arg !== '') changes.title = arg;
        break;
      case 'assign': {
        if (!target.mayAdmin) break;
        const username = /^@?([\w.+-]+)/.exec(arg)?.[1];
        const userId = username === undefined ? undefined : await vocabulary.userId(username);
        if (userId !== undefined) changes.assignee_id = userId;
        break;
      }
      case 'unassign':
        if (persisted && target.assigneeId !== null && target.mayAdmin) changes.assignee_id = null;
        break;
      case 'milestone': {
        if (!target.mayAdmin || !vocabulary.milestones.some((milestone) => milestone.state === 'active')) break;
        const milestone = findMilestone(vocabulary.milestones, arg);
        if (milestone) changes.milestone_id = milestone.id;
        break;
      }
      case 'remove_milestone':
        if (persisted && target.milestoneId !== null && target.mayAdmin) changes.milestone_id = null;
        break;
      case 'label':
        if (target.mayAdmin && vocabulary.labels.length > 0) addAll('add_label_ids', findLabelIds(vocabulary.labels, arg));
        break;
      case 'unlabel':
        if (!persisted || target.labelIds.length === 0 || !target.mayAdmin) break;
        if (arg === '') changes.label_ids = [];
        else addAll('remove_label_ids', findLabelIds(vocabulary.labels, arg));
        break;
      case 'relabel':
        if (persisted && target.labelIds.length > 0 && target.mayAdmin) addAll('label_ids', findLabelIds(vocabulary.labels, arg));
        break;
      case 'todo':
        if (persisted && !target.hasPendingTodo) changes.todo_event = 'add';
        break;
      case 'done':
        if (persisted && target.hasPendingTodo) changes.todo_event = 'done';
        break;
      case 'subscribe':
        if (persisted && !target.subscribed) changes.subscription_event = 'subscribe';
        break;
      case 'unsubscribe':
        if (persisted && target.subscribed) changes.subscription_event = 'unsubscribe';
        break;
      case 'due': {
        if (target.type !== 'Issue' || !target.mayAdmin) break;
        const date = parseDueDate(arg);
        if (date !== undefined) changes.due_date = date;
        break;
      }
      case 'remove_due_date':
        if (persisted && target.type === 'Issue' && target.dueDate && target.mayAdmin) changes.due_date = null;
        break;
      case 'wip':
        if (persisted && target.type === 'MergeRequest' && target.mayUpdate) changes.wip_event = target.workInProgress ? 'unwip' : 'wip';
        break;
    }
  }
  return changes;
}

/** The label ids an argument names: `~title`, `~"title with spaces"` or `~id` references, and bare words that are titles (8.12's `find_label_ids`). */
export function findLabelIds(labels: Vocabulary['labels'], arg: string): number[] {
  const byTitle = new Map(labels.map((label) => [label.title, label.id]));
  const byId = new Set(labels.map((label) => label.id));
  const ids: number[] = [];
  for (const match of arg.matchAll(/~(?:"([^"]+)"|(\d+)\b|([^\s~"]+))/g)) {
    const [, quoted, id, word] = match;
    if (quoted !== undefined && byTitle.has(quoted)) ids.push(byTitle.get(quoted)!);
    else if (id !== undefined && byId.has(Number(id))) ids.push(Number(id));
    else if (id !== undefined && byTitle.has(id)) ids.push(byTitle.get(id)!);
    else if (word !== undefined && byTitle.has(word)) ids.push(byTitle.get(word)!);
  }
  for (const word of arg.split(/\s+/)) if (byTitle.has(word)) ids.push(byTitle.get(word)!);
  return [...new Set(ids)];
}

/** The milestone an argument names: `%"title"`, `%title`, `%iid`, or its title as written (8.12's milestone references, then `find_by(title:)`). */
function findMilestone(milestones: Vocabulary['milestones'], arg: string) {
  const reference = /^%(?:"([^"]+)"|(\d+)$|(\S+)$)/.exec(arg);
  if (reference?.[1] !== undefined || reference?.[3] !== undefined) {
    const title = reference[1] ?? reference[3];
    const found = milestones.find((milestone) => milestone.title === title);
    if (found) return found;
  }
  if (reference?.[2] !== undefined) {
    const found = milestones.find((milestone) => milestone.iid === Number(reference[2]));
    if (found) return found;
  }
  return milestones.find((milestone) => milestone.title === arg);
}

/** What the changes did, one sentence each, for the answer to a note of commands only. */
export function summarize(changes: CommandsChanges, target: Pick<Target, 'type'>, labels: Vocabulary['labels']): string[] {
  const noun = target.type === 'Issue' ? 'issue' : 'merge request';
  const titles = (ids: number[]) =>
    ids
      .map((id) => labels.find((label) => label.id === id)?.title ?? String(id))
      .map((title) => (/\s/.test(title) ? `~"${title}"` : `~${title}`))
      .join(' ');
  const lines: string[] = [];
  if (changes.state_event === 'close') lines.push(`Closed this ${noun}.`);
  if (changes.state_event === 'reopen') lines.push(`Reopened this ${noun}.`);
  if (changes.title !== undefined) lines.push(`Changed the title to "${changes.title}".`);
  if (changes.assignee_id === null) lines.push('Removed the assignee.');
  else if (changes.assignee_id !== undefined) lines.push('Changed the assignee.');
  if (changes.milestone_id === null) lines.push('Removed the milestone.');
  else if (changes.milestone_id !== undefined) lines.push('Set the milestone.');
  if (changes.add_label_ids) lines.push(`Added ${titles(changes.add_label_ids)}.`);
  if (changes.remove_label_ids) lines.push(`Removed ${titles(changes.remove_label_ids)}.`);
  if (changes.label_ids)
    lines.push(changes.label_ids.length ? `Replaced all labels with ${titles(changes.label_ids)}.` : 'Removed all labels.');
  if (changes.todo_event === 'add') lines.push('Added a todo.');
  if (changes.todo_event === 'done') lines.push('Marked the todo as done.');
  if (changes.subscription_event === 'subscribe') lines.push(`Subscribed to this ${noun}.`);
  if (changes.subscription_event === 'unsubscribe') lines.push(`Unsubscribed from this ${noun}.`);
  if (changes.due_date === null) lines.push('Removed the due date.');
  else if (changes.due_date !== undefined) lines.push(`Set the due date to ${changes.due_date}.`);
  if (changes.wip_event === 'wip') lines.push(`Marked this ${noun} as Work In Progress.`);
  if (changes.wip_event === 'unwip') lines.push(`Unmarked this ${noun} as Work In Progress.`);
  return lines;
}
