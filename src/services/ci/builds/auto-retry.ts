import type { Db } from '../../../db/index';
import type { ServiceContext } from '../../context';
import type { BuildRow } from '../types';
import { retriesAgain } from '../yaml/retry';
import type { CiRetry } from '../yaml/types';
import { retryBuilds } from './retry';

/**
 * GitLab's automatic retry (`retry:` in `.gitlab-ci.yml`): a build that just failed runs again as a
 * new build, by the same user, while it has been retried fewer times than `max` and its failure is
 * one `when` names. Called in the transaction that failed it, after the pipeline followed.
 */
export async function retryIfConfigured(ctx: ServiceContext, trx: Db, failed: BuildRow): Promise<void> {
  const retry = retryOf(failed.options);
  if (!retry || failed.status !== 'failed') return;
  const [earlier, pipeline] = await Promise.all([
    trx
      .selectFrom('ci_builds')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pipeline_id', '=', failed.pipeline_id)
      .where('name', '=', failed.name)
      .where('type', '=', 'Build')
      .where('id', '<', failed.id)
      .executeTakeFirst(),
    trx.selectFrom('ci_pipelines').select('status').where('id', '=', failed.pipeline_id).executeTakeFirst(),
  ]);
  if (!retriesAgain(retry, Number(earlier?.n ?? 0), failed.failure_reason ?? 'unknown_failure')) return;
  await retryBuilds(ctx, trx, [failed], failed.user_id, pipeline?.status);
}

function retryOf(options: string): CiRetry | undefined {
  try {
    const retry: unknown = (JSON.parse(options || '{}') as { retry?: unknown }).retry;
    return retry !== null && typeof retry === 'object' ? (retry as CiRetry) : undefined;
  } catch {
    return undefined;
  }
}
