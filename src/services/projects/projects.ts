import { sql } from 'kysely';
import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { User } from '../users/users';
import { ApiError, Validation, failedTo, forbidden, notFound, notModified, validationFailed } from '../../errors';
import { digestToken, randomHex } from '../../lib/secrets';
import { now } from '../../lib/time';
import { containsText } from '../../db/search';
import {
  GROUP_ACCESS_LEVELS, MASTER, OWNER, PUBLIC, INTERNAL, PRIVATE,
  can, visibilityName, type Caller, type ProjectAbility, type ProjectStanding,
} from '../policy';
import { authorizedFor, ownedBy, visibleTo } from './queries';
import { checkProjectName, checkProjectPath, checkVisibility, parameterize, requestedVisibility } from './rules';
import type { NamespaceRow, Project, ProjectListOptions, ProjectRow } from './types';
import type { EventsService } from '../events/events';
import type { SettingsReader } from '../settings-reader';
import { countPersonalProjects } from './counts';
import { loadProjectDetails, type ProjectDetails } from './details';
import { isValidBranchName } from '../../git/ref-names';
import { emitSystemEvent, emitSystemEvents, projectEventData, projectMemberEventData, projectMovedEventData } from '../hooks/system-events';

export interface ProjectAttributes {
  name?: string;
  path?: string;
  description?: string;
  default_branch?: string;
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  builds_enabled?: boolean;
  wiki_enabled?: boolean;
  snippets_enabled?: boolean;
  container_registry_enabled?: boolean;
  shared_runners_enabled?: boolean;
  public?: boolean;
  visibility_level?: number;
  import_url?: string;
  public_builds?: boolean;
  only_allow_merge_if_build_succeeds?: boolean;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
}

const FLAGS = [
  'issues_enabled', 'merge_requests_enabled', 'builds_enabled', 'wiki_enabled', 'snippets_enabled',
  'container_registry_enabled', 'shared_runners_enabled', 'public_builds', 'only_allow_merge_if_build_succeeds',
  'lfs_enabled', 'request_access_enabled',
] as const;

/** Hooks the repository layer plugs into: creating, copying and removing a project's repository. */
export interface RepositoryLifecycle {
  create(projectId: number, headBranch?: string): Promise<void>;
  fork(fromProjectId: number, toProjectId: number): Promise<void>;
  scheduleImport(projectId: number, url: string, executor: Db): Promise<void>;
  scheduleRemoval(projectId: number, executor: Db): Promise<void>;
}

