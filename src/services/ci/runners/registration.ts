import type { ServiceContext } from '../../context';
import type { SettingsService } from '../../settings/settings';
import { inTransaction } from '../../../db/transaction';
import { preparedQuery } from '../../../db/prepared';
import { digestToken, randomHex, sameSecret } from '../../../lib/secrets';
import { now } from '../../../lib/time';
import { forbidden, notFound, notGiven } from '../../../errors';
import type { RunnerRow } from '../types';

/** What a runner says about itself (`info[...]`), stored on its record. */
export interface RunnerInfo {
  name?: string;
  version?: string;
  revision?: string;
  platform?: string;
  architecture?: string;
}

export const RUNNER_INFO_FIELDS = ['name', 'version', 'revision', 'platform', 'architecture'] as const;

export interface RunnerRegistration {
  token?: string;
  description?: string;
  /** A comma-separated string or an array, as runners and forms send it. */
  tagList?: string | string[];
  runUntagged?: boolean;
  locked?: boolean;
  /** False registers the runner paused (runner API v4's `active: false` or `paused: true`). */
  active?: boolean;
  /** `not_protected` (the default) or `ref_protected`. */
  accessLevel?: string;
  /** Seconds, at least 600: caps the timeout of the runner's jobs. */
  maximumTimeout?: number;
  info: RunnerInfo;
}

export const ACCESS_LEVELS = ['not_protected', 'ref_protected'];

// GitLab writes `contacted_at` only when older than a random 40–80 minutes, so polling (every few
// seconds per runner) does not write the runner's row on every request.
const CONTACT_MIN_MS = 40 * 60 * 1000;
const CONTACT_SPREAD_MS = 40 * 60 * 1000;

/**
 * The runner API's runners (`/ci/api/v1/runners`, what a runner program calls): registration with a
 * registration token, removal, and look-up by their own token. Users and administrators manage
 * runners through `admin.ts` instead.
 */
export class RunnerRegistrationService {
  // Every runner request looks its runner up: built and compiled once (src/db/prepared.ts).
  private readonly byDigest: (digest: string) => Promise<RunnerRow[]>;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsService,
  ) {
    this.byDigest = preparedQuery(ctx.db, (digest: string) =>
      ctx.db.selectFrom('ci_runners').selectAll().where('token_digest', '=', digest),
    );
  }

  /**
   * GitLab 8.12's `POST /runners/register`: the shared registration token makes a shared runner, a
   * project's runners token a specific runner of that project; any other token is 403. A runner
   * that may not run untagged builds needs tags (404, as 8.12 answered a failed validation).
   */
  async register(input: RunnerRegistration): Promise<{ runner: RunnerRow; token: string }> {
    const given = input.token?.trim();
    if (!given) throw notGiven('token');
    const settings = await this.settings.get();
    let projectId: number | undefined;
    if (!sameSecret(given, settings.runners_registration_token)) {
      const project = await this.ctx.db
        .selectFrom('projects')
        .select('id')
        .where('runners_token_digest', '=', digestToken(given))
        .executeTakeFirst();
      if (!project) throw forbidden();
      projectId = project.id;
    }
    const tags = parseTagList(input.tagList);
    const runUntagged = input.runUntagged ?? true;
    if (!runUntagged && tags.length === 0) throw notFound();
    return createRunner(this.ctx, { ...input, tagList: tags, runUntagged }, { projectId, token: randomHex(30) });
  }

  /** The runner owning this token (paused ones included), or undefined. */
  async findByToken(token: string): Promise<RunnerRow | undefined> {
    return (await this.byDigest(digestToken(token)))[0];
  }

  /** Removes the runner of this token with its project links (`DELETE /runners/delete`); 403 for an unknown token. */
  async remove(token: string | undefined): Promise<RunnerRow> {
    if (!token) throw notGiven('token');
    const runner = await this.findByToken(token);
    if (!runner) throw forbidden();
    await inTransaction(this.ctx.db, async (trx) => {
      await trx.deleteFrom('ci_runner_projects').where('runner_id', '=', runner.id).execute();
      await trx.deleteFrom('ci_runners').where('id', '=', runner.id).execute();
    });
    return runner;
  }

  /**
   * A runner's bookkeeping on each call: `contacted_at` when older than 40–80 minutes (GitLab's
   * rule), and the `info` it sends when it changed. One write at most, none on most polls.
   */
  async contacted(runner: RunnerRow, info: RunnerInfo = {}): Promise<RunnerRow> {
    const changes: Partial<RunnerRow> = {};
    const time = now();
    const threshold = CONTACT_MIN_MS + Math.random() * CONTACT_SPREAD_MS;
    if (runner.contacted_at === null || Date.parse(time) - Date.parse(runner.contacted_at) > threshold) changes.contacted_at = time;
    for (const [field, value] of Object.entries(infoColumns(info)) as [keyof RunnerInfo, string][]) {
      if (runner[field] !== value) changes[field] = value;
    }
    if (Object.keys(changes).length === 0) return runner;
    await this.ctx.db
      .updateTable('ci_runners')
      .set({ ...changes, updated_at: time })
      .where('id', '=', runner.id)
      .execute();
    return { ...runner, ...changes, updated_at: time };
  }

  /** The ids of the projects a runner is linked to (specific runners). */
  async projectIds(runnerId: number): Promise<number[]> {
    const rows = await this.ctx.db.selectFrom('ci_runner_projects').select('project_id').where('runner_id', '=', runnerId).execute();
    return rows.map((row) => row.project_id);
  }
}

/**
 * Inserts a runner with its token (kept as a digest and sealed) and, for a project's runner, its
 * project link, in one transaction. Shared by registration with a registration token and the
 * runners users create (`RunnerAdminService.createForUser`).
 */
export async function createRunner(
  ctx: ServiceContext,
  input: Omit<RunnerRegistration, 'token'>,
  owner: { projectId?: number; token: string },
): Promise<{ runner: RunnerRow; token: string }> {
  const { projectId, token } = owner;
  const time = now();
  const runner = await inTransaction(ctx.db, async (trx) => {
    const row = await trx
      .insertInto('ci_runners')
      .values({
        token_digest: digestToken(token),
        token_sealed: ctx.secrets.seal(token),
        description: input.description ?? null,
        active: input.active === false ? 0 : 1,
        access_level: input.accessLevel ?? 'not_protected',
        maximum_timeout: input.maximumTimeout ?? null,
        is_shared: projectId === undefined ? 1 : 0,
        run_untagged: (input.runUntagged ?? true) ? 1 : 0,
        locked: input.locked ? 1 : 0,
        tag_list: JSON.stringify(parseTagList(input.tagList)),
        ...infoColumns(input.info),
        contacted_at: null,
        created_at: time,
        updated_at: time,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (projectId !== undefined) {
      await trx
        .insertInto('ci_runner_projects')
        .values({ runner_id: row.id, project_id: projectId, created_at: time, updated_at: time })
        .execute();
    }
    return row;
  });
  return { runner, token };
}

/** `tag_list` as ActsAsTaggable read it: a comma-separated string or an array, trimmed, blanks and repeats dropped. */
export function parseTagList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const items = (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(','));
  return [...new Set(items.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}

/** The `info` fields that were sent (non-empty strings), as columns. */
function infoColumns(info: RunnerInfo): RunnerInfo {
  const columns: RunnerInfo = {};
  for (const field of RUNNER_INFO_FIELDS) {
    const value = info[field];
    if (typeof value === 'string' && value !== '') columns[field] = value;
  }
  return columns;
}
