import type { Db } from '../../db/index';

/**
 * The projects the user holds at least `minimum` on: as the owner of their personal namespace, as a
 * member of the project or of its group, or through a group the project is shared with (the lower
 * of the share's level and the membership, as the policy reads it).
 */
export function projectIdsWithAccess(db: Db, userId: number, minimum: number) {
  return db
    .selectFrom('projects')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .select('projects.id')
    .where('projects.pending_delete', '=', 0)
    .where((eb) =>
      eb.or([
        eb.and([eb('namespaces.kind', '=', 'user'), eb('namespaces.owner_id', '=', userId)]),
        eb.exists(
          eb
            .selectFrom('members')
            .select('members.id')
            .where('members.user_id', '=', userId)
            .where('members.requested_at', 'is', null)
            .where('members.access_level', '>=', minimum)
            .where((inner) =>
              inner.or([
                inner.and([inner('members.source_type', '=', 'Project'), inner('members.source_id', '=', inner.ref('projects.id'))]),
                inner.and([
                  inner('members.source_type', '=', 'Namespace'),
                  inner('members.source_id', '=', inner.ref('projects.namespace_id')),
                  inner('namespaces.kind', '=', 'group'),
                ]),
              ]),
            ),
        ),
        eb.exists(
          eb
            .selectFrom('project_group_links as links')
            .innerJoin('members as shared', (join) =>
              join.onRef('shared.source_id', '=', 'links.group_id').on('shared.source_type', '=', 'Namespace'),
            )
            .select('links.id')
            .whereRef('links.project_id', '=', 'projects.id')
            .where('links.group_access', '>=', minimum)
            .where('shared.user_id', '=', userId)
            .where('shared.requested_at', 'is', null)
            .where('shared.access_level', '>=', minimum),
        ),
      ]),
    );
}
