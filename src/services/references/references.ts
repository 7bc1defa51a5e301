import { sql } from 'kysely';
import type { ServiceContext } from '../context';
import type { ProjectsService } from '../projects/projects';
import type { Project } from '../projects/types';
import { can, INTERNAL, PUBLIC, type Caller, type ProjectStanding } from '../policy';
import { mayReadIssue } from '../policy-reads';
import { groupIdsOf } from '../policy-reach';
import { repositoryPath } from '../../git/paths';
import type { Commit } from '../../git/objects';
import { parseCommit } from '../../git/objects';

/** What a text names, as the web door parsed it; `projectPath` null is the text's own project. */
export interface ReferenceQuery {
  issues: { projectPath: string | null; iid: number }[];
  mergeRequests: { projectPath: string | null; iid: number }[];
  /** `@name`: a user's username or a group's path. */
  names: string[];
  labels: string[];
  milestones: string[];
  commits: string[];
}

export interface ReferencedIssuable {
  project: Project;
  iid: number;
  title: string;
  state: string;
}

/** The targets of a text's references that the caller may read; whatever is missing or hidden is absent. */
export interface ResolvedReferences {
  /** By lower-cased path; the text's own project under ''. */
  projects: Map<string, Project>;
  issues: ReferencedIssuable[];
  mergeRequests: ReferencedIssuable[];
  users: { username: string; name: string }[];
  groups: { path: string; name: string }[];
  labels: { id: number; title: string; color: string }[];
  milestones: { iid: number; title: string }[];
  commits: Commit[];
}

/** More distinct projects than this in one text are not looked up: each costs its standing's queries. */
const MAX_PROJECTS = 10;
/** More names of one kind than this in one text are not looked up (a statement's bound values are limited). */
const MAX_NAMES = 100;

/**
 * GitLab's Markdown references (`#12`, `!3`, `@user`, `~label`, `%milestone`, commit ids,
 * `group/project#12`) resolved for a caller: each kind in one query over all of a text's
 * references, and only what the caller may read comes back, so a hidden issue's title never reaches a page.
 */
