import type { ServiceContext } from '../../context';
import type { Db } from '../../../db/index';
import { preparedPerHandle } from '../../../db/prepared';
import type { BuildRow } from '../types';
import { digestToken, sameSecret } from '../../../lib/secrets';
import { forbidden, notFound } from '../../../errors';

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
