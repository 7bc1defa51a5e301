import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import type { User } from '../../users/users';
import { forbidden, notFound, notGiven } from '../../../errors';
import { inTransaction } from '../../../db/transaction';
import { now } from '../../../lib/time';
import { artifactsKey, junitReportKey, traceKey } from './files';
import { lockPipeline } from '../pipelines/status';
import { transitionBuild } from './transitions';
import { retryBuilds } from './retry';
import { hasArtifacts, isFinished, isRetryable } from './rules';
import type { BuildRecord } from '../types';
import type { BuildsService } from './builds';

/** What a caller does to one build: cancel, retry, play, erase, keep its artifacts. */
export class BuildActionsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly builds: BuildsService,
  ) {}

  /**
   * A created, pending, running or scheduled build is canceled, and its pipeline follows (the next stages are
   * skipped). Any other build is left as it is and shown unchanged, as 8.12 did (`build.cancel`
   * returned false and the API answered 201 with the build).
   */
  async cancel(project: Project, buildId: number | string): Promise<BuildRecord> {
    const build = await this.builds.find(project, buildId);
    if (['created', 'pending', 'running', 'scheduled'].includes(build.status)) {
      await inTransaction(this.ctx.db, (trx) => transitionBuild(this.ctx, trx, build, 'cancel'));
    }
    return this.builds.find(project, buildId);
  }

  /**
   * A finished build with commands is run again as a new build (`retryBuilds`), queued at once,
   * started by the caller; otherwise `403 Forbidden - Build is not retryable`. Returns the new build.
   */
  async retry(project: Project, buildId: number | string, user: User): Promise<BuildRecord> {
    const build = await this.builds.find(project, buildId);
    if (!isRetryable(build)) throw forbidden('Build is not retryable');
    const [retried] = await inTransaction(this.ctx.db, async (trx) => {
      const pipeline = await lockPipeline(this.ctx, trx, build.pipeline_id);
      return retryBuilds(this.ctx, trx, [build], user.id, pipeline?.status);
    });
    return { ...retried, sha: build.sha };
  }

  /**
   * A manual build waiting in `skipped` is queued (`pending`) with the caller as its user;
   * anything else is 8.12's `400 (Bad request) "Unplayable Build" not given`. When another
   * request moved the build first, a copy is queued instead, as 8.12's `play` fell back to a retry.
   */
  async play(project: Project, buildId: number | string, user: User): Promise<BuildRecord> {
    const build = await this.builds.find(project, buildId);
    if (!(build.when === 'manual' && build.status === 'skipped' && build.commands !== '')) throw notGiven('Unplayable Build');
    const played = await inTransaction(this.ctx.db, async (trx) => {
      const enqueued = await transitionBuild(this.ctx, trx, build, 'enqueue', { user_id: user.id });
      if (enqueued) return enqueued;
      const pipeline = await lockPipeline(this.ctx, trx, build.pipeline_id);
      return (await retryBuilds(this.ctx, trx, [build], user.id, pipeline?.status))[0];
    });
    return { ...played, sha: build.sha };
  }

  /**
   * A finished build with a trace, artifacts or a JUnit report loses them all: its row forgets them and
   * records who erased it and when, then the files go from the store (after the transaction, which
   * touches only the database). Otherwise `403 Forbidden - Build is not erasable!`.
   */
  async erase(project: Project, buildId: number | string, user: User): Promise<BuildRecord> {
    const build = await this.builds.find(project, buildId);
    const trace = await this.ctx.files.stat(traceKey(build));
    const files = hasArtifacts(build) || build.junit_report_size !== null || (trace?.size ?? 0) > 0;
    if (!isFinished(build) || !files) throw forbidden('Build is not erasable!');
    const time = now();
    await this.ctx.db
      .updateTable('ci_builds')
      .set({
        artifacts_file: null,
        artifacts_size: null,
        artifacts_metadata: null,
        artifacts_expire_at: null,
        junit_report_size: null,
        junit_report_expire_at: null,
        junit_report_summary: null,
        erased_at: time,
        erased_by_id: user.id,
        updated_at: time,
      })
      .where('id', '=', build.id)
      .execute();
    await Promise.all([traceKey, artifactsKey, junitReportKey].map((key) => this.ctx.files.delete(key(build))));
    return this.builds.find(project, buildId);
  }

  /** Artifacts set to expire are kept for good (`artifacts_expire_at` cleared, its JUnit report's too); 404 when the build has none. */
  async keep(project: Project, buildId: number | string): Promise<BuildRecord> {
    const build = await this.builds.find(project, buildId);
    if (!hasArtifacts(build)) throw notFound();
    await this.ctx.db
      .updateTable('ci_builds')
      .set({ artifacts_expire_at: null, junit_report_expire_at: null, updated_at: now() })
      .where('id', '=', build.id)
      .execute();
    return this.builds.find(project, buildId);
  }
}
