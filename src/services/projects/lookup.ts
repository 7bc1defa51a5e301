import type { Db } from '../../db/index';
import { forbidden, notFound } from '../../errors';
import { OWNER, can, type Caller, type ProjectAbility, type ProjectStanding } from '../policy';
import type { NamespaceRow as Namespace, Project, ProjectRow } from './types';

// A project is always read with its namespace: one query, the namespace's columns under `ns_` names.
const NAMESPACE_COLUMNS = ['id', 'name', 'path', 'kind', 'owner_id', 'description', 'visibility_level', 'request_access_enabled', 'share_with_group_lock', 'lfs_enabled', 'created_at', 'updated_at'] as const;

function projectsWithNamespaces(db: Db) {
  return db
    .selectFrom('projects')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .selectAll('projects')
    .select(NAMESPACE_COLUMNS.map((column) => `namespaces.${column} as ns_${column}` as const))
    .where('projects.pending_delete', '=', 0);
}

type JoinedRow = ProjectRow & { [K in (typeof NAMESPACE_COLUMNS)[number] as `ns_${K}`]: Namespace[K] };

function splitJoined(joined: JoinedRow): Project {
  const row: Record<string, unknown> = {};
  const namespace: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(joined)) {
    if (key.startsWith('ns_')) namespace[key.slice(3)] = value;
    else row[key] = value;
  }
  return { ...(row as ProjectRow), namespace: namespace as Namespace };
}

/** By numeric id or `namespace/path` (exact, then ignoring case), with its namespace, in one query. */
export async function findProject(db: Db, idOrPath: string | number): Promise<Project | undefined> {
  const text = String(idOrPath);
  const slash = text.indexOf('/');
  if (slash > 0) {
    const [namespacePath, projectPath] = [text.slice(0, slash), text.slice(slash + 1)];
    const candidates = await projectsWithNamespaces(db)
      .where((eb) => eb(eb.fn('lower', ['namespaces.path']), '=', namespacePath.toLowerCase()))
      .where((eb) => eb(eb.fn('lower', ['projects.path']), '=', projectPath.toLowerCase()))
      .execute();
    const chosen = candidates.find((c) => c.ns_path === namespacePath && c.path === projectPath) ?? candidates[0];
    return chosen ? splitJoined(chosen as JoinedRow) : undefined;
  }
  if (!/^\d+$/.test(text)) return undefined;
  const row = await projectsWithNamespaces(db).where('projects.id', '=', Number(text)).executeTakeFirst();
  return row ? splitJoined(row as JoinedRow) : undefined;
}

/** Many rows with their namespaces, in one query. */
export async function attachNamespaces(db: Db, rows: ProjectRow[]): Promise<Project[]> {
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((row) => row.namespace_id))];
  const namespaces = await db.selectFrom('namespaces').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(namespaces.map((namespace) => [namespace.id, namespace]));
  return rows.map((row) => ({ ...row, namespace: byId.get(row.namespace_id)! }));
}

/** The project if the caller may read it; `404 Project Not Found` otherwise, never 403. */
export async function findReadable(db: Db, idOrPath: string | number, caller: Caller | null): Promise<{ project: Project; standing: ProjectStanding }> {
  const project = await findProject(db, idOrPath);
  if (!project) throw notFound('Project');
  const standing = await loadStanding(db, project, caller);
  if (!can(standing, 'read_project')) throw notFound('Project');
  return { project, standing };
}

/** Loads what the policy needs about the caller and this project, in two queries. */
export async function loadStanding(db: Db, project: Project, caller: Caller | null): Promise<ProjectStanding> {
  const base: ProjectStanding = {
    caller,
    visibilityLevel: project.visibility_level,
    archived: project.archived === 1,
    buildsEnabled: project.builds_enabled === 1,
    issuesEnabled: project.issues_enabled === 1,
    mergeRequestsEnabled: project.merge_requests_enabled === 1,
    snippetsEnabled: project.snippets_enabled === 1,
    publicBuilds: project.public_builds === 1,
    projectAccess: null,
    groupAccess: null,
    sharedAccess: null,
    namespaceOwner: false,
  };
  if (!caller) return base;
  const isGroup = project.namespace.kind === 'group';
  const [memberships, shared] = await Promise.all([
    db
      .selectFrom('members')
      .select(['source_type', 'access_level'])
      .where('user_id', '=', caller.id)
      .where('requested_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', project.id)]),
          eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', '=', project.namespace_id)]),
        ]),
      )
      .execute(),
    db
      .selectFrom('project_group_links')
      .innerJoin('members', (join) =>
        join.onRef('members.source_id', '=', 'project_group_links.group_id').on('members.source_type', '=', 'Namespace'),
      )
      .select(['project_group_links.group_access', 'members.access_level'])
      .where('project_group_links.project_id', '=', project.id)
      .where('members.user_id', '=', caller.id)
      .where('members.requested_at', 'is', null)
      .execute(),
  ]);
  const projectAccess = memberships.find((m) => m.source_type === 'Project')?.access_level ?? null;
  const groupAccess = isGroup ? memberships.find((m) => m.source_type === 'Namespace')?.access_level ?? null : null;
  const sharedAccess = shared.length ? Math.max(...shared.map((s) => Math.min(s.group_access, s.access_level))) : null;
  const namespaceOwner = isGroup ? groupAccess === OWNER : project.namespace.owner_id === caller.id;
  return { ...base, projectAccess, groupAccess, sharedAccess, namespaceOwner };
}

/** `403 Forbidden` unless the standing allows the ability. */
export function authorize(standing: ProjectStanding, ability: ProjectAbility): void {
  if (!can(standing, ability)) throw forbidden();
}

/** The owner shown in system hooks: the namespace's user, or the group itself (with no e-mail), as GitLab 8.12. */
export async function hookOwnerOf(db: Db, project: Project): Promise<{ name: string; email: string } | undefined> {
  if (project.namespace.kind === 'group') return { name: project.namespace.name, email: '' };
  if (project.namespace.owner_id === null) return undefined;
  return db.selectFrom('users').select(['name', 'email']).where('id', '=', project.namespace.owner_id).executeTakeFirst();
}
