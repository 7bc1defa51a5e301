import { Validation } from '../../errors';
import { now } from '../../lib/time';
import type { ProjectStanding } from '../policy';
import type { User } from '../users/users';
import { emitSystemEvent, eventProject, projectMovedEventData } from '../hooks/system-events';
import { PROJECT_FLAGS, type ProjectAttributes } from './attributes';
import type { ProjectDeps } from './deps';
import { authorize, hookOwnerOf } from './queries';
import { checkTaken } from './namespaces';
import { checkProjectName, checkProjectPath, checkVisibility } from './rules';
import type { Project, ProjectRow } from './types';
import { inTransaction } from '../../db/transaction';

/** PUT /projects/:id: masters change settings; renaming and changing visibility are the owner's. */
export async function updateProject(
  deps: ProjectDeps,
  project: Project,
  standing: ProjectStanding,
  actor: User,
  attributes: ProjectAttributes,
): Promise<Project> {
  const { ctx } = deps;
  authorize(standing, 'admin_project');
  const visibility = attributes.visibility_level;
  if (attributes.name !== undefined && attributes.name !== project.name) authorize(standing, 'rename_project');
  if (visibility !== undefined && visibility !== project.visibility_level) authorize(standing, 'change_visibility_level');
  const name = attributes.name ?? project.name;
  const path = attributes.path ?? project.path;
  const validation = new Validation();
  if (attributes.name !== undefined) checkProjectName(validation, attributes.name);
  if (attributes.path !== undefined) checkProjectPath(validation, attributes.path);
  if (visibility !== undefined && visibility !== project.visibility_level) {
    const settings = await deps.settings.get();
    const forkedFrom = project.forked_from_project_id
      ? await ctx.db.selectFrom('projects').selectAll().where('id', '=', project.forked_from_project_id).executeTakeFirst()
      : undefined;
    checkVisibility(validation, actor, visibility, project.namespace, settings.restricted_visibility_levels, forkedFrom);
  }
  if (validation.ok) await checkTaken(ctx.db, validation, project.namespace_id, name, path, project.id);
  validation.throwIfInvalid();

  const changes: Partial<ProjectRow> = { name, path, updated_at: now() };
  if (attributes.description !== undefined) changes.description = attributes.description;
  if (attributes.default_branch !== undefined) changes.default_branch = attributes.default_branch;
  if (visibility !== undefined) changes.visibility_level = visibility;
  for (const flag of PROJECT_FLAGS) if (attributes[flag] !== undefined) changes[flag] = attributes[flag] ? 1 : 0;
  const renamed = path !== project.path;
  return inTransaction(ctx.db, async (trx) => {
    const row = await trx.updateTable('projects').set(changes).where('id', '=', project.id).returningAll().executeTakeFirstOrThrow();
    const updated = { ...row, namespace: project.namespace };
    if (renamed) {
      const owner = await hookOwnerOf(trx, updated);
      await emitSystemEvent(
        ctx,
        trx,
        'project_rename',
        projectMovedEventData(eventProject(updated), owner ?? { name: '' }, `${project.namespace.path}/${project.path}`),
      );
    }
    return updated;
  });
}

/** Archive or unarchive (owners); idempotent. */
export async function setArchived(deps: ProjectDeps, project: Project, standing: ProjectStanding, archived: boolean): Promise<Project> {
  authorize(standing, 'archive_project');
  const row = await deps.ctx.db
    .updateTable('projects')
    .set({ archived: archived ? 1 : 0, updated_at: now() })
    .where('id', '=', project.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, namespace: project.namespace };
}
