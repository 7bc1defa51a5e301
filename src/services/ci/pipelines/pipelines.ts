import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import type { User } from '../../users/users';
import { grapeError, recordNotFound, validationFailed } from '../../../errors';
import { inTransaction } from '../../../db/transaction';
import { branchNames, listTags } from '../../../git/refs';
import { repositoryPath } from '../../../git/paths';
import { lockPipeline } from './status';
import { transitionBuild } from '../builds/transitions';
import { retryBuilds } from '../builds/retry';
import { isRetryable } from '../builds/rules';
import { insertPipelines, planRefPipeline } from './creation';
import type { PipelineRow } from '../types';

/**
 * `scope` of a pipeline list. GitLab 8.12 knew `running` (running or pending), `branches` and
 * `tags` (the latest pipeline of each existing branch or tag); `pending` and `finished` came in
 * 8.13 and are accepted as it read them.
 */
export const PIPELINE_SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'] as const;
export type PipelineScope = (typeof PIPELINE_SCOPES)[number];

const STATUSES_OF: Partial<Record<PipelineScope, string[]>> = {
  running: ['running', 'pending'],
  pending: ['pending'],
  finished: ['success', 'failed', 'canceled'],
};

/** What GitLab 9–11's `PipelinesFinder` narrows and orders a list by, besides `scope`. */
export interface PipelineFilters {
  status?: string;
  ref?: string;
  sha?: string;
  /** Only pipelines with (true) or without (false) a YAML error. */
  yamlErrors?: boolean;
  /** Only pipelines made by the user of this username. */
  username?: string;
  orderBy?: 'id' | 'status' | 'ref' | 'user_id';
  sort?: 'asc' | 'desc';
}

