import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import type { IssueChange, IssueRow } from '../issues/types';
import type { Caller } from '../policy';
import { createTodos, markPendingDone, TODO_ACTIONS, type TodoTarget } from './queries';
import { issueReaders, mentionedUserIds } from './recipients';

/*
 * What changes to an issue do to todos, as GitLab 8.12's `TodoService` did, each called inside the
 * transaction of the change. 8.12 made todos for self-assignment and self-mentions too (its
 * todo_service_spec: "creates a todo if assignee is the current user"), and so does Forge.
 */

const targetOf = (issue: IssueRow): TodoTarget => ({ projectId: issue.project_id, targetType: 'Issue', targetId: issue.id });

const issueText = (issue: Pick<IssueRow, 'title' | 'description'>) => `${issue.title}\n\n${issue.description ?? ''}`;

/** A new issue: a todo for its assignee, and one for each user its title and description mention. */
export async function issueCreatedTodos(trx: Db, { issue, project, actor }: IssueChange): Promise<void> {
  await assignmentTodo(trx, issue, actor);
  await mentionTodos(trx, issue, project, actor, issueText(issue));
}

/**
 * A changed issue (8.12's `Issues::UpdateService#handle_changes` and `close_issue`): when it was
 * closed or a field changed, the actor's own pending todos on it are done (a reopening alone leaves
 * them, as 8.12's `ReopenService`; so does a change of labels alone, which the rows do not show); a
 * new assignee gets a todo (the old one's stays pending, as 8.12's `reassigned_issue`); users newly
 * mentioned in the title or description get one. Those the old text already mentioned are left
 * alone, so an edit does not bring back a todo its user has done (8.12 made them one again: it
 * skipped only users with a pending todo; later GitLab skipped the old mentions too).
 */
export async function issueUpdatedTodos(trx: Db, { issue, project, actor }: IssueChange, before: IssueRow): Promise<void> {
  const closed = issue.state === 'closed' && before.state !== 'closed';
  const changed = (['title', 'description', 'assignee_id', 'milestone_id', 'due_date', 'confidential'] as const).some(
    (field) => issue[field] !== before[field],
  );
  if (closed || changed) await markPendingDone(trx, actor.id, targetOf(issue));
  if (issue.assignee_id !== before.assignee_id) await assignmentTodo(trx, issue, actor);
  if (issue.title !== before.title || issue.description !== before.description) {
    const already = new Set(await mentionedUserIds(trx, issueText(before), project, actor));
    await mentionTodos(trx, issue, project, actor, issueText(issue), already);
  }
}

/**
 * A note on an issue (8.12's `TodoService#new_note`): the note's author's pending todos on the
 * issue are done, and each user the note mentions gets a todo pointing at the note. System notes
 * make none. The notes service calls this in the note's transaction.
 */
export async function createNoteTodos(
  trx: Db,
  {
    note,
    issue,
    project,
    author,
  }: { note: { id: number; note: string; system: number }; issue: IssueRow; project: Project; author: Caller },
): Promise<void> {
  if (note.system === 1) return;
  await markPendingDone(trx, author.id, targetOf(issue));
  await mentionTodos(trx, issue, project, author, note.note, new Set(), note.id);
}

async function assignmentTodo(trx: Db, issue: IssueRow, actor: Caller): Promise<void> {
  if (issue.assignee_id === null) return;
  await createTodos(trx, [issue.assignee_id], { ...targetOf(issue), authorId: actor.id, action: TODO_ACTIONS.assigned });
}

/** Todos for the users the text mentions who may read the issue, but not those in `skip`. */
async function mentionTodos(
  trx: Db,
  issue: IssueRow,
  project: Project,
  actor: Caller,
  text: string,
  skip = new Set<number>(),
  noteId?: number,
): Promise<void> {
  const mentioned = (await mentionedUserIds(trx, text, project, actor)).filter((id) => !skip.has(id));
  const readers = await issueReaders(trx, project, issue, mentioned);
  await createTodos(trx, readers, { ...targetOf(issue), authorId: actor.id, action: TODO_ACTIONS.mentioned, noteId });
}
