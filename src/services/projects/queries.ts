import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/index';
import type { Database } from '../../db/schema';
import { preparedPerHandle } from '../../db/prepared';
import { forbidden, notFound } from '../../errors';
import { INTERNAL, OWNER, PUBLIC, can, hides, readsEverything, type Caller, type ProjectAbility, type ProjectStanding } from '../policy';
import { groupIdsOf, personalNamespaceIdsOf, reachedProjectIds } from '../policy-reach';
import type { NamespaceRow as Namespace, Project, ProjectRow } from './types';

/*
 * The projects domain's shared SQL: a project read with its namespace, by id or path, with the
 * caller's standing; and the conditions that narrow a list of projects to a user's.
 */

// A project is always read with its namespace: one query, the namespace's columns under `ns_` names.
const NAMESPACE_COLUMNS = [
  'id',
  'name',
  'path',
  'kind',
  'owner_id',
  'description',
  'visibility_level',
  'request_access_enabled',
  'share_with_group_lock',
  'lfs_enabled',
  'created_at',
  'updated_at',
] as const;

function projectsWithNamespaces(db: Db) {
  return db
    .selectFrom('projects')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .selectAll('projects')
    .select(NAMESPACE_COLUMNS.map((column) => `namespaces.${column} as ns_${column}` as const))
    .where('projects.pending_delete', '=', 0);
}

// Every project route looks its project up: built and compiled once.
const projectById = preparedPerHandle((db: Db, id: number) => projectsWithNamespaces(db).where('projects.id', '=', id));
const projectsByLowerPath = preparedPerHandle((db: Db, namespacePath: string, projectPath: string) =>
  projectsWithNamespaces(db)
    .where((eb) => eb(eb.fn('lower', ['namespaces.path']), '=', namespacePath))
    .where((eb) => eb(eb.fn('lower', ['projects.path']), '=', projectPath)),
);

type JoinedRow = ProjectRow & { [K in (typeof NAMESPACE_COLUMNS)[number] as `ns_${K}`]: Namespace[K] };

const NAMESPACE_ALIASES = NAMESPACE_COLUMNS.map((column) => [column, `ns_${column}`] as const);

// The project's own columns are whatever the table has (`selectAll`); the namespace's are named,
// and so are the caller's access levels that `projectWithAccess` adds.
function splitJoined(joined: JoinedRow): Project {
  const row: Record<string, unknown> = {};
  for (const key in joined) if (!key.startsWith('ns_') && !key.startsWith('caller_')) row[key] = joined[key as keyof JoinedRow];
  const namespace: Record<string, unknown> = {};
  for (const [column, alias] of NAMESPACE_ALIASES) namespace[column] = joined[alias];
  row.namespace = namespace;
  return row as unknown as Project;
}

/** By numeric id or `namespace/path` (exact, then ignoring case), with its namespace, in one query. */
export async function findProject(db: Db, idOrPath: string | number): Promise<Project | undefined> {
  const text = String(idOrPath);
  const slash = text.indexOf('/');
  if (slash > 0) {
    const [namespacePath, projectPath] = [text.slice(0, slash), text.slice(slash + 1)];
    const candidates = (await projectsByLowerPath(db, namespacePath.toLowerCase(), projectPath.toLowerCase())) as JoinedRow[];
    const chosen = candidates.find((c) => c.ns_path === namespacePath && c.path === projectPath) ?? candidates[0];
    return chosen ? splitJoined(chosen) : undefined;
  }
  if (!/^\d+$/.test(text)) return undefined;
  const [row] = await projectById(db, Number(text));
  return row ? splitJoined(row as JoinedRow) : undefined;
}

const namespacesByIds = preparedPerHandle((db: Db, ids: number[]) => db.selectFrom('namespaces').selectAll().where('id', 'in', ids));

