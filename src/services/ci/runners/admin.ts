import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../../db/index';
import type { Database } from '../../../db/schema';
import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import type { ProjectsService } from '../../projects/projects';
import type { RunnerRow } from '../types';
import { createRunner, parseTagList, type RunnerRegistration } from './registration';
import { projectIdsWithAccess } from '../../projects/queries';
import { GUEST, mayManageEveryRunner, mayReadRunnerToken, readsEverything, RUNNER_MANAGER_ACCESS, type Caller } from '../../policy';
import { inTransaction } from '../../../db/transaction';
import { now } from '../../../lib/time';
import { badRequest, conflict, forbidden, notFound, recordNotFound, validationFailed } from '../../../errors';
import { recordIdOf } from '../../../lib/record-id';
import { randomHex } from '../../../lib/secrets';

/** A runner counts as online when it made contact this recently (GitLab 8.12's `ONLINE_CONTACT_TIMEOUT`, 2 hours). */
export const ONLINE_CONTACT_TIMEOUT_MS = 2 * 60 * 60 * 1000;

/** Whether the runner made contact recently enough to count as online (the `online` scope's rule, for one runner). */
export const isRunnerOnline = (runner: Pick<RunnerRow, 'contacted_at'>, time = Date.now()): boolean =>
  runner.contacted_at !== null && runner.contacted_at > new Date(time - ONLINE_CONTACT_TIMEOUT_MS).toISOString();

/** GitLab 8.12's `Ci::Runner::AVAILABLE_SCOPES`; `GET /runners` leaves out `specific` and `shared`. */
const ALL_SCOPES = ['specific', 'shared', 'active', 'paused', 'online'] as const;
const OWNED_SCOPES = ['active', 'paused', 'online'] as const;
type Scope = (typeof ALL_SCOPES)[number];

/** A project a runner serves, with the human name of its namespace (a group's name, a person's name). */
export interface RunnerProject {
  project: Project;
  namespaceHumanName: string;
}

/** What `RunnerDetails` shows: the runner, its token when the caller may see it, and the projects the caller may know of. */
export interface RunnerDetails {
  runner: RunnerRow;
  token: string | undefined;
  projects: RunnerProject[];
}

export interface RunnerChanges {
  description?: string;
  active?: boolean;
  /** An array or a comma-separated list, as ActsAsTaggable reads it. */
  tagList?: string | string[];
  runUntagged?: boolean;
  locked?: boolean;
}

export interface Page {
  offset: number;
  limit: number;
}

/**
 * The runners admin: the consumer API's `/runners` (GitLab 8.12's `API::Runners`): lists, details, changes and removal,
 * and enabling or disabling a specific runner for a project. A user manages the specific runners
 * of the projects they are a master or owner of; administrators manage every runner.
 */
/** `POST /user/runners`: what kind of runner, for what, and its settings. */
export interface UserRunner extends Omit<RunnerRegistration, 'token' | 'info'> {
  runnerType: 'instance_type' | 'group_type' | 'project_type';
  groupId?: string;
  projectId?: string;
}

/** A runner authentication token (GitLab 15.10's `glrt-` prefix, which `gitlab-runner register --token` expects). */
const authenticationToken = () => `glrt-${randomHex(20)}`;

