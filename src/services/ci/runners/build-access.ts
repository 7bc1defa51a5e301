import type { ServiceContext } from '../../context';
import type { Db } from '../../../db/index';
import { preparedPerHandle } from '../../../db/prepared';
import type { BuildRow } from '../types';
import { digestToken, sameSecret } from '../../../lib/secrets';
import { forbidden, jobNotRunning, notFound } from '../../../errors';

/**
 * GitLab 8.12's `authenticate_build!` for the build endpoints (trace, artifacts): the build must
 * exist (404), then the token must be the build's own or its project's runners token (403; the
 * latter is kept for old runners). Digests are compared, in constant time.
 */
export async function authorizeBuild(ctx: ServiceContext, id: number | undefined, token: string | undefined): Promise<BuildRow> {
  const build = id === undefined ? undefined : (await buildById(ctx.db, id))[0];
  if (!build) throw notFound();
  if (!token) throw forbidden();
  const digest = digestToken(token);
  if (build.token_digest !== null && sameSecret(digest, build.token_digest)) return build;
  const project = await ctx.db.selectFrom('projects').select('runners_token_digest').where('id', '=', build.project_id).executeTakeFirst();
  if (project && sameSecret(digest, project.runners_token_digest)) return build;
  throw forbidden();
}

/** Every trace part looks its build up: the query is compiled once per database. */
const buildById = preparedPerHandle((db: Db, id: number) =>
  db.selectFrom('ci_builds').selectAll().where('id', '=', id).where('type', '=', 'Build'),
);

/** Erased builds take no more trace, state or artifacts (403, GitLab's words). */
export function refuseErased(build: Pick<BuildRow, 'erased_at'>): void {
  if (build.erased_at !== null) throw forbidden('Build has been erased!');
}

/**
 * The runner API v4's `authenticate_job!`: the build must exist (404), the token must be its own
 * (403: v4 takes no project runners token), its project not on its way out, the build not erased;
 * with `running`, a build that is no longer running is 403 with its status in `Job-Status`.
 */
export async function authorizeJob(
  ctx: ServiceContext,
  id: number | undefined,
  token: string | undefined,
  opts: { running: boolean },
): Promise<BuildRow> {
  const build = id === undefined ? undefined : (await buildById(ctx.db, id))[0];
  if (!build) throw notFound();
  if (!token || build.token_digest === null || !sameSecret(digestToken(token), build.token_digest)) throw forbidden();
  const project = await ctx.db.selectFrom('projects').select('pending_delete').where('id', '=', build.project_id).executeTakeFirst();
  if (!project || project.pending_delete) throw forbidden('Project has been deleted!');
  if (build.erased_at !== null) throw forbidden('Job has been erased!');
  if (opts.running) requireRunning(build);
  return build;
}

/** 403 with the build's status in `Job-Status` unless it is running. */
export function requireRunning(build: Pick<BuildRow, 'status'>): void {
  if (build.status !== 'running') throw jobNotRunning(build.status);
}