/** Many rows with their namespaces, in one query. */
export async function attachNamespaces(db: Db, rows: ProjectRow[]): Promise<Project[]> {
  if (rows.length === 0) return [];
  const namespaces = await namespacesByIds(db, [...new Set(rows.map((row) => row.namespace_id))]);
  const byId = new Map(namespaces.map((namespace) => [namespace.id, namespace]));
  return rows.map((row) => {
    const project = Object.assign({}, row) as Project;
    project.namespace = byId.get(row.namespace_id)!;
    return project;
  });
}

/** The project if the caller may read it; `404 Project Not Found` otherwise, never 403. */
export async function findReadable(
  db: Db,
  idOrPath: string | number,
  caller: Caller | null,
): Promise<{ project: Project; standing: ProjectStanding }> {
  const found = caller ? await findWithStanding(db, idOrPath, caller) : await findThenStanding(db, idOrPath, caller);
  if (!found || !can(found.standing, 'read_project')) throw notFound('Project');
  return found;
}

async function findThenStanding(db: Db, idOrPath: string | number, caller: Caller | null) {
  const project = await findProject(db, idOrPath);
  return project && { project, standing: await loadStanding(db, project, caller) };
}

/**
 * A project by id with the caller's access levels (`accessRows`' answers as columns), in one
 * query: every project route of a signed-in caller asks, and on PostgreSQL a round trip costs
 * more than the query.
 */
function withCallerAccess(db: Db, userId: number) {
  return projectsWithNamespaces(db).select((eb) => {
    const levelIn = (sourceType: 'Project' | 'Namespace', source: 'projects.id' | 'projects.namespace_id') =>
      eb
        .selectFrom('members')
        .select('access_level')
        .whereRef('members.source_id', '=', source)
        .where('members.source_type', '=', sourceType)
        .where('members.user_id', '=', userId)
        .where('members.requested_at', 'is', null)
        .limit(1);
    return [
      levelIn('Project', 'projects.id').as('caller_project_access'),
      levelIn('Namespace', 'projects.namespace_id').as('caller_namespace_access'),
      eb
        .selectFrom('project_group_links')
        .innerJoin('members', (join) =>
          join.onRef('members.source_id', '=', 'project_group_links.group_id').on('members.source_type', '=', 'Namespace'),
        )
        // The lower of the share's level and the caller's in the group, the best over the shares.
        .select(
          sql<
            number | null
          >`max(case when project_group_links.group_access < members.access_level then project_group_links.group_access else members.access_level end)`.as(
            'level',
          ),
        )
        .whereRef('project_group_links.project_id', '=', 'projects.id')
        .where('members.user_id', '=', userId)
        .where('members.requested_at', 'is', null)
        .as('caller_shared_access'),
    ];
  });
}

const projectWithAccess = preparedPerHandle((db: Db, id: number, userId: number) =>
  withCallerAccess(db, userId).where('projects.id', '=', id),
);
// GitLab's clients (and GPT) name a project by its URL-encoded path as often as by id.
const projectsByLowerPathWithAccess = preparedPerHandle((db: Db, namespacePath: string, projectPath: string, userId: number) =>
  withCallerAccess(db, userId)
    .where((eb) => eb(eb.fn('lower', ['namespaces.path']), '=', namespacePath))
    .where((eb) => eb(eb.fn('lower', ['projects.path']), '=', projectPath)),
);

type JoinedWithAccess = JoinedRow & {
  caller_project_access: number | null;
  caller_namespace_access: number | null;
  caller_shared_access: number | null;
};

