import type { Db } from '../../db/index';
import { badRequest, conflict, notFound } from '../../errors';
import { now } from '../../lib/time';
import { GROUP_ACCESS_LEVELS, type ProjectStanding } from '../policy';
import { authorize } from './queries';
import type { Project } from './types';

/** Shares the project with a group at an access level (masters), unless its namespace forbids sharing. */
export async function shareProject(db: Db, project: Project, standing: ProjectStanding, groupId: number, groupAccess: number) {
  authorize(standing, 'admin_project');
  if (project.namespace.share_with_group_lock === 1) throw badRequest('The project sharing with group is disabled');
  const group = await db.selectFrom('namespaces').selectAll().where('id', '=', groupId).where('kind', '=', 'group').executeTakeFirst();
  if (!group) throw notFound('Group');
  if (!GROUP_ACCESS_LEVELS.slice(0, 4).includes(groupAccess)) throw conflict('Group access is not included in the list');
  const existing = await db
    .selectFrom('project_group_links')
    .select('id')
    .where('project_id', '=', project.id)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (existing) throw conflict('Group already taken');
  const time = now();
  return db
    .insertInto('project_group_links')
    .values({ project_id: project.id, group_id: groupId, group_access: groupAccess, created_at: time, updated_at: time })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function unshareProject(db: Db, project: Project, standing: ProjectStanding, groupId: number): Promise<void> {
  authorize(standing, 'admin_project');
  const removed = await db
    .deleteFrom('project_group_links')
    .where('project_id', '=', project.id)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw notFound('Group Link');
}
