import type { Db } from '../../../db/index';
import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import { badRequest, notFound, unauthorized } from '../../../errors';
import { inTransaction } from '../../../db/transaction';
import { digestToken, randomHex } from '../../../lib/secrets';
import { now } from '../../../lib/time';
import { findProject } from '../../projects/queries';
import { repositoryPath } from '../../../git/paths';
import { readCommits } from '../../../git/commits';
import { insertPipelines, planTriggerPipeline } from './creation';
import type { PipelineRow, TriggerRow } from '../types';

/** A trigger as masters see it, its token in clear. */
export interface Trigger {
  id: number;
  token: string;
  /** What it is for; null for triggers made without one (API v3). */
  description: string | null;
  /** Who made it; null for triggers made through API v3 and once that user is gone. */
  owner_id: number | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** When the trigger was last used: the `created_at` of its latest request, or null. */
  last_used: string | null;
}

/** A trigger's call: its variables as given (null for none), and the pipeline it made. */
export interface TriggerRequest {
  id: number;
  variables: Record<string, string> | null;
  pipelineId: number | null;
}

/** What a trigger's caller sends: the trigger token, the ref to build, and variables for its builds. */
export interface TriggerCall {
  token: string;
  ref: string;
  /** Anything the caller sent: checked here, as GitLab 8.12 did, after the token. */
  variables: unknown;
}

/**
 * Build triggers (GitLab 8.12's `Ci::Trigger`): a project's tokens that start a pipeline without a
 * user. Tokens are stored as a digest for look-up and sealed to be shown again to masters.
 * Deletion is soft, as 8.12's `acts_as_paranoid`: a deleted trigger is gone for every look-up.
 */