export class ProjectsService {
  repositories: RepositoryLifecycle | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsReader,
    private readonly events: EventsService,
    /** Called once a change to a personal namespace's projects is committed (users remember their counts). */
    private readonly personalProjectsChanged: () => void = () => {},
  ) {}

  private get db(): Db {
    return this.ctx.db;
  }

  // ---- look-up and permission ----

  /** By numeric id or `namespace/path` (exact, then ignoring case). */
  async find(idOrPath: string | number): Promise<Project | undefined> {
    const text = String(idOrPath);
    let row: ProjectRow | undefined;
    const slash = text.indexOf('/');
    if (slash > 0) {
      const [namespacePath, projectPath] = [text.slice(0, slash), text.slice(slash + 1)];
      const candidates = await this.db
        .selectFrom('projects')
        .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
        .selectAll('projects')
        .select(['namespaces.path as namespace_path'])
        .where((eb) => eb(eb.fn('lower', ['namespaces.path']), '=', namespacePath.toLowerCase()))
        .where((eb) => eb(eb.fn('lower', ['projects.path']), '=', projectPath.toLowerCase()))
        .where('projects.pending_delete', '=', 0)
        .execute();
      const exact = candidates.find((c) => c.namespace_path === namespacePath && c.path === projectPath);
      const chosen = exact ?? candidates[0];
      if (chosen) {
        const { namespace_path: _ignored, ...project } = chosen;
        row = project;
      }
    } else if (/^\d+$/.test(text)) {
      row = await this.db.selectFrom('projects').selectAll().where('id', '=', Number(text)).where('pending_delete', '=', 0).executeTakeFirst();
    }
    return row ? this.withNamespace(row) : undefined;
  }

  async withNamespace(row: ProjectRow): Promise<Project> {
    const namespace = await this.db.selectFrom('namespaces').selectAll().where('id', '=', row.namespace_id).executeTakeFirstOrThrow();
    return { ...row, namespace };
  }

  /** The project if the caller may read it; `404 Project Not Found` otherwise, never 403. */
  async findReadable(idOrPath: string | number, caller: Caller | null): Promise<{ project: Project; standing: ProjectStanding }> {
    const project = await this.find(idOrPath);
    if (!project) throw notFound('Project');
    const standing = await this.standing(project, caller);
    if (!can(standing, 'read_project')) throw notFound('Project');
    return { project, standing };
  }

  /** Loads what the policy needs about the caller and this project, in two queries. */
  async standing(project: Project, caller: Caller | null): Promise<ProjectStanding> {
    const base: ProjectStanding = {
      caller,
      visibilityLevel: project.visibility_level,
      archived: project.archived === 1,
      buildsEnabled: project.builds_enabled === 1,
      projectAccess: null,
      groupAccess: null,
      sharedAccess: null,
      namespaceOwner: false,
    };
    if (!caller) return base;
    const isGroup = project.namespace.kind === 'group';
    const [memberships, shared] = await Promise.all([
      this.db
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
      this.db
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

  /** What Project responses show beyond the rows, for a whole page in a fixed number of queries. */
  details(projects: Project[], caller: Caller | null): Promise<ProjectDetails> {
    return loadProjectDetails(this.db, projects, caller);
  }

  authorize(standing: ProjectStanding, ability: ProjectAbility): void {
    if (!can(standing, ability)) throw forbidden();
  }

  // ---- lists ----

  async list(caller: Caller, options: ProjectListOptions): Promise<{ projects: Project[]; total: number }> {
    let query = this.db.selectFrom('projects').where('projects.pending_delete', '=', 0);
    if (options.scope === 'authorized') query = query.where((eb) => authorizedFor(eb, caller.id));
    if (options.scope === 'owned') query = query.where((eb) => ownedBy(eb, caller.id));
    if (options.scope === 'visible') query = query.where((eb) => visibleTo(eb, caller));
    if (options.scope === 'starred') {
      query = query
        .where('projects.id', 'in', (eb) => eb.selectFrom('stars').select('project_id').where('user_id', '=', caller.id))
        .where((eb) => visibleTo(eb, caller));
    }
    if (options.namespaceId !== undefined) query = query.where('projects.namespace_id', '=', options.namespaceId);
    if (options.groupId !== undefined) {
      const groupId = options.groupId;
      query = query.where((eb) =>
        eb.or([
          eb('projects.namespace_id', '=', groupId),
          eb('projects.id', 'in', eb.selectFrom('project_group_links').select('project_id').where('group_id', '=', groupId)),
        ]),
      );
    }
    if (options.archived !== undefined) query = query.where('projects.archived', '=', options.archived ? 1 : 0);
    if (options.visibility) {
      const level = { public: PUBLIC, internal: INTERNAL, private: PRIVATE }[options.visibility];
      query = query.where('projects.visibility_level', '=', level);
    }
    if (options.search) {
      const search = options.search;
      query = query.where((eb) => {
        const matches = [containsText('projects.name', search), containsText('projects.path', search), containsText('projects.description', search)];
        if (options.searchNamespace) {
          matches.push(sql<boolean>`${eb('projects.namespace_id', 'in', eb.selectFrom('namespaces').select('id').where(containsText('name', search)))}`);
        }
        return eb.or(matches);
      });
    }
    const orderBy = options.orderBy ?? 'created_at';
    const direction = options.sort ?? 'desc';
    const [rows, count] = await Promise.all([
      query
        .selectAll('projects')
        .$if(options.ciEnabledFirst === true, (q) => q.orderBy('projects.builds_enabled', 'desc'))
        // Names and paths sort alphabetically ignoring case, the same on both databases.
        .orderBy(orderBy === 'name' || orderBy === 'path' ? sql`lower(${sql.ref(`projects.${orderBy}`)})` : sql.ref(`projects.${orderBy}`), direction)
        .orderBy('projects.id', direction)
        .offset(options.offset)
        .limit(options.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { projects: await this.attachNamespaces(rows), total: Number(count.total) };
  }

  async attachNamespaces(rows: ProjectRow[]): Promise<Project[]> {
    if (rows.length === 0) return [];
    const ids = [...new Set(rows.map((row) => row.namespace_id))];
    const namespaces = await this.db.selectFrom('namespaces').selectAll().where('id', 'in', ids).execute();
    const byId = new Map(namespaces.map((namespace) => [namespace.id, namespace]));
    return rows.map((row) => ({ ...row, namespace: byId.get(row.namespace_id)! }));
  }

  // ---- create ----

  /** POST /projects: in the caller's namespace or one they may create projects in. */
  async create(caller: User, attributes: ProjectAttributes, namespaceId?: number): Promise<Project> {
    const namespace = namespaceId === undefined ? await this.personalNamespace(caller.id) : await this.usableNamespace(caller, namespaceId);
    return this.createIn(caller, namespace, attributes, caller);
  }

  /** POST /projects/user/:user_id (administrators): a project owned by another user. */
  async createForUser(admin: User, owner: User, attributes: ProjectAttributes): Promise<Project> {
    return this.createIn(admin, await this.personalNamespace(owner.id), attributes, owner);
  }

  private async personalNamespace(userId: number): Promise<NamespaceRow> {
    return this.db.selectFrom('namespaces').selectAll().where('owner_id', '=', userId).where('kind', '=', 'user').executeTakeFirstOrThrow();
  }

  /** A namespace the caller may create projects in; a 400 on `namespace` otherwise, as GitLab validates it. */
  private async usableNamespace(caller: User, namespaceId: number): Promise<NamespaceRow> {
    const namespace = await this.db.selectFrom('namespaces').selectAll().where('id', '=', namespaceId).executeTakeFirst();
    if (!namespace || !(await this.mayCreateIn(caller, namespace))) throw validationFailed({ namespace: ['is not valid'] });
    return namespace;
  }

  async mayCreateIn(caller: Caller, namespace: NamespaceRow): Promise<boolean> {
    if (caller.admin === 1) return true;
    if (namespace.kind === 'user') return namespace.owner_id === caller.id;
    const member = await this.db
      .selectFrom('members')
      .select('access_level')
      .where('source_type', '=', 'Namespace')
      .where('source_id', '=', namespace.id)
      .where('user_id', '=', caller.id)
      .where('requested_at', 'is', null)
      .executeTakeFirst();
    return (member?.access_level ?? 0) >= MASTER;
  }

  private async createIn(actor: User, namespace: NamespaceRow, attributes: ProjectAttributes, owner: User, forkedFrom?: Project): Promise<Project> {
    const settings = await this.settings.get();
    if (namespace.kind === 'user') await this.checkProjectLimit(owner);
    const name = attributes.name;
    const path = attributes.path || (name ? parameterize(name) : undefined);
    const visibility = requestedVisibility(attributes) ?? forkedFrom?.visibility_level ?? settings.default_project_visibility;
    const validation = new Validation();
    checkProjectName(validation, name);
    checkProjectPath(validation, path);
    checkVisibility(validation, actor, visibility, namespace, settings.restricted_visibility_levels, forkedFrom);
    if (attributes.default_branch !== undefined && !isValidBranchName(attributes.default_branch)) validation.add('default_branch', 'is invalid');
    if (validation.ok) await this.checkTaken(validation, namespace.id, name!, path!, undefined);
    validation.throwIfInvalid();

    const time = now();
    const runnersToken = randomHex(30);
    const flags = Object.fromEntries(FLAGS.map((flag) => [flag, attributes[flag] === undefined ? undefined : attributes[flag] ? 1 : 0]).filter(([, v]) => v !== undefined));
    const project = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('projects')
        .values({
          namespace_id: namespace.id,
          name: name!,
          path: path!,
          description: attributes.description ?? forkedFrom?.description ?? null,
          default_branch: attributes.default_branch ?? forkedFrom?.default_branch ?? null,
          visibility_level: visibility,
          shared_runners_enabled: settings.shared_runners_enabled === false ? 0 : 1,
          ...flags,
          creator_id: actor.id,
          forked_from_project_id: forkedFrom?.id ?? null,
          import_url: attributes.import_url ?? null,
          import_status: attributes.import_url ? 'scheduled' : 'none',
          runners_token_digest: digestToken(runnersToken),
          runners_token_sealed: this.ctx.secrets.seal(runnersToken),
          last_activity_at: time,
          created_at: time,
          updated_at: time,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // The creator of a personal project becomes its master (GitLab 8.12).
      if (namespace.kind === 'user') {
        await trx
          .insertInto('members')
          .values({ source_type: 'Project', source_id: row.id, user_id: owner.id, access_level: MASTER, notification_level: 3, created_by_id: actor.id, created_at: time, updated_at: time })
          .execute();
      }
      await this.events.record(trx, { projectId: row.id, authorId: actor.id, action: 'created' });
      const full = { ...row, namespace };
      const owned = namespace.kind === 'user';
      await emitSystemEvents(this.ctx, trx, [
        { name: 'project_create', data: projectEventData(eventProject(full), (await this.ownerOf(full, trx)) ?? { name: '' }) },
        // The creator of a personal project joined it as master (GitLab 8.12 announces that too).
        ...(owned ? [{ name: 'user_add_to_team' as const, data: projectMemberEventData({ access_level: MASTER, created_at: time, updated_at: time }, eventProject(full), owner) }] : []),
      ]);
      if (attributes.import_url) await this.repositories?.scheduleImport(row.id, attributes.import_url, trx);
      return full;
    });
    if (namespace.kind === 'user') this.personalProjectsChanged();
    if (!attributes.import_url) {
      if (forkedFrom) await this.repositories?.fork(forkedFrom.id, project.id);
      else await this.repositories?.create(project.id, project.default_branch ?? undefined);
    }
    return project;
  }

  private async checkTaken(validation: Validation, namespaceId: number, name: string, path: string, selfId: number | undefined): Promise<void> {
    const clashes = await this.db
      .selectFrom('projects')
      .select(['name', 'path'])
      .where('namespace_id', '=', namespaceId)
      .where('id', '!=', selfId ?? -1)
      .where((eb) => eb.or([eb('name', '=', name), eb(eb.fn('lower', ['path']), '=', path.toLowerCase())]))
      .execute();
    if (clashes.some((c) => c.name === name)) validation.add('name', 'has already been taken');
    if (clashes.some((c) => c.path.toLowerCase() === path.toLowerCase())) validation.add('path', 'has already been taken');
  }

  private async checkProjectLimit(owner: User): Promise<void> {
    if ((await countPersonalProjects(this.db, owner.id)) < owner.projects_limit) return;
    const message = owner.projects_limit === 0
      ? 'Personal project creation is not allowed. Please contact your administrator with questions'
      : `Your project limit is ${owner.projects_limit} projects! Please contact your administrator to increase it`;
    // GitLab 8.12 answers this one with an `error` key holding an array.
    throw new ApiError(403, { error: [message] });
  }

  // ---- change ----

  async update(project: Project, standing: ProjectStanding, actor: User, attributes: ProjectAttributes): Promise<Project> {
    this.authorize(standing, 'admin_project');
    const visibility = requestedVisibility(attributes);
    if (attributes.name !== undefined && attributes.name !== project.name) this.authorize(standing, 'rename_project');
    if (visibility !== undefined && visibility !== project.visibility_level) this.authorize(standing, 'change_visibility_level');
    const name = attributes.name ?? project.name;
    const path = attributes.path ?? project.path;
    const validation = new Validation();
    if (attributes.name !== undefined) checkProjectName(validation, attributes.name);
    if (attributes.path !== undefined) checkProjectPath(validation, attributes.path);
    if (visibility !== undefined && visibility !== project.visibility_level) {
      const settings = await this.settings.get();
      const forkedFrom = project.forked_from_project_id ? await this.db.selectFrom('projects').selectAll().where('id', '=', project.forked_from_project_id).executeTakeFirst() : undefined;
      checkVisibility(validation, actor, visibility, project.namespace, settings.restricted_visibility_levels, forkedFrom);
    }
    if (validation.ok) await this.checkTaken(validation, project.namespace_id, name, path, project.id);
    validation.throwIfInvalid();

    const changes: Partial<ProjectRow> = { name, path, updated_at: now() };
    if (attributes.description !== undefined) changes.description = attributes.description;
    if (attributes.default_branch !== undefined) changes.default_branch = attributes.default_branch;
    if (visibility !== undefined) changes.visibility_level = visibility;
    for (const flag of FLAGS) if (attributes[flag] !== undefined) changes[flag] = attributes[flag] ? 1 : 0;
    const renamed = path !== project.path;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.updateTable('projects').set(changes).where('id', '=', project.id).returningAll().executeTakeFirstOrThrow();
      const updated = { ...row, namespace: project.namespace };
      if (renamed) {
        const owner = await this.ownerOf(updated, trx);
        await emitSystemEvent(this.ctx, trx, 'project_rename', projectMovedEventData(eventProject(updated), owner ?? { name: '' }, `${project.namespace.path}/${project.path}`));
      }
      return updated;
    });
  }

  /** Archive or unarchive; idempotent. */
  async setArchived(project: Project, standing: ProjectStanding, archived: boolean): Promise<Project> {
    this.authorize(standing, 'archive_project');
    const row = await this.db.updateTable('projects').set({ archived: archived ? 1 : 0, updated_at: now() }).where('id', '=', project.id).returningAll().executeTakeFirstOrThrow();
    return { ...row, namespace: project.namespace };
  }

  /** Star: 304 when already starred. */
  async star(project: Project, user: Caller): Promise<Project> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('stars').select('id').where('user_id', '=', user.id).where('project_id', '=', project.id).executeTakeFirst();
      if (existing) throw notModified();
      await trx.insertInto('stars').values({ user_id: user.id, project_id: project.id, created_at: now() }).execute();
      return this.refreshStarCount(trx, project);
    });
  }

  /** Unstar: 304 when not starred. */
  async unstar(project: Project, user: Caller): Promise<Project> {
    return this.db.transaction().execute(async (trx) => {
      const removed = await trx.deleteFrom('stars').where('user_id', '=', user.id).where('project_id', '=', project.id).executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) throw notModified();
      return this.refreshStarCount(trx, project);
    });
  }

  private async refreshStarCount(trx: Db, project: Project): Promise<Project> {
    const row = await trx
      .updateTable('projects')
      .set({ star_count: (eb) => eb.selectFrom('stars').select((s) => s.fn.countAll<number>().as('n')).where('project_id', '=', project.id) })
      .where('id', '=', project.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...row, namespace: project.namespace };
  }

  /** Removes the project at once; its repository goes through the job queue. */
  async remove(project: Project, standing: ProjectStanding): Promise<void> {
    this.authorize(standing, 'remove_project');
    await this.db.transaction().execute((trx) => this.destroy(trx, project));
    if (project.namespace.kind === 'user') this.personalProjectsChanged();
  }

  /** Deletes a project's rows inside `trx` and queues its repository's removal. */
  async destroy(trx: Db, project: Project): Promise<void> {
    const owner = await this.ownerOf(project, trx);
    await trx.deleteFrom('members').where('source_type', '=', 'Project').where('source_id', '=', project.id).execute();
    await trx.deleteFrom('hooks').where('project_id', '=', project.id).execute();
    await trx.updateTable('projects').set({ forked_from_project_id: null }).where('forked_from_project_id', '=', project.id).execute();
    await trx.deleteFrom('projects').where('id', '=', project.id).execute();
    await emitSystemEvent(this.ctx, trx, 'project_destroy', projectEventData(eventProject(project), owner ?? { name: '' }));
    await this.repositories?.scheduleRemoval(project.id, trx);
  }

  /** The owner shown in system hooks: the namespace's user, or the group itself (with no e-mail), as GitLab 8.12. */
  async ownerOf(project: Project, executor: Db = this.db): Promise<{ name: string; email: string } | undefined> {
    if (project.namespace.kind === 'group') return { name: project.namespace.name, email: '' };
    if (project.namespace.owner_id === null) return undefined;
    return executor.selectFrom('users').select(['name', 'email']).where('id', '=', project.namespace.owner_id).executeTakeFirst();
  }

  // ---- fork, transfer, share ----

  /** Forks into the caller's namespace or a given one (id or path) they may create projects in. */
  async fork(source: Project, caller: User, namespaceRef?: string): Promise<Project> {
    let namespace: NamespaceRow | undefined;
    if (namespaceRef === undefined || namespaceRef === '') {
      namespace = await this.personalNamespace(caller.id);
    } else {
      namespace = await this.db
        .selectFrom('namespaces')
        .selectAll()
        .where((eb) =>
          /^\d+$/.test(namespaceRef)
            ? eb('id', '=', Number(namespaceRef))
            : eb.or([eb(eb.fn('lower', ['path']), '=', namespaceRef.toLowerCase()), eb('name', '=', namespaceRef)]),
        )
        .orderBy('id')
        .executeTakeFirst();
      if (!namespace || !(await this.mayCreateIn(caller, namespace))) throw notFound('Target Namespace');
    }
    const owner = namespace.kind === 'user' ? (await this.db.selectFrom('users').selectAll().where('id', '=', namespace.owner_id!).executeTakeFirstOrThrow()) : caller;
    try {
      return await this.createIn(caller, namespace, { name: source.name, path: source.path }, owner, source);
    } catch (error) {
      // GitLab answers a fork that cannot be saved with 409 and the validation messages.
      if (error instanceof ApiError && error.status === 400) throw new ApiError(409, error.body);
      throw error;
    }
  }

  /** Moves a project into a group (administrators). */
  async transfer(project: Project, group: NamespaceRow): Promise<Project> {
    if (project.namespace_id === group.id) return project;
    const validation = new Validation();
    await this.checkTaken(validation, group.id, project.name, project.path, project.id);
    // A project may not be more visible than its group (8.12 crashed here instead).
    if (project.visibility_level > group.visibility_level) {
      validation.add('visibility_level', `${visibilityName(project.visibility_level)} is not allowed in a ${visibilityName(group.visibility_level)} group.`);
    }
    if (!validation.ok) throw failedTo('transfer project', validation.messages);
    const moved = await this.db.transaction().execute(async (trx) => {
      const row = await trx.updateTable('projects').set({ namespace_id: group.id, updated_at: now() }).where('id', '=', project.id).returningAll().executeTakeFirstOrThrow();
      const moved = { ...row, namespace: group };
      const owner = await this.ownerOf(moved, trx);
      await emitSystemEvent(this.ctx, trx, 'project_transfer', projectMovedEventData(eventProject(moved), owner ?? { name: '' }, `${project.namespace.path}/${project.path}`));
      return moved;
    });
    if (project.namespace.kind === 'user') this.personalProjectsChanged();
    return moved;
  }

  async share(project: Project, standing: ProjectStanding, groupId: number, groupAccess: number) {
    this.authorize(standing, 'admin_project');
    if (project.namespace.share_with_group_lock === 1) throw new ApiError(400, { message: 'The project sharing with group is disabled' });
    const group = await this.db.selectFrom('namespaces').selectAll().where('id', '=', groupId).where('kind', '=', 'group').executeTakeFirst();
    if (!group) throw notFound('Group');
    if (!GROUP_ACCESS_LEVELS.slice(0, 4).includes(groupAccess)) throw new ApiError(409, { message: 'Group access is not included in the list' });
    const existing = await this.db.selectFrom('project_group_links').select('id').where('project_id', '=', project.id).where('group_id', '=', groupId).executeTakeFirst();
    if (existing) throw new ApiError(409, { message: 'Group already taken' });
    const time = now();
    return this.db
      .insertInto('project_group_links')
      .values({ project_id: project.id, group_id: groupId, group_access: groupAccess, created_at: time, updated_at: time })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async unshare(project: Project, standing: ProjectStanding, groupId: number): Promise<void> {
    this.authorize(standing, 'admin_project');
    const removed = await this.db.deleteFrom('project_group_links').where('project_id', '=', project.id).where('group_id', '=', groupId).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw notFound('Group Link');
  }

  runnersToken(project: ProjectRow): string {
    return this.ctx.secrets.unseal(project.runners_token_sealed);
  }

  async touch(projectId: number, executor: Db = this.db): Promise<void> {
    await executor.updateTable('projects').set({ last_activity_at: now() }).where('id', '=', projectId).execute();
  }
}


/** The project as system hook payloads describe it. */
function eventProject(project: Project) {
  return { ...project, path_with_namespace: `${project.namespace.path}/${project.path}` };
}