/** By id or path as `findProject` finds it, with the caller's access levels, in one query. */
async function findWithStanding(
  db: Db,
  idOrPath: string | number,
  caller: Caller,
): Promise<{ project: Project; standing: ProjectStanding } | undefined> {
  const text = String(idOrPath);
  const slash = text.indexOf('/');
  let row: JoinedWithAccess | undefined;
  if (slash > 0) {
    const [namespacePath, projectPath] = [text.slice(0, slash), text.slice(slash + 1)];
    const candidates = (await projectsByLowerPathWithAccess(
      db,
      namespacePath.toLowerCase(),
      projectPath.toLowerCase(),
      caller.id,
    )) as unknown as JoinedWithAccess[];
    row = candidates.find((c) => c.ns_path === namespacePath && c.path === projectPath) ?? candidates[0];
  } else if (/^\d+$/.test(text)) {
    [row] = (await projectWithAccess(db, Number(text), caller.id)) as unknown as JoinedWithAccess[];
  }
  if (!row) return undefined;
  const project = splitJoined(row);
  return {
    project,
    standing: standingFrom(project, caller, row.caller_project_access, row.caller_namespace_access, row.caller_shared_access),
  };
}

/**
 * The caller's memberships of the project and of its namespace (`source_type` `Project`,
 * `Namespace`), and of the groups it is shared with (`Link`, with the share's `group_access`), in
 * one query compiled once: every project route asks.
 */
const accessRows = preparedPerHandle((db: Db, userId: number, projectId: number, namespaceId: number) =>
  db
    .selectFrom('members')
    .select(['source_type', 'access_level', 'access_level as group_access'])
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', projectId)]),
        eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', '=', namespaceId)]),
      ]),
    )
    .unionAll(
      db
        .selectFrom('project_group_links')
        .innerJoin('members', (join) =>
          join.onRef('members.source_id', '=', 'project_group_links.group_id').on('members.source_type', '=', 'Namespace'),
        )
        .select([sql.lit('Link').as('source_type'), 'members.access_level', 'project_group_links.group_access'])
        .where('project_group_links.project_id', '=', projectId)
        .where('members.user_id', '=', userId)
        .where('members.requested_at', 'is', null),
    ),
);

/** Loads what the policy needs about the caller and this project, in one query. */
export async function loadStanding(db: Db, project: Project, caller: Caller | null): Promise<ProjectStanding> {
  if (!caller) return standingFrom(project, null, null, null, null);
  return standingOf(project, caller, await accessRows(db, caller.id, project.id, project.namespace_id));
}

/** `loadStanding` for many users at once (the recipients of a notification), in one query. */
export async function loadStandings(db: Db, project: Project, callers: Caller[]): Promise<Map<number, ProjectStanding>> {
  const standings = new Map<number, ProjectStanding>();
  if (callers.length === 0) return standings;
  const ids = callers.map((caller) => caller.id);
  const rows = await db
    .selectFrom('members')
    .select(['user_id', 'source_type', 'access_level', 'access_level as group_access'])
    .where('user_id', 'in', ids)
    .where('requested_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', project.id)]),
        eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', '=', project.namespace_id)]),
      ]),
    )
    .unionAll(
      db
        .selectFrom('project_group_links')
        .innerJoin('members', (join) =>
          join.onRef('members.source_id', '=', 'project_group_links.group_id').on('members.source_type', '=', 'Namespace'),
        )
        .select(['members.user_id', sql.lit('Link').as('source_type'), 'members.access_level', 'project_group_links.group_access'])
        .where('project_group_links.project_id', '=', project.id)
        .where('members.user_id', 'in', ids)
        .where('members.requested_at', 'is', null),
    )
    .execute();
  const byUser = new Map<number, typeof rows>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  for (const caller of callers) standings.set(caller.id, standingOf(project, caller, byUser.get(caller.id) ?? []));
  return standings;
}

/** The standing from a caller's member rows: its project's, its namespace's, and those through groups the project is shared with. */
function standingOf(
  project: Project,
  caller: Caller,
  rows: Array<{ source_type: string; access_level: number; group_access: number }>,
): ProjectStanding {
  let projectAccess: number | null = null;
  let namespaceAccess: number | null = null;
  let sharedAccess: number | null = null;
  for (const row of rows) {
    if (row.source_type === 'Project') projectAccess = row.access_level;
    else if (row.source_type === 'Namespace') namespaceAccess = row.access_level;
    else {
      const level = Math.min(row.group_access, row.access_level);
      sharedAccess = sharedAccess === null ? level : Math.max(sharedAccess, level);
    }
  }
  return standingFrom(project, caller, projectAccess, namespaceAccess, sharedAccess);
}