export class TriggersService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** The project's live triggers, oldest first (8.12 gave no order: insertion order). */
  async list(projectId: number, page: { offset: number; limit: number }): Promise<{ triggers: Trigger[]; total: number }> {
    const live = this.db.selectFrom('ci_triggers').where('project_id', '=', projectId).where('deleted_at', 'is', null);
    const [rows, count] = await Promise.all([
      live.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      live.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { triggers: await this.present(rows), total: Number(count.total) };
  }

  /** `404 Trigger Not Found` for a token that is not one of the project's live triggers. */
  async find(projectId: number, token: string): Promise<Trigger> {
    return (await this.present([await this.liveRow(projectId, token)]))[0];
  }

  /** One of the project's live triggers by its id, or `404 Trigger Not Found`. */
  async findById(projectId: number, id: number): Promise<Trigger> {
    return (await this.present([await this.liveRowById(projectId, id)]))[0];
  }

  /**
   * A new trigger with a random token of 30 hex characters, as 8.12's `SecureRandom.hex(15)`;
   * GitLab 9 gave it a description and its maker as owner.
   */
  async create(projectId: number, about: { description?: string; ownerId?: number } = {}): Promise<Trigger> {
    const token = randomHex(30);
    const time = now();
    const row = await this.db
      .insertInto('ci_triggers')
      .values({
        project_id: projectId,
        token_digest: digestToken(token),
        token_sealed: this.ctx.secrets.seal(token),
        description: about.description ?? null,
        owner_id: about.ownerId ?? null,
        deleted_at: null,
        created_at: time,
        updated_at: time,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return (await this.present([row]))[0];
  }

  /**
   * Soft deletion: `deleted_at` (and `updated_at`, as 8.12's `touch(:deleted_at)`) set; answers the
   * deleted trigger. Departure: 8.12 also destroyed the trigger's requests (`dependent: :destroy`),
   * which took their variables from builds still waiting in the queue; here the requests stay, so
   * the builds a trigger already made run as they were asked to.
   */
  async delete(projectId: number, token: string): Promise<Trigger> {
    return this.remove(await this.liveRow(projectId, token));
  }

  /** The same, the trigger named by its id (API v4). */
  async deleteById(projectId: number, id: number): Promise<Trigger> {
    return this.remove(await this.liveRowById(projectId, id));
  }

  /** A live trigger's description changed (GitLab 9's `PUT …/triggers/:trigger_id`). */
  async update(projectId: number, id: number, changes: { description?: string }): Promise<Trigger> {
    const row = await this.liveRowById(projectId, id);
    if (changes.description === undefined) return (await this.present([row]))[0];
    const updated = await this.db
      .updateTable('ci_triggers')
      .set({ description: changes.description, updated_at: now() })
      .where('id', '=', row.id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw notFound('Trigger');
    return (await this.present([updated]))[0];
  }

  private async remove(row: TriggerRow): Promise<Trigger> {
    const time = now();
    const deleted = await this.db
      .updateTable('ci_triggers')
      .set({ deleted_at: time, updated_at: time })
      .where('id', '=', row.id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    // Deleted by another request meanwhile: gone, as the look-up would now say.
    if (!deleted) throw notFound('Trigger');
    return (await this.present([deleted]))[0];
  }

  /**
   * GitLab 8.12's `POST /projects/:id/trigger/builds` after its required parameters, check by check
   * (reference §2.11): 404 for an unknown project or token, 401 for a token of another project, 400
   * for variables that are not a hash of strings. Then the request is saved whatever follows, and a
   * pipeline made for the ref without a user (`[ci skip]` ignored, a broken `.gitlab-ci.yml` saved
   * as a failed pipeline), its builds carrying the request. `No builds created` (400) when no
   * pipeline could be: builds disabled, no such ref, no `.gitlab-ci.yml`, no job for the ref.
   * The token is the only credential: the project is found whatever its visibility, as in 8.12.
   */
  async trigger(projectIdOrPath: string, call: TriggerCall): Promise<TriggerRequest> {
    return (await this.call(projectIdOrPath, call)).request;
  }

  /** The same (GitLab 9's `POST /projects/:id/trigger/pipeline`), answered with the pipeline made and its project. */
  async triggerPipeline(projectIdOrPath: string, call: TriggerCall): Promise<{ project: Project; pipeline: PipelineRow }> {
    const { project, request } = await this.call(projectIdOrPath, call);
    const pipeline = await this.db.selectFrom('ci_pipelines').selectAll().where('id', '=', request.pipelineId!).executeTakeFirstOrThrow();
    return { project, pipeline };
  }

  private async call(projectIdOrPath: string, call: TriggerCall): Promise<{ project: Project; request: TriggerRequest }> {
    const [project, trigger] = await Promise.all([findProject(this.db, projectIdOrPath), this.liveRowByToken(call.token)]);
    if (!project || !trigger) throw notFound();
    if (trigger.project_id !== project.id) throw unauthorized();
    const variables = triggerVariables(call.variables);
    return { project, request: await this.run(project, trigger.id, call.ref, variables) };
  }

  /**
   * The legacy `POST /ci/api/v1/projects/:id/refs/:ref/trigger`: the same, answered with the
   * pipeline and its commit as well (8.12's `commit`).
   */
  async triggerWithPipeline(projectIdOrPath: string, call: TriggerCall): Promise<{ request: TriggerRequest; pipeline: TriggeredPipeline }> {
    const request = await this.trigger(projectIdOrPath, call);
    const row = await this.db
      .selectFrom('ci_pipelines')
      .select(['id', 'sha', 'project_id', 'created_at', 'status', 'finished_at', 'duration'])
      .where('id', '=', request.pipelineId!)
      .executeTakeFirstOrThrow();
    const [commit] = await readCommits(this.ctx.git, repositoryPath(this.ctx.config.dataDir, row.project_id), [row.sha]);
    const pipeline = {
      ...row,
      git_commit_message: commit?.message ?? null,
      git_author_name: commit?.author.name ?? null,
      git_author_email: commit?.author.email ?? null,
    };
    return { request, pipeline };
  }

  private async run(project: Project, triggerId: number, ref: string, variables: Record<string, string> | null): Promise<TriggerRequest> {
    // git is read before the transaction (a transaction touches only the database).
    const plan = await planTriggerPipeline(this.ctx, project, ref);
    const request = await inTransaction(this.db, async (trx) => {
      const time = now();
      const saved = await trx
        .insertInto('ci_trigger_requests')
        .values({
          trigger_id: triggerId,
          variables: variables === null ? null : JSON.stringify(variables),
          pipeline_id: null,
          created_at: time,
          updated_at: time,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (!plan) return { id: saved.id, variables, pipelineId: null };
      const [pipelineId] = await insertPipelines(this.ctx, trx, [{ ...plan, triggerRequestId: saved.id }]);
      await trx.updateTable('ci_trigger_requests').set({ pipeline_id: pipelineId }).where('id', '=', saved.id).execute();
      return { id: saved.id, variables, pipelineId };
    });
    // The request is kept (8.12 saved it before trying), but the caller hears no pipeline came.
    if (request.pipelineId === null) throw badRequest('No builds created');
    return request;
  }

  private async liveRow(projectId: number, token: string): Promise<TriggerRow> {
    const row = await this.liveRowByToken(token);
    if (!row || row.project_id !== projectId) throw notFound('Trigger');
    return row;
  }

  private async liveRowById(projectId: number, id: number): Promise<TriggerRow> {
    const row = await this.db
      .selectFrom('ci_triggers')
      .selectAll()
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound('Trigger');
    return row;
  }

  private liveRowByToken(token: string): Promise<TriggerRow | undefined> {
    return this.db
      .selectFrom('ci_triggers')
      .selectAll()
      .where('token_digest', '=', digestToken(token))
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Rows as the API shows them, with `last_used` read for all of them in one query. */
  private async present(rows: TriggerRow[]): Promise<Trigger[]> {
    if (rows.length === 0) return [];
    const latest = await this.db
      .selectFrom('ci_trigger_requests')
      .select(['trigger_id', 'created_at'])
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('ci_trigger_requests')
          .select((inner) => inner.fn.max('id').as('id'))
          .where(
            'trigger_id',
            'in',
            rows.map((row) => row.id),
          )
          .groupBy('trigger_id'),
      )
      .execute();
    const lastUsed = new Map(latest.map((request) => [request.trigger_id, request.created_at]));
    return rows.map((row) => ({
      id: row.id,
      token: this.ctx.secrets.unseal(row.token_sealed),
      description: row.description,
      owner_id: row.owner_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
      deleted_at: row.deleted_at,
      last_used: lastUsed.get(row.id) ?? null,
    }));
  }
}

/** The pipeline a legacy trigger call answers with. */
export interface TriggeredPipeline {
  id: number;
  sha: string;
  project_id: number;
  created_at: string;
  status: string;
  finished_at: string | null;
  duration: number | null;
  git_commit_message: string | null;
  git_author_name: string | null;
  git_author_email: string | null;
}

/** 8.12's two checks of `variables`, in its order and words; null when none were given. */
function triggerVariables(value: unknown): Record<string, string> | null {
  // A JSON null is no variables, as 8.12's `if variables` read it.
  if (value === undefined || value === null) return null;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Buffer.isBuffer(value))
    throw badRequest('variables needs to be a hash');
  const entries = Object.entries(value);
  if (!entries.every(([, item]) => typeof item === 'string')) throw badRequest('variables needs to be a map of key-valued strings');
  return Object.fromEntries(entries) as Record<string, string>;
}