export class ReferencesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly projects: ProjectsService,
  ) {}

  async resolve(project: Project, standing: ProjectStanding, query: ReferenceQuery): Promise<ResolvedReferences> {
    const caller = standing.caller;
    const readable = await this.projectsNamed(project, standing, query);
    const projects = new Map([...readable].map(([path, entry]) => [path, entry.project]));
    const [issues, mergeRequests, names, labels, milestones, commits] = await Promise.all([
      this.issues(readable, query.issues),
      this.mergeRequests(readable, query.mergeRequests),
      this.names(caller, query.names),
      can(standing, 'read_label') ? this.labels(project, query.labels) : [],
      can(standing, 'read_milestone') ? this.milestones(project, query.milestones) : [],
      can(standing, 'download_code') ? this.commits(project, query.commits) : [],
    ]);
    return { projects, issues, mergeRequests, ...names, labels, milestones, commits };
  }

  /** The text's project and the other projects it names that the caller may read. */
  private async projectsNamed(project: Project, standing: ProjectStanding, query: ReferenceQuery) {
    const found = new Map<string, { project: Project; standing: ProjectStanding }>([['', { project, standing }]]);
    const paths = [
      ...new Set([...query.issues, ...query.mergeRequests].flatMap((ref) => (ref.projectPath ? [ref.projectPath.toLowerCase()] : []))),
    ];
    // Bounded by MAX_PROJECTS: a text naming many projects links the first few only.
    const others = await Promise.all(
      paths.slice(0, MAX_PROJECTS).map((path) => this.projects.findReadable(path, standing.caller).catch(() => undefined)),
    );
    paths.slice(0, MAX_PROJECTS).forEach((path, index) => {
      const other = others[index];
      if (other) found.set(path, other);
    });
    return found;
  }

  private async issues(projects: Map<string, { project: Project; standing: ProjectStanding }>, refs: ReferenceQuery['issues']) {
    const wanted = this.wanted(projects, refs, 'read_issue');
    if (wanted.length === 0) return [];
    const rows = await this.ctx.db
      .selectFrom('issues')
      .select(['project_id', 'iid', 'title', 'state', 'confidential', 'author_id', 'assignee_id'])
      .where((eb) => eb.or(wanted.map(({ project, iids }) => eb.and([eb('project_id', '=', project.id), eb('iid', 'in', iids)]))))
      .execute();
    const byId = new Map([...projects.values()].map((entry) => [entry.project.id, entry]));
    return rows.flatMap((row) => {
      const entry = byId.get(row.project_id);
      if (!entry || !mayReadIssue(entry.standing, row)) return [];
      return [{ project: entry.project, iid: row.iid, title: row.title, state: row.state }];
    });
  }

  private async mergeRequests(
    projects: Map<string, { project: Project; standing: ProjectStanding }>,
    refs: ReferenceQuery['mergeRequests'],
  ) {
    const wanted = this.wanted(projects, refs, 'read_merge_request');
    if (wanted.length === 0) return [];
    const rows = await this.ctx.db
      .selectFrom('merge_requests')
      .select(['target_project_id', 'iid', 'title', 'state'])
      .where((eb) => eb.or(wanted.map(({ project, iids }) => eb.and([eb('target_project_id', '=', project.id), eb('iid', 'in', iids)]))))
      .execute();
    const byId = new Map([...projects.values()].map((entry) => [entry.project.id, entry.project]));
    return rows.flatMap((row) => {
      const project = byId.get(row.target_project_id);
      return project ? [{ project, iid: row.iid, title: row.title, state: row.state }] : [];
    });
  }

  /** The iids asked of each readable project whose feature the caller may read. */
  private wanted(
    projects: Map<string, { project: Project; standing: ProjectStanding }>,
    refs: { projectPath: string | null; iid: number }[],
    ability: 'read_issue' | 'read_merge_request',
  ) {
    const iids = new Map<number, { project: Project; iids: Set<number> }>();
    for (const ref of refs) {
      const entry = projects.get(ref.projectPath?.toLowerCase() ?? '');
      if (!entry || !can(entry.standing, ability)) continue;
      const slot = iids.get(entry.project.id) ?? { project: entry.project, iids: new Set<number>() };
      slot.iids.add(ref.iid);
      iids.set(entry.project.id, slot);
    }
    return [...iids.values()].map(({ project, iids: set }) => ({ project, iids: [...set].slice(0, MAX_NAMES) }));
  }

  /** Users that exist and are active, and groups the caller may see (public, internal when signed in, or their own). */
  private async names(caller: Caller | null, given: string[]) {
    const names = [...new Set(given.map((name) => name.toLowerCase()))].slice(0, MAX_NAMES);
    if (names.length === 0) return { users: [], groups: [] };
    const [users, groups] = await Promise.all([
      this.ctx.db
        .selectFrom('users')
        .select(['username', 'name'])
        .where(sql<string>`lower(username)`, 'in', names)
        .where('state', '=', 'active')
        .execute(),
      this.ctx.db
        .selectFrom('namespaces')
        .select(['path', 'name'])
        .where('kind', '=', 'group')
        .where(sql<string>`lower(path)`, 'in', names)
        .where((eb) =>
          eb.or([
            eb('visibility_level', '>=', caller && caller.external !== 1 ? INTERNAL : PUBLIC),
            ...(caller ? [eb('id', 'in', groupIdsOf(caller.id))] : []),
            ...(caller?.admin === 1 ? [eb.lit(true)] : []),
          ]),
        )
        .execute(),
    ]);
    return { users, groups };
  }

  private async labels(project: Project, given: string[]) {
    const titles = [...new Set(given)].slice(0, MAX_NAMES);
    const ids = titles.filter((title) => /^\d{1,9}$/.test(title)).map(Number);
    if (titles.length === 0) return [];
    return this.ctx.db
      .selectFrom('labels')
      .select(['id', 'title', 'color'])
      .where('project_id', '=', project.id)
      .where((eb) => eb.or([eb('title', 'in', titles), ...(ids.length ? [eb('id', 'in', ids)] : [])]))
      .execute();
  }

  private async milestones(project: Project, given: string[]) {
    const titles = [...new Set(given)].slice(0, MAX_NAMES);
    const iids = titles.filter((title) => /^\d{1,9}$/.test(title)).map(Number);
    if (titles.length === 0) return [];
    return this.ctx.db
      .selectFrom('milestones')
      .select(['iid', 'title'])
      .where('project_id', '=', project.id)
      .where((eb) => eb.or([eb('title', 'in', titles), ...(iids.length ? [eb('iid', 'in', iids)] : [])]))
      .execute();
  }

  /** The commits the ids name in the project's repository, in one pipelined exchange with git. */
  private async commits(project: Project, given: string[]): Promise<Commit[]> {
    const ids = [...new Set(given.map((id) => id.toLowerCase()))].slice(0, MAX_NAMES);
    if (ids.length === 0) return [];
    const repoPath = repositoryPath(this.ctx.config.dataDir, project.id);
    const objects = await this.ctx.git.objects
      .readMany(
        repoPath,
        ids.map((id) => `${id}^{commit}`),
      )
      .catch(() => []);
    return objects.flatMap((object) => (object?.type === 'commit' ? [parseCommit(object.oid, object.content)] : []));
  }
}
