import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';
import type { Caller } from '../policy';
import type { Project, ProjectRow } from './types';

export interface MemberAccess {
  access_level: number;
  notification_level: number;
}

export interface SharedGroup {
  group_id: number;
  group_name: string;
  group_access_level: number;
}

export interface OwnerSummary {
  id: number;
  name: string;
  username: string;
  state: string;
  email: string;
  created_at: string;
}

/** Everything a Project response shows beyond its own row, loaded for a whole page at once. */
export interface ProjectDetails {
  owners: Map<number, OwnerSummary>;
  projectAccess: Map<number, MemberAccess>;
  groupAccess: Map<number, MemberAccess>;
  sharedWith: Map<number, SharedGroup[]>;
  forkedFrom: Map<number, Project>;
  forksCount: Map<number, number>;
  /** Opened and reopened issues, per project. */
  openIssuesCount: Map<number, number>;
}

function membershipsOf(db: Db, userId: number) {
  return db
    .selectFrom('members')
    .select(['source_type', 'source_id', 'access_level', 'notification_level'])
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null);
}

// Every project answer reads these: built and compiled once (per page size).
const queries = {
  owners: preparedPerHandle((db: Db, ids: number[]) =>
    db.selectFrom('users').select(['id', 'name', 'username', 'state', 'email', 'created_at']).where('id', 'in', ids),
  ),
  projectMemberships: preparedPerHandle((db: Db, userId: number, projectIds: number[]) =>
    membershipsOf(db, userId).where('source_type', '=', 'Project').where('source_id', 'in', projectIds),
  ),
  memberships: preparedPerHandle((db: Db, userId: number, projectIds: number[], groupIds: number[]) =>
    membershipsOf(db, userId).where((eb) =>
      eb.or([
        eb.and([eb('source_type', '=', 'Project'), eb('source_id', 'in', projectIds)]),
        eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', 'in', groupIds)]),
      ]),
    ),
  ),
  sharedWith: preparedPerHandle((db: Db, projectIds: number[]) =>
    db
      .selectFrom('project_group_links')
      .innerJoin('namespaces', 'namespaces.id', 'project_group_links.group_id')
      .select(['project_group_links.project_id', 'project_group_links.group_id', 'namespaces.name', 'project_group_links.group_access'])
      .where('project_group_links.project_id', 'in', projectIds)
      .orderBy('project_group_links.id'),
  ),
  forkSources: preparedPerHandle((db: Db, ids: number[]) =>
    db
      .selectFrom('projects')
      .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
      .selectAll('projects')
      .select([
        'namespaces.name as ns_name',
        'namespaces.path as ns_path',
        'namespaces.kind as ns_kind',
        'namespaces.owner_id as ns_owner_id',
      ])
      .where('projects.id', 'in', ids),
  ),
  forksCounts: preparedPerHandle((db: Db, projectIds: number[]) =>
    db
      .selectFrom('projects')
      .select(['forked_from_project_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('forked_from_project_id', 'in', projectIds)
      .where('pending_delete', '=', 0)
      .groupBy('forked_from_project_id'),
  ),
  openIssuesCounts: preparedPerHandle((db: Db, projectIds: number[]) =>
    db
      .selectFrom('issues')
      .select(['project_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('project_id', 'in', projectIds)
      .where('state', 'in', ['opened', 'reopened'])
      .groupBy('project_id'),
  ),
};

/** A fixed number of queries, whatever the number of projects. */
export async function loadProjectDetails(db: Db, projects: Project[], caller: Caller | null): Promise<ProjectDetails> {
  const details: ProjectDetails = {
    owners: new Map(),
    projectAccess: new Map(),
    groupAccess: new Map(),
    sharedWith: new Map(),
    forkedFrom: new Map(),
    forksCount: new Map(),
    openIssuesCount: new Map(),
  };
  if (projects.length === 0) return details;
  const projectIds = projects.map((p) => p.id);
  const ownerIds = [...new Set(projects.map((p) => p.namespace.owner_id).filter((id): id is number => id !== null))];
  const groupIds = [...new Set(projects.filter((p) => p.namespace.kind === 'group').map((p) => p.namespace_id))];
  const forkSourceIds = [...new Set(projects.map((p) => p.forked_from_project_id).filter((id): id is number => id !== null))];

  const [owners, memberships, links, sources, forks, openIssues] = await Promise.all([
    ownerIds.length ? queries.owners(db, ownerIds) : [],
    caller
      ? groupIds.length
        ? queries.memberships(db, caller.id, projectIds, groupIds)
        : queries.projectMemberships(db, caller.id, projectIds)
      : [],
    queries.sharedWith(db, projectIds),
    forkSourceIds.length ? queries.forkSources(db, forkSourceIds) : [],
    queries.forksCounts(db, projectIds),
    queries.openIssuesCounts(db, projectIds),
  ]);

  for (const owner of owners) details.owners.set(owner.id, owner);
  for (const m of memberships) {
    const access = { access_level: m.access_level, notification_level: m.notification_level };
    (m.source_type === 'Project' ? details.projectAccess : details.groupAccess).set(m.source_id, access);
  }
  for (const link of links) {
    const list = details.sharedWith.get(link.project_id) ?? [];
    list.push({ group_id: link.group_id, group_name: link.name, group_access_level: link.group_access });
    details.sharedWith.set(link.project_id, list);
  }
  for (const source of sources) {
    const { ns_name, ns_path, ns_kind, ns_owner_id, ...row } = source;
    details.forkedFrom.set(source.id, {
      ...(row as ProjectRow),
      namespace: { id: row.namespace_id, name: ns_name, path: ns_path, kind: ns_kind, owner_id: ns_owner_id } as Project['namespace'],
    });
  }
  for (const fork of forks) details.forksCount.set(fork.forked_from_project_id!, Number(fork.count));
  for (const row of openIssues) details.openIssuesCount.set(row.project_id, Number(row.count));
  return details;
}
