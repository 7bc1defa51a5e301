import type { Db } from '../../db/index';
import type { ProjectStanding } from '../policy';
import { emitSystemEvent, eventProject, projectEventData } from '../hooks/system-events';
import type { ProjectDeps } from './deps';
import { authorize, hookOwnerOf } from './queries';
import type { Project } from './types';
import { inTransaction } from '../../db/transaction';
import { removeProjectSnippetTraces } from '../snippets/project-snippets';
import { deleteIssuableTraces } from '../issuables/traces';

/** Removes the project at once (owners); its repository goes through the job queue. */
export async function removeProject(deps: ProjectDeps, project: Project, standing: ProjectStanding): Promise<void> {
  authorize(standing, 'remove_project');
  await inTransaction(deps.ctx.db, (trx) => destroyProject(deps, trx, project));
  if (project.namespace.kind === 'user') deps.personalProjectsChanged();
}

/** Deletes a project's rows inside `trx` and queues its repository's removal. */
export async function destroyProject(deps: ProjectDeps, trx: Db, project: Project): Promise<void> {
  const owner = await hookOwnerOf(trx, project);
  await trx.deleteFrom('members').where('source_type', '=', 'Project').where('source_id', '=', project.id).execute();
  await trx.deleteFrom('hooks').where('project_id', '=', project.id).execute();
  await removeProjectSnippetTraces(trx, project.id);
  // Labels, their links and milestones go by the foreign keys' cascade; subscriptions name their label by type and id.
  const labels = trx.selectFrom('labels').select('id').where('project_id', '=', project.id);
  await trx.deleteFrom('subscriptions').where('subscribable_type', '=', 'Label').where('subscribable_id', 'in', labels).execute();
  await deleteIssuableTraces(trx, 'Issue', trx.selectFrom('issues').select('id').where('project_id', '=', project.id));
  // The merge requests into the project cascade; what names them by type and id goes first.
  await deleteIssuableTraces(
    trx,
    'MergeRequest',
    trx.selectFrom('merge_requests').select('id').where('target_project_id', '=', project.id),
  );
  await trx.updateTable('projects').set({ forked_from_project_id: null }).where('forked_from_project_id', '=', project.id).execute();
  await trx.deleteFrom('projects').where('id', '=', project.id).execute();
  await emitSystemEvent(deps.ctx, trx, 'project_destroy', projectEventData(eventProject(project), owner ?? { name: '' }));
  await deps.repositories.scheduleRemoval(project.id, trx);
}
