import type { Db } from '../../../db/index';
import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import type { User } from '../../users/users';
import { badRequest, notFound } from '../../../errors';
import { now } from '../../../lib/time';
import { resolveCommitId } from '../../../git/commits';
import { branchesContaining } from '../../../git/containing';
import { repositoryPath } from '../../../git/paths';
import { fire, invalidTransition, lockPipeline, updatePipelineStatus, type StatusEvent } from './status';
import { queuePipelineHook } from '../hooks/enqueue';
import { inTransaction } from '../../../db/transaction';
import type { CommitStatusRow, PipelineRow } from '../types';

export const POSTABLE_STATES = ['pending', 'running', 'success', 'failed', 'canceled'] as const;
export type PostableState = (typeof POSTABLE_STATES)[number];

/**
 * GitLab 8.12 calls events on the status for each posted state: the soft ones (`enqueue` before
 * `run`) may not apply, the last one must.
 */
const EVENTS_FOR: Record<PostableState, Array<{ event: StatusEvent; strict: boolean }>> = {
  pending: [{ event: 'enqueue', strict: true }],
  running: [
    { event: 'enqueue', strict: false },
    { event: 'run', strict: true },
  ],
  success: [{ event: 'success', strict: true }],
  failed: [{ event: 'drop', strict: true }],
  canceled: [{ event: 'cancel', strict: true }],
};

/** External statuses sort after every stage of a `.gitlab-ci.yml` (GitLab 8.12 left their index empty). */
const EXTERNAL_STAGE_IDX = 1_000_000;

export interface StatusFilters {
  ref?: string;
  stage?: string;
  name?: string;
  /** Every status, not only the latest of each name in each pipeline. */
  all: boolean;
}

export interface PostedStatus {
  sha: string;
  state: string;
  ref?: string;
  name?: string;
  targetUrl?: string;
  description?: string;
}

/** Commit statuses: what CI systems report about a commit, next to the project's own builds. */
export class CommitStatusesService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * Statuses of the commit `sha` names, in every pipeline of the project for it, by id.
   * GitLab 8.12 looks pipelines up by the text given, so a short sha or a branch name found
   * the commit but listed nothing; the commit's full sha is used here.
   */
  async list(
    project: Project,
    sha: string,
    filters: StatusFilters,
    page: { offset: number; limit: number },
  ): Promise<{ statuses: CommitStatusRow[]; total: number }> {
    const commitId = await resolveCommitId(this.ctx.git, repositoryPath(this.ctx.config.dataDir, project.id), sha);
    if (!commitId) throw notFound('Commit');
    const pipelines = this.ctx.db.selectFrom('ci_pipelines').select('id').where('project_id', '=', project.id).where('sha', '=', commitId);
    let query = this.ctx.db.selectFrom('ci_builds').where('pipeline_id', 'in', pipelines);
    // The latest of each name is chosen before the filters apply, as GitLab's `latest` scope does.
    if (!filters.all) {
      query = query.where('id', 'in', (eb) =>
        eb
          .selectFrom('ci_builds')
          .select((inner) => inner.fn.max('id').as('id'))
          .where('pipeline_id', 'in', pipelines)
          .groupBy(['name', 'pipeline_id']),
      );
    }
    if (filters.ref) query = query.where('ref', '=', filters.ref);
    if (filters.stage) query = query.where('stage', '=', filters.stage);
    if (filters.name) query = query.where('name', '=', filters.name);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { statuses: rows.map((row) => ({ ...row, sha: commitId })), total: Number(count.total) };
  }

  /**
   * Adds or updates the caller's status `name` on the commit for `ref` (default: the first branch,
   * by name, holding the commit). A pending or running status of the same caller, name and ref in
   * the pipeline is moved on; otherwise a new one starts from `created`. The pipeline follows.
   */
  async post(project: Project, user: User, input: PostedStatus): Promise<CommitStatusRow> {
    const repoPath = repositoryPath(this.ctx.config.dataDir, project.id);
    const commitId = await resolveCommitId(this.ctx.git, repoPath, input.sha);
    if (!commitId) throw notFound('Commit');
    const ref = input.ref || (await branchesContaining(repoPath, commitId))[0];
    if (!ref) throw notFound('References for commit');
    if (!(POSTABLE_STATES as readonly string[]).includes(input.state)) throw badRequest('invalid state');
    const name = input.name || 'default';

    return inTransaction(this.ctx.db, async (trx) => {
      const pipeline = await ensurePipeline(trx, project.id, commitId, ref, user.id);
      // Two posts of one status wait for each other here instead of both creating it.
      const locked = await lockPipeline(this.ctx, trx, pipeline.id);
      const existing = await trx
        .selectFrom('ci_builds')
        .selectAll()
        .where('pipeline_id', '=', pipeline.id)
        .where('type', '=', 'GenericCommitStatus')
        .where('status', 'in', ['pending', 'running'])
        .where('user_id', '=', user.id)
        .where('name', '=', name)
        .where('ref', '=', ref)
        .orderBy('id')
        .executeTakeFirst();
      const time = now();
      let record = {
        status: existing?.status ?? 'created',
        queued_at: existing?.queued_at ?? null,
        started_at: existing?.started_at ?? null,
        finished_at: existing?.finished_at ?? null,
      };
      for (const { event, strict } of EVENTS_FOR[input.state as PostableState]) {
        const next = fire(record, event, time);
        if (next) record = next;
        else if (strict) throw badRequest(invalidTransition(event, record.status));
      }
      const given = {
        ...(input.targetUrl ? { target_url: input.targetUrl } : {}),
        ...(input.description ? { description: input.description } : {}),
      };
      let id: number;
      if (existing) {
        id = existing.id;
        await trx
          .updateTable('ci_builds')
          .set({ ...record, ...given, updated_at: time })
          .where('id', '=', id)
          .execute();
      } else {
        const inserted = await trx
          .insertInto('ci_builds')
          .values({
            project_id: project.id,
            pipeline_id: pipeline.id,
            type: 'GenericCommitStatus',
            name,
            stage: 'external',
            stage_idx: EXTERNAL_STAGE_IDX,
            ref,
            tag: 0,
            allow_failure: 0,
            when: 'on_success',
            options: '',
            yaml_variables: '',
            user_id: user.id,
            target_url: null,
            description: null,
            ...given,
            ...record,
            created_at: time,
            updated_at: time,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = inserted.id;
      }
      const status = await updatePipelineStatus(this.ctx, trx, pipeline.id);
      // An external status moves the pipeline like a build does, and pipeline hooks hear of it (GitLab 8.12).
      if (status !== undefined && status !== locked?.status)
        await queuePipelineHook(this.ctx, trx, { id: pipeline.id, project_id: project.id, status });
      const row = await trx.selectFrom('ci_builds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { ...row, sha: commitId };
    });
  }
}

/** The newest pipeline of the project for this sha and ref, created when there is none (GitLab's `ensure_pipeline`). */
export async function ensurePipeline(trx: Db, projectId: number, sha: string, ref: string, userId: number): Promise<PipelineRow> {
  const found = await trx
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('sha', '=', sha)
    .where('ref', '=', ref)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (found) return found;
  const time = now();
  return trx
    .insertInto('ci_pipelines')
    .values({ project_id: projectId, sha, ref, tag: 0, status: 'created', user_id: userId, created_at: time, updated_at: time })
    .returningAll()
    .executeTakeFirstOrThrow();
}