/** What the policy needs, from the caller's levels in the project, its namespace and the groups it is shared with. */
function standingFrom(
  project: Project,
  caller: Caller | null,
  projectAccess: number | null,
  namespaceAccess: number | null,
  sharedAccess: number | null,
): ProjectStanding {
  const isGroup = project.namespace.kind === 'group';
  const groupAccess = caller && isGroup ? namespaceAccess : null;
  return {
    caller,
    visibilityLevel: project.visibility_level,
    archived: project.archived === 1,
    buildsEnabled: project.builds_enabled === 1,
    issuesEnabled: project.issues_enabled === 1,
    mergeRequestsEnabled: project.merge_requests_enabled === 1,
    snippetsEnabled: project.snippets_enabled === 1,
    publicBuilds: project.public_builds === 1,
    projectAccess: caller ? projectAccess : null,
    groupAccess,
    sharedAccess: caller ? sharedAccess : null,
    namespaceOwner: caller ? (isGroup ? groupAccess === OWNER : project.namespace.owner_id === caller.id) : false,
  };
}

/** `403 Forbidden` unless the standing allows the ability; `404 Not Found` where the refusal hides what it reads (`hides`). */
export function authorize(standing: ProjectStanding, ability: ProjectAbility): void {
  if (can(standing, ability)) return;
  throw hides(standing, ability) ? notFound() : forbidden();
}

/** The owner shown in system hooks: the namespace's user, or the group itself (with no e-mail), as GitLab 8.12. */
export async function hookOwnerOf(db: Db, project: Project): Promise<{ name: string; email: string } | undefined> {
  if (project.namespace.kind === 'group') return { name: project.namespace.name, email: '' };
  if (project.namespace.owner_id === null) return undefined;
  return db.selectFrom('users').select(['name', 'email']).where('id', '=', project.namespace.owner_id).executeTakeFirst();
}

// ---- Conditions on a list of projects ----

type Eb = ExpressionBuilder<Database, 'projects'>;

/** Projects the user is authorized for (a member of them or of their group, their personal namespace's, shared with their groups). */
export function authorizedFor(eb: Eb, userId: number): Expression<SqlBool> {
  return eb('projects.id', 'in', reachedProjectIds(userId));
}

/** Projects in the user's namespace or in groups the user owns. */
export function ownedBy(eb: Eb, userId: number): Expression<SqlBool> {
  return eb(
    'projects.id',
    'in',
    eb
      .selectFrom('projects as personal')
      .select('personal.id')
      .where('personal.namespace_id', 'in', personalNamespaceIdsOf(userId))
      .union(eb.selectFrom('projects as owned').select('owned.id').where('owned.namespace_id', 'in', groupIdsOf(userId, OWNER))),
  );
}

/** Every project the caller may read. */
export function visibleTo(eb: Eb, caller: Caller | null): Expression<SqlBool> {
  if (readsEverything(caller)) return sql<SqlBool>`1 = 1`;
  if (!caller) return eb('projects.visibility_level', '>=', PUBLIC);
  const openLevel = caller.external === 1 ? PUBLIC : INTERNAL;
  return eb.or([eb('projects.visibility_level', '>=', openLevel), authorizedFor(eb, caller.id)]);
}

/** Ids of the projects, not being deleted, the user holds at least `minimum` on (the runners and deploy keys they manage). */
export function projectIdsWithAccess(db: Db, userId: number, minimum: number) {
  return db
    .selectFrom('projects')
    .select('projects.id')
    .where('projects.pending_delete', '=', 0)
    .where('projects.id', 'in', reachedProjectIds(userId, minimum));
}