/** A project's pipelines: lists, one pipeline, retrying its failed builds, canceling its active ones. */
export class PipelinesService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Newest first (by id), narrowed by `scope`; another scope is Grape's 400 for a value not in its list. */
  async list(
    project: Project,
    givenScope: string | undefined,
    page: { offset: number; limit: number },
    filters: PipelineFilters = {},
  ): Promise<{ pipelines: PipelineRow[]; total: number }> {
    if (givenScope !== undefined && !(PIPELINE_SCOPES as readonly string[]).includes(givenScope))
      throw grapeError(400, 'scope does not have a valid value');
    const scope = givenScope as PipelineScope | undefined;
    if (scope === 'branches' || scope === 'tags') return this.latestPerRef(project, scope, page);
    let query = this.ctx.db.selectFrom('ci_pipelines').where('project_id', '=', project.id);
    const statuses = scope && STATUSES_OF[scope];
    if (statuses) query = query.where('status', 'in', statuses);
    if (filters.status !== undefined) query = query.where('status', '=', filters.status);
    if (filters.ref !== undefined) query = query.where('ref', '=', filters.ref);
    if (filters.sha !== undefined) query = query.where('sha', '=', filters.sha);
    if (filters.yamlErrors !== undefined) query = query.where('yaml_errors', filters.yamlErrors ? 'is not' : 'is', null);
    const username = filters.username;
    if (username !== undefined)
      query = query.where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('username', '=', username));
    const sort = filters.sort ?? 'desc';
    let ordered = query.selectAll().orderBy(filters.orderBy ?? 'id', sort);
    if (filters.orderBy !== undefined && filters.orderBy !== 'id') ordered = ordered.orderBy('id', sort);
    const [pipelines, count] = await Promise.all([
      ordered.offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { pipelines, total: Number(count.total) };
  }

  /**
   * The latest pipeline of each ref that names an existing branch (or tag). The refs are matched
   * here rather than in SQL: a repository may hold more branches than a statement may carry.
   */
  private async latestPerRef(project: Project, scope: 'branches' | 'tags', page: { offset: number; limit: number }) {
    const repoPath = repositoryPath(this.ctx.config.dataDir, project.id);
    const names = new Set(
      scope === 'branches' ? await branchNames(repoPath) : (await listTags(this.ctx.git, repoPath)).map((tag) => tag.name),
    );
    const latest = await this.ctx.db
      .selectFrom('ci_pipelines')
      .select(['ref', (eb) => eb.fn.max('id').as('id')])
      .where('project_id', '=', project.id)
      .groupBy('ref')
      .execute();
    const ids = latest
      .filter((row) => row.ref !== null && names.has(row.ref))
      .map((row) => Number(row.id))
      .sort((a, b) => b - a);
    const pageIds = ids.slice(page.offset, page.offset + page.limit);
    const pipelines = pageIds.length
      ? await this.ctx.db.selectFrom('ci_pipelines').selectAll().where('id', 'in', pageIds).orderBy('id', 'desc').execute()
      : [];
    return { pipelines, total: ids.length };
  }

  /** One pipeline of the project, or 8.12's `404 Not found` (a failed record look-up). */
  async find(project: Project, pipelineId: number): Promise<PipelineRow> {
    const pipeline = await this.ctx.db
      .selectFrom('ci_pipelines')
      .selectAll()
      .where('project_id', '=', project.id)
      .where('id', '=', pipelineId)
      .executeTakeFirst();
    if (!pipeline) throw recordNotFound();
    return pipeline;
  }

  /**
   * A pipeline for `ref`'s head commit, made by `user` (GitLab 9's `POST /projects/:id/pipeline`).
   * Nothing is saved when none can be: 400 with GitLab's reason as the record's `base` error.
   */
  async create(project: Project, ref: string, user: User): Promise<PipelineRow> {
    // git is read before the transaction (a transaction touches only the database).
    const plan = await planRefPipeline(this.ctx, project, ref, user.id);
    if (typeof plan === 'string') throw validationFailed({ base: [plan] });
    if ('yamlError' in plan) throw validationFailed({ base: [plan.yamlError] });
    const [id] = await inTransaction(this.ctx.db, (trx) => insertPipelines(this.ctx, trx, [plan]));
    return this.find(project, id);
  }

  /** Every latest build of the pipeline that failed and may run again is retried (`retryBuilds`), by the caller. */
  async retry(project: Project, pipelineId: number, user: User): Promise<PipelineRow> {
    const pipeline = await this.find(project, pipelineId);
    await inTransaction(this.ctx.db, async (trx) => {
      const locked = await lockPipeline(this.ctx, trx, pipeline.id);
      const failed = await trx
        .selectFrom('ci_builds')
        .selectAll()
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('ci_builds')
            .select((inner) => inner.fn.max('id').as('id'))
            .where('pipeline_id', '=', pipeline.id)
            .where('type', '=', 'Build')
            .groupBy('name'),
        )
        .where('status', '=', 'failed')
        .orderBy('id')
        .execute();
      await retryBuilds(this.ctx, trx, failed.filter(isRetryable), user.id, locked?.status);
    });
    return this.find(project, pipelineId);
  }

  /**
   * Every pending or running build of the pipeline is canceled (created ones wait, and are then
   * skipped as the pipeline processes), one by one as GitLab did, so each fires its build hook; all
   * in one transaction, so the pipeline ends `canceled` at once.
   */
  async cancel(project: Project, pipelineId: number): Promise<PipelineRow> {
    const pipeline = await this.find(project, pipelineId);
    await inTransaction(this.ctx.db, async (trx) => {
      await lockPipeline(this.ctx, trx, pipeline.id);
      const active = await trx
        .selectFrom('ci_builds')
        .selectAll()
        .where('pipeline_id', '=', pipeline.id)
        .where('type', '=', 'Build')
        .where('status', 'in', ['pending', 'running', 'scheduled'])
        .orderBy('id')
        .execute();
      for (const build of active) await transitionBuild(this.ctx, trx, build, 'cancel');
    });
    return this.find(project, pipelineId);
  }
}
