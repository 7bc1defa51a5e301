import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { User } from '../users/users';
import { now } from '../../lib/time';
import { digestToken, randomHex } from '../../lib/secrets';
import type { Caller, ProjectAbility, ProjectStanding } from '../policy';
import type { EventsService } from '../events/events';
import type { SettingsReader } from '../settings-reader';
import type { NamespaceRow, Project, ProjectListOptions, ProjectRow } from './types';
import type { ProjectAttributes } from './attributes';
import type { ProjectDeps, RepositoryLifecycle } from './deps';
import { loadProjectDetails, type ProjectDetails } from './details';
import { attachNamespaces, authorize, findProject, findReadable, loadStanding } from './queries';
import { listProjects } from './list';
import { creatableNamespaces, personalNamespace, usableNamespace } from './namespaces';
import { createProject } from './create';
import { setArchived, updateProject } from './update';
import { hasStarred, star, unstar } from './stars';
import { forkProject } from './fork';
import { transferProject } from './transfer';
import { shareProject, unshareProject } from './share';
import { destroyProject, removeProject } from './destroy';

/**
 * Projects: the one door for routes and other services. Each operation lives in its own file
 * (`lookup`, `list`, `create`, `update`, `stars`, `fork`, `transfer`, `share`, `destroy`); this
 * class hands them what they need.
 */
export class ProjectsService {
  private readonly deps: ProjectDeps;

  constructor(
    private readonly ctx: ServiceContext,
    settings: SettingsReader,
    events: EventsService,
    repositories: RepositoryLifecycle,
    /** Called once a change to a personal namespace's projects is committed (users remember their counts). */
    personalProjectsChanged: () => void,
  ) {
    this.deps = { ctx, settings, events, repositories, personalProjectsChanged };
  }

  private get db(): Db {
    return this.ctx.db;
  }

  // ---- look-up and permission ----

  /** By numeric id or `namespace/path` (exact, then ignoring case). */
  find(idOrPath: string | number): Promise<Project | undefined> {
    return findProject(this.db, idOrPath);
  }

  /** The project if the caller may read it; `404 Project Not Found` otherwise, never 403. */
  findReadable(idOrPath: string | number, caller: Caller | null): Promise<{ project: Project; standing: ProjectStanding }> {
    return findReadable(this.db, idOrPath, caller);
  }

  /** Loads what the policy needs about the caller and this project, in two queries. */
  standing(project: Project, caller: Caller | null): Promise<ProjectStanding> {
    return loadStanding(this.db, project, caller);
  }

  /** What Project responses show beyond the rows, for a whole page in a fixed number of queries. */
  details(projects: Project[], caller: Caller | null): Promise<ProjectDetails> {
    return loadProjectDetails(this.db, projects, caller);
  }

  authorize(standing: ProjectStanding, ability: ProjectAbility): void {
    authorize(standing, ability);
  }

  /** A page of projects; anonymous callers (null) see public ones only. */
  list(caller: Caller | null, options: ProjectListOptions): Promise<{ projects: Project[]; total: number }> {
    return listProjects(this.db, caller, options);
  }

  attachNamespaces(rows: ProjectRow[]): Promise<Project[]> {
    return attachNamespaces(this.db, rows);
  }

  // ---- create ----

  /** POST /projects: in the caller's namespace or one they may create projects in. */
  async create(caller: User, attributes: ProjectAttributes, namespaceId?: number): Promise<Project> {
    const namespace: NamespaceRow =
      namespaceId === undefined ? await personalNamespace(this.db, caller.id) : await usableNamespace(this.db, caller, namespaceId);
    return createProject(this.deps, caller, namespace, attributes, caller);
  }

  /** The namespaces the caller may create projects in (or fork into): their own first. */
  creatableNamespaces(caller: Caller): Promise<NamespaceRow[]> {
    return creatableNamespaces(this.db, caller);
  }

  /** POST /projects/user/:user_id (administrators): a project owned by another user. */
  async createForUser(admin: User, owner: User, attributes: ProjectAttributes): Promise<Project> {
    return createProject(this.deps, admin, await personalNamespace(this.db, owner.id), attributes, owner);
  }

  // ---- change ----

  update(project: Project, standing: ProjectStanding, actor: User, attributes: ProjectAttributes): Promise<Project> {
    return updateProject(this.deps, project, standing, actor, attributes);
  }

  /** Archive or unarchive; idempotent. */
  setArchived(project: Project, standing: ProjectStanding, archived: boolean): Promise<Project> {
    return setArchived(this.deps, project, standing, archived);
  }

  /** Star: 304 when already starred. */
  star(project: Project, user: Caller): Promise<Project> {
    return star(this.db, project, user);
  }

  /** Whether the user has starred the project. */
  hasStarred(project: Project, user: Caller): Promise<boolean> {
    return hasStarred(this.db, project, user);
  }

  /** Unstar: 304 when not starred. */
  unstar(project: Project, user: Caller): Promise<Project> {
    return unstar(this.db, project, user);
  }

  /** Records activity (a push). */
  async touch(projectId: number, executor: Db = this.db): Promise<void> {
    await executor.updateTable('projects').set({ last_activity_at: now() }).where('id', '=', projectId).execute();
  }

  runnersToken(project: ProjectRow): string {
    return this.ctx.secrets.unseal(project.runners_token_sealed);
  }

  /**
   * A new registration token for the project's specific runners (GitLab 8.12's "Reset runners
   * registration token", masters): runners registered with the old one keep their own tokens.
   */
  async resetRunnersToken(project: Project, standing: ProjectStanding): Promise<Project> {
    authorize(standing, 'admin_project');
    const token = randomHex(30);
    const row = await this.db
      .updateTable('projects')
      .set({ runners_token_digest: digestToken(token), runners_token_sealed: this.ctx.secrets.seal(token), updated_at: now() })
      .where('id', '=', project.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...row, namespace: project.namespace };
  }

  // ---- fork, transfer, share ----

  /** Forks into the caller's namespace or a given one (id or path) they may create projects in. */
  fork(source: Project, standing: ProjectStanding, caller: User, namespaceRef?: string): Promise<Project> {
    return forkProject(this.deps, source, standing, caller, namespaceRef);
  }

  /** Moves a project into a group (administrators). */
  transfer(project: Project, group: NamespaceRow): Promise<Project> {
    return transferProject(this.deps, project, group);
  }

  /**
   * Moves a project into another namespace the caller may create projects in (GitLab 8.12's
   * `Projects::TransferService` from the settings page): owners only (`change_namespace`).
   */
  async transferTo(project: Project, standing: ProjectStanding, caller: Caller, namespaceId: number): Promise<Project> {
    authorize(standing, 'change_namespace');
    return transferProject(this.deps, project, await usableNamespace(this.db, caller, namespaceId));
  }

  share(project: Project, standing: ProjectStanding, groupId: number, groupAccess: number) {
    return shareProject(this.db, project, standing, groupId, groupAccess);
  }

  unshare(project: Project, standing: ProjectStanding, groupId: number): Promise<void> {
    return unshareProject(this.db, project, standing, groupId);
  }

  // ---- remove ----

  /** Removes the project at once; its repository goes through the job queue. */
  remove(project: Project, standing: ProjectStanding): Promise<void> {
    return removeProject(this.deps, project, standing);
  }

  /** Deletes a project's rows inside `trx` and queues its repository's removal. */
  destroy(trx: Db, project: Project): Promise<void> {
    return destroyProject(this.deps, trx, project);
  }
}
