import type { Selectable } from 'kysely';
import type { NamespacesTable, ProjectsTable, UsersTable } from '../../db/schema';
import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { OWNER } from '../policy';
import {
  emitSystemEvents,
  groupMemberEventData,
  keyEventData,
  projectMemberEventData,
  userEventData,
  type SystemEvent,
} from '../hooks/system-events';

type User = Selectable<UsersTable>;
// Projects sit above users: the record a removal takes is named from the schema (any `Project` fits).
type Project = Selectable<ProjectsTable> & { namespace: Selectable<NamespacesTable> };

/** What deleting a user needs of projects: removing one, rows, hooks and repository, inside the caller's transaction. */
export interface ProjectRemover {
  destroy(trx: Db, project: Project): Promise<void>;
}

/**
 * Deletes a user inside `trx`, as GitLab 8.12's `DeleteUserService` and `User`'s dependent
 * associations did:
 * - their personal projects, each through the projects' own removal (members, hooks, forks
 *   unlinked, `project_destroy`, the repository's removal job); the namespace goes last, since
 *   `projects.namespace_id` has no cascade and would refuse it while a project is left;
 * - their memberships and access requests; a real membership announces
 *   `user_remove_from_team` / `user_remove_from_group` as its destruction did in 8.12;
 * - their stars, with the star count of each starred project recounted (8.12's counter cache);
 * - what they authored in other projects' history: their notes (commit comments) and their
 *   events are deleted (`has_many :notes / :events, dependent: :destroy` in 8.12; the ghost
 *   user that keeps them came with 9.0). Commit statuses and pipelines stay, without a user
 *   (8.12's `builds, dependent: :nullify`, the foreign keys' `set null`);
 * - keys, e-mails and identities (their foreign keys cascade), announcing `key_destroy` each,
 *   then `user_destroy`.
 * `projects.creator_id` and `members.created_by_id` keep the old id, as in GitLab: they carry
 * no foreign key and nothing resolves them to a user.
 */
/**
 * Whether the user is the only owner of some group. GitLab 8.12's `DeleteUserService` kept such a
 * user (the API answered 200 with the record, unchanged): deleting them would leave a group that
 * nobody may administer but an administrator.
 */
export async function ownsGroupsAlone(trx: Db, userId: number): Promise<boolean> {
  const owned = trx
    .selectFrom('members')
    .select('source_id')
    .where('source_type', '=', 'Namespace')
    .where('user_id', '=', userId)
    .where('access_level', '=', OWNER)
    .where('requested_at', 'is', null);
  const alone = await trx
    .selectFrom('members')
    .select('source_id')
    .where('source_type', '=', 'Namespace')
    .where('source_id', 'in', owned)
    .where('access_level', '=', OWNER)
    .where('requested_at', 'is', null)
    .groupBy('source_id')
    .having((eb) => eb.fn.countAll(), '=', 1)
    .executeTakeFirst();
  return alone !== undefined;
}

export async function destroyUser(ctx: ServiceContext, trx: Db, user: User, projects: ProjectRemover): Promise<void> {
  const namespace = await trx
    .selectFrom('namespaces')
    .selectAll()
    .where('kind', '=', 'user')
    .where('owner_id', '=', user.id)
    .executeTakeFirst();
  if (namespace) {
    const personal = await trx.selectFrom('projects').selectAll().where('namespace_id', '=', namespace.id).orderBy('id').execute();
    for (const project of personal) await projects.destroy(trx, { ...project, namespace });
  }

  const events: SystemEvent[] = [...(await projectMembershipEvents(trx, user)), ...(await groupMembershipEvents(trx, user))];
  await trx.deleteFrom('members').where('user_id', '=', user.id).execute();

  const starred = await trx.selectFrom('stars').select('project_id').where('user_id', '=', user.id).execute();
  await trx.deleteFrom('stars').where('user_id', '=', user.id).execute();
  if (starred.length > 0) {
    await trx
      .updateTable('projects')
      .set({
        star_count: (eb) =>
          eb
            .selectFrom('stars')
            .select((s) => s.fn.countAll<number>().as('n'))
            .whereRef('stars.project_id', '=', 'projects.id'),
      })
      .where(
        'id',
        'in',
        starred.map((star) => star.project_id),
      )
      .execute();
  }

  await trx.deleteFrom('notes').where('author_id', '=', user.id).execute();
  await trx.deleteFrom('events').where('author_id', '=', user.id).execute();

  const keys = await trx.selectFrom('keys').selectAll().where('user_id', '=', user.id).orderBy('id').execute();
  if (namespace) await trx.deleteFrom('namespaces').where('id', '=', namespace.id).execute();
  await trx.deleteFrom('users').where('id', '=', user.id).execute();
  events.push(...keys.map((key) => ({ name: 'key_destroy' as const, data: keyEventData(key, user) })));
  events.push({ name: 'user_destroy', data: userEventData(user) });
  await emitSystemEvents(ctx, trx, events);
}

/** `user_remove_from_team` for each project they are a member of (not a mere access request). */
async function projectMembershipEvents(trx: Db, user: User): Promise<SystemEvent[]> {
  const rows = await trx
    .selectFrom('members')
    .innerJoin('projects', 'projects.id', 'members.source_id')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .select([
      'members.access_level',
      'members.created_at',
      'members.updated_at',
      'projects.id',
      'projects.name',
      'projects.path',
      'projects.visibility_level',
      'projects.created_at as project_created_at',
      'projects.updated_at as project_updated_at',
      'namespaces.path as namespace_path',
    ])
    .where('members.source_type', '=', 'Project')
    .where('members.user_id', '=', user.id)
    .where('members.requested_at', 'is', null)
    .orderBy('members.id')
    .execute();
  return rows.map((row) => ({
    name: 'user_remove_from_team',
    data: projectMemberEventData(
      row,
      {
        id: row.id,
        name: row.name,
        path: row.path,
        path_with_namespace: `${row.namespace_path}/${row.path}`,
        visibility_level: row.visibility_level,
        created_at: row.project_created_at,
        updated_at: row.project_updated_at,
      },
      user,
    ),
  }));
}

/** `user_remove_from_group` for each group they are a member of (not a mere access request). */
async function groupMembershipEvents(trx: Db, user: User): Promise<SystemEvent[]> {
  const rows = await trx
    .selectFrom('members')
    .innerJoin('namespaces', 'namespaces.id', 'members.source_id')
    .select([
      'members.access_level',
      'members.created_at',
      'members.updated_at',
      'namespaces.id',
      'namespaces.name',
      'namespaces.path',
      'namespaces.created_at as group_created_at',
      'namespaces.updated_at as group_updated_at',
    ])
    .where('members.source_type', '=', 'Namespace')
    .where('members.user_id', '=', user.id)
    .where('members.requested_at', 'is', null)
    .orderBy('members.id')
    .execute();
  return rows.map((row) => ({
    name: 'user_remove_from_group',
    data: groupMemberEventData(
      row,
      { id: row.id, name: row.name, path: row.path, created_at: row.group_created_at, updated_at: row.group_updated_at },
      user,
    ),
  }));
}
