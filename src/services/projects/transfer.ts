import { Validation, failedTo } from '../../errors';
import { now } from '../../lib/time';
import { visibilityName } from '../policy';
import { emitSystemEvent, eventProject, projectMovedEventData } from '../hooks/system-events';
import type { ProjectDeps } from './deps';
import { hookOwnerOf } from './queries';
import { checkTaken } from './namespaces';
import type { NamespaceRow, Project } from './types';
import { inTransaction } from '../../db/transaction';

/** Moves a project into a group (administrators). */
export async function transferProject(deps: ProjectDeps, project: Project, group: NamespaceRow): Promise<Project> {
  const { ctx } = deps;
  if (project.namespace_id === group.id) return project;
  const validation = new Validation();
  await checkTaken(ctx.db, validation, group.id, project.name, project.path, project.id);
  // A project may not be more visible than its group (8.12 crashed here instead).
  if (project.visibility_level > group.visibility_level) {
    validation.add(
      'visibility_level',
      `${visibilityName(project.visibility_level)} is not allowed in a ${visibilityName(group.visibility_level)} group.`,
    );
  }
  if (!validation.ok) throw failedTo('transfer project', validation.messages);
  const moved = await inTransaction(ctx.db, async (trx) => {
    const row = await trx
      .updateTable('projects')
      .set({ namespace_id: group.id, updated_at: now() })
      .where('id', '=', project.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const moved = { ...row, namespace: group };
    const owner = await hookOwnerOf(trx, moved);
    await emitSystemEvent(
      ctx,
      trx,
      'project_transfer',
      projectMovedEventData(eventProject(moved), owner ?? { name: '' }, `${project.namespace.path}/${project.path}`),
    );
    return moved;
  });
  if (project.namespace.kind === 'user') deps.personalProjectsChanged();
  return moved;
}
