import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import type { MergeRequestChange, MergeRequestRow } from '../merge-requests/types';
import type { Caller } from '../policy';
import { now } from '../../lib/time';
import { createTodos, markPendingDone, TODO_ACTIONS, type TodoTarget } from './queries';
import { mentionedUserIds, mergeRequestReaders } from './recipients';

/*
 * What changes to a merge request do to todos, as GitLab 8.12's `TodoService` did for merge
 * requests, each called inside the transaction of the change (as `issue-todos.ts` for issues).
 */

const targetOf = (mergeRequest: MergeRequestRow): TodoTarget => ({
  projectId: mergeRequest.target_project_id,
  targetType: 'MergeRequest',
  targetId: mergeRequest.id,
});

const text = (mergeRequest: Pick<MergeRequestRow, 'title' | 'description'>) => `${mergeRequest.title}\n\n${mergeRequest.description ?? ''}`;

const FINISHED = ['closed', 'merged'];

/** A new merge request: a todo for its assignee, and one for each user its title and description mention. */
export async function mergeRequestCreatedTodos(trx: Db, { mergeRequest, project, actor }: MergeRequestChange): Promise<void> {
  await assignmentTodo(trx, mergeRequest, actor);
  await mentionTodos(trx, mergeRequest, project, actor, text(mergeRequest));
}

/**
 * A changed merge request (8.12's `MergeRequests::UpdateService#handle_changes`): closed, every
 * pending todo on it is done (`mergeRequestFinishedTodos`); a field changed, the actor's own are; a
 * new assignee gets a todo; users newly mentioned in the title or description get one (those the
 * old text mentioned are left alone, as for issues).
 */
export async function mergeRequestUpdatedTodos(
  trx: Db,
  { mergeRequest, project, actor }: MergeRequestChange,
  before: MergeRequestRow,
): Promise<void> {
  if (FINISHED.includes(mergeRequest.state) && !FINISHED.includes(before.state)) {
    await mergeRequestFinishedTodos(trx, mergeRequest);
    return;
  }
  const changed = (['title', 'description', 'assignee_id', 'milestone_id', 'target_branch'] as const).some(
    (field) => mergeRequest[field] !== before[field],
  );
  if (changed) await markPendingDone(trx, actor.id, targetOf(mergeRequest));
  if (mergeRequest.assignee_id !== before.assignee_id) await assignmentTodo(trx, mergeRequest, actor);
  if (mergeRequest.title !== before.title || mergeRequest.description !== before.description) {
    const already = new Set(await mentionedUserIds(trx, text(before), project, actor));
    await mentionTodos(trx, mergeRequest, project, actor, text(mergeRequest), already);
  }
}

/**
 * A merge request merged or closed: EVERY user's pending todos on it are done. 8.12 marked only the
 * actor's (`mark_pending_todos_as_done(merge_request, current_user)`), leaving the others a todo
 * on a merge request nobody can act on any more; Forge ends them all, deliberately. mr-git calls
 * this in the transaction of a merge.
 */
export async function mergeRequestFinishedTodos(trx: Db, mergeRequest: MergeRequestRow): Promise<void> {
  const target = targetOf(mergeRequest);
  await trx
    .updateTable('todos')
    .set({ state: 'done', updated_at: now() })
    .where('state', '=', 'pending')
    .where('project_id', '=', target.projectId)
    .where('target_type', '=', target.targetType)
    .where('target_id', '=', target.targetId)
    .execute();
}

/**
 * A note on a merge request (8.12's `TodoService#new_note`): the note's author's pending todos on
 * it are done, and each user the note mentions gets a todo pointing at the note. System notes make none.
 */
export async function mergeRequestNoteTodos(
  trx: Db,
  {
    note,
    mergeRequest,
    project,
    author,
  }: { note: { id: number; note: string; system: number }; mergeRequest: MergeRequestRow; project: Project; author: Caller },
): Promise<void> {
  if (note.system === 1) return;
  await markPendingDone(trx, author.id, targetOf(mergeRequest));
  await mentionTodos(trx, mergeRequest, project, author, note.note, new Set(), note.id);
}

async function assignmentTodo(trx: Db, mergeRequest: MergeRequestRow, actor: Caller): Promise<void> {
  if (mergeRequest.assignee_id === null) return;
  await createTodos(trx, [mergeRequest.assignee_id], { ...targetOf(mergeRequest), authorId: actor.id, action: TODO_ACTIONS.assigned });
}

/** Todos for the users the text mentions who may read the project's merge requests, but not those in `skip`. */
async function mentionTodos(
  trx: Db,
  mergeRequest: MergeRequestRow,
  project: Project,
  actor: Caller,
  body: string,
  skip = new Set<number>(),
  noteId?: number,
): Promise<void> {
  const mentioned = (await mentionedUserIds(trx, body, project, actor)).filter((id) => !skip.has(id));
  const readers = await mergeRequestReaders(trx, project, mentioned);
  await createTodos(trx, readers, { ...targetOf(mergeRequest), authorId: actor.id, action: TODO_ACTIONS.mentioned, noteId });
}