export class RunnerAdminService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly projects: ProjectsService,
  ) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** `GET /runners`: the specific runners of the projects the caller masters. */
  listOwned(caller: Caller, scope: unknown, page: Page): Promise<{ runners: RunnerRow[]; total: number }> {
    const filter = scopeOf(scope, OWNED_SCOPES);
    return this.list(
      (query) =>
        query
          .where('is_shared', '=', 0)
          .where('id', 'in', runnerIdsOf(this.db, projectIdsWithAccess(this.db, caller.id, RUNNER_MANAGER_ACCESS))),
      filter,
      page,
    );
  }

  /** `GET /runners/all` (the route is for administrators): every runner. */
  listAll(scope: unknown, page: Page): Promise<{ runners: RunnerRow[]; total: number }> {
    return this.list((query) => query, scopeOf(scope, ALL_SCOPES), page);
  }

  /** `GET /projects/:id/runners`: the project's specific runners and every shared runner (8.12's `owned_or_shared`). */
  listForProject(projectId: number, scope: unknown, page: Page): Promise<{ runners: RunnerRow[]; total: number }> {
    const filter = scopeOf(scope, ALL_SCOPES);
    return this.list(
      (query) =>
        query.where((eb) =>
          eb.or([
            eb('is_shared', '=', 1),
            eb('id', 'in', eb.selectFrom('ci_runner_projects').select('runner_id').where('project_id', '=', projectId)),
          ]),
        ),
      filter,
      page,
    );
  }

  /** `GET /runners/:id`: a shared runner to anyone signed in; a specific one to administrators and its projects' masters. */
  async details(caller: Caller, id: string): Promise<RunnerDetails> {
    const runner = await this.find(id);
    if (!runner.is_shared && !mayManageEveryRunner(caller) && !(await this.canManage(caller, runner.id)))
      throw forbidden('No access granted');
    return this.detailsOf(caller, runner);
  }

  /**
   * `PUT /runners/:id`. The runner's row is read again on each poll (`RunnerRegistrationService.findByToken`
   * keeps nothing), so a pause or new tags apply to the runner's next request.
   */
  async update(caller: Caller, id: string, changes: RunnerChanges): Promise<RunnerDetails> {
    const runner = await this.find(id);
    if (!mayManageEveryRunner(caller)) {
      if (runner.is_shared) throw forbidden('Runner is shared');
      if (!(await this.canManage(caller, runner.id))) throw forbidden('No access granted');
    }
    const updated = await inTransaction(this.db, async (trx) => {
      const current = await lockRunner(this.ctx, trx, runner.id);
      if (!current) throw recordNotFound();
      const tags = changes.tagList === undefined ? (JSON.parse(current.tag_list) as string[]) : parseTagList(changes.tagList);
      const runUntagged = changes.runUntagged ?? current.run_untagged === 1;
      // GitLab's `tag_constraints` validation.
      if (!runUntagged && tags.length === 0)
        throw validationFailed({ tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] });
      return trx
        .updateTable('ci_runners')
        .set({
          description: changes.description ?? current.description,
          active: flagOf(changes.active, current.active),
          tag_list: JSON.stringify(tags),
          run_untagged: runUntagged ? 1 : 0,
          locked: flagOf(changes.locked, current.locked),
          updated_at: now(),
        })
        .where('id', '=', runner.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return this.detailsOf(caller, updated);
  }

  /** `DELETE /runners/:id`: administrators any runner; others a specific runner of one project they master. */
  async remove(caller: Caller, id: string): Promise<RunnerRow> {
    const runner = await this.find(id);
    if (!mayManageEveryRunner(caller)) {
      if (runner.is_shared) throw forbidden('Runner is shared');
      if ((await this.projectCount(this.db, runner.id)) > 1) throw forbidden('Runner associated with more than one project');
      if (!(await this.canManage(caller, runner.id))) throw forbidden('No access granted');
    }
    // Its builds keep their `runner_id`; a build it was running is failed by the stuck-builds sweep.
    await inTransaction(this.db, async (trx) => {
      await trx.deleteFrom('ci_runner_projects').where('runner_id', '=', runner.id).execute();
      await trx.deleteFrom('ci_runners').where('id', '=', runner.id).execute();
    });
    return runner;
  }

  /**
   * `POST /user/runners` (GitLab 15.10): a runner made by a signed-in user, who gets its
   * authentication token (`glrt-…`) once. An instance runner is an administrator's; a project
   * runner needs master or owner on the project (a project the user may not see is 404). Forge has
   * no group runners: a group runner is refused with 400.
   */
  async createForUser(caller: Caller, input: UserRunner): Promise<{ runner: RunnerRow; token: string }> {
    let projectId: number | undefined;
    if (input.runnerType === 'instance_type') {
      if (!mayManageEveryRunner(caller)) throw forbidden();
    } else if (input.runnerType === 'group_type') {
      throw badRequest('400 Bad request - group runners are not supported');
    } else {
      if (input.projectId === undefined) throw badRequest('400 Bad request - Missing/invalid project_id');
      const { project, standing } = await this.projects.findReadable(input.projectId, caller);
      this.projects.authorize(standing, 'admin_build');
      projectId = project.id;
    }
    if (input.runUntagged === false && parseTagList(input.tagList).length === 0)
      throw validationFailed({ tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] });
    return createRunner(this.ctx, { ...input, info: {} }, { projectId, token: authenticationToken() });
  }

  /**
   * `POST /projects/:id/runners` (masters of the project): a specific runner that is not locked,
   * which a non-administrator must already manage through another project. 409 when enabled already.
   */
  async enable(caller: Caller, projectId: number, runnerId: string): Promise<RunnerRow> {
    const runner = await this.find(runnerId);
    if (runner.is_shared) throw forbidden('Runner is shared');
    if (runner.locked) throw forbidden('Runner is locked');
    if (!mayManageEveryRunner(caller) && !(await this.canManage(caller, runner.id))) throw forbidden('No access granted');
    const time = now();
    const linked = await inTransaction(this.db, async (trx) => {
      // The runner may have gone since it was read: its removal and this link meet on its row.
      if (!(await lockRunner(this.ctx, trx, runner.id))) throw recordNotFound();
      return trx
        .insertInto('ci_runner_projects')
        .values({ runner_id: runner.id, project_id: projectId, created_at: time, updated_at: time })
        .onConflict((oc) => oc.columns(['runner_id', 'project_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
    });
    if (!linked) throw conflict('Runner was already enabled for this project');
    return runner;
  }

  /** `DELETE /projects/:id/runners/:runner_id`: unlinks a runner that keeps at least one other project. */
  async disable(projectId: number, runnerId: string): Promise<RunnerRow> {
    const id = recordIdOf(runnerId);
    return inTransaction(this.db, async (trx) => {
      // Locked first, so two projects disabling the same runner at once cannot leave it with none.
      const runner = id === undefined ? undefined : await lockRunner(this.ctx, trx, id);
      const link =
        runner &&
        (await trx
          .selectFrom('ci_runner_projects')
          .select('id')
          .where('runner_id', '=', runner.id)
          .where('project_id', '=', projectId)
          .executeTakeFirst());
      if (!runner || !link) throw notFound('Runner');
      if ((await this.projectCount(trx, runner.id)) === 1)
        throw forbidden('Only one project associated with the runner. Please remove the runner instead');
      await trx.deleteFrom('ci_runner_projects').where('id', '=', link.id).execute();
      return runner;
    });
  }

  private async list(
    narrow: (query: RunnerQuery) => RunnerQuery,
    scope: Scope | undefined,
    page: Page,
  ): Promise<{ runners: RunnerRow[]; total: number }> {
    const query = withScope(narrow(this.db.selectFrom('ci_runners')), scope);
    const [runners, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
    ]);
    return { runners, total: Number(count.count) };
  }

  /** The runner of a path or parameter; 8.12's `Ci::Runner.find` answered `404 Not found` for any unknown id. */
  private async find(id: string): Promise<RunnerRow> {
    const number = recordIdOf(id);
    const runner =
      number === undefined ? undefined : await this.db.selectFrom('ci_runners').selectAll().where('id', '=', number).executeTakeFirst();
    if (!runner) throw recordNotFound();
    return runner;
  }

  /** GitLab 8.12's `ci_authorized_runners`: a specific runner of a project the caller is master or owner of. */
  private async canManage(caller: Caller, runnerId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('ci_runner_projects')
      .select('id')
      .where('runner_id', '=', runnerId)
      .where('project_id', 'in', projectIdsWithAccess(this.db, caller.id, RUNNER_MANAGER_ACCESS))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async projectCount(db: Db, runnerId: number): Promise<number> {
    const row = await db
      .selectFrom('ci_runner_projects')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('runner_id', '=', runnerId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * 8.12's `RunnerDetails`: the token to administrators and for specific runners; the runner's
   * projects, all of them to administrators and to others those they are a member of.
   */
  private async detailsOf(caller: Caller, runner: RunnerRow): Promise<RunnerDetails> {
    let query = this.db
      .selectFrom('projects')
      .selectAll()
      .where('pending_delete', '=', 0)
      .where('id', 'in', this.db.selectFrom('ci_runner_projects').select('project_id').where('runner_id', '=', runner.id));
    if (!readsEverything(caller)) query = query.where('id', 'in', projectIdsWithAccess(this.db, caller.id, GUEST));
    const projects = await this.projects.attachNamespaces(await query.orderBy('id').execute());
    const ownerIds = [
      ...new Set(
        projects.flatMap((project) =>
          project.namespace.kind === 'user' && project.namespace.owner_id !== null ? [project.namespace.owner_id] : [],
        ),
      ),
    ];
    const owners =
      ownerIds.length === 0 ? [] : await this.db.selectFrom('users').select(['id', 'name']).where('id', 'in', ownerIds).execute();
    const ownerNames = new Map(owners.map((owner) => [owner.id, owner.name]));
    return {
      runner,
      token: mayReadRunnerToken(caller, runner) ? this.ctx.secrets.tryUnseal(runner.token_sealed) : undefined,
      projects: projects.map((project) => ({
        project,
        namespaceHumanName:
          (project.namespace.kind === 'user' && project.namespace.owner_id !== null
            ? ownerNames.get(project.namespace.owner_id)
            : undefined) ?? project.namespace.name,
      })),
    };
  }
}

/** Runners before their columns are chosen: the list and its count share the conditions. */
type RunnerQuery = SelectQueryBuilder<Database, 'ci_runners', object>;

const flagOf = (value: boolean | undefined, current: 0 | 1): 0 | 1 => (value === undefined ? current : value ? 1 : 0);

/** 8.12's `filter_runners`: no scope (or a blank one) lists all; a name outside `allowed` is 400. */
function scopeOf<S extends Scope>(scope: unknown, allowed: readonly S[]): S | undefined {
  if (scope === undefined || (typeof scope === 'string' && scope.trim() === '')) return undefined;
  if (typeof scope !== 'string' || !(allowed as readonly string[]).includes(scope)) throw badRequest('Scope contains invalid value');
  return scope as S;
}

function withScope(query: RunnerQuery, scope: Scope | undefined): RunnerQuery {
  switch (scope) {
    case 'specific':
      return query.where('is_shared', '=', 0);
    case 'shared':
      return query.where('is_shared', '=', 1);
    case 'active':
      return query.where('active', '=', 1);
    case 'paused':
      return query.where('active', '=', 0);
    case 'online':
      return query.where('contacted_at', '>', new Date(Date.now() - ONLINE_CONTACT_TIMEOUT_MS).toISOString());
    default:
      return query;
  }
}

/** The runner's row, locked against concurrent changes to it and its links on PostgreSQL (SQLite writes one at a time). */
async function lockRunner(ctx: ServiceContext, trx: Db, id: number): Promise<RunnerRow | undefined> {
  let lookup = trx.selectFrom('ci_runners').selectAll().where('id', '=', id);
  if (ctx.dialect === 'postgres') lookup = lookup.forUpdate();
  return lookup.executeTakeFirst();
}

/** The runners linked to any of these projects. */
function runnerIdsOf(db: Db, projectIds: ReturnType<typeof projectIdsWithAccess>) {
  return db.selectFrom('ci_runner_projects').select('runner_id').where('project_id', 'in', projectIds);
}
