import type { ServiceContext } from '../../context';

/*
 * How many builds each project runs on shared runners: the fair-share weight of the shared queue.
 * Counting them is a scan of every running build, too dear for every poll once thousands run, so
 * the counts are read at most once a second and, in between, this process adds its own claims as
 * it makes them. Builds finishing, and other processes' claims, show at the next reading: the order
 * among projects may be up to a second late, never the claim itself (that stays one conditional update).
 */
const FRESH_MS = 1000;

export class SharedRunnerLoad {
  private counts: Map<number, number> | undefined;
  private readAt = 0;
  private reading: Promise<Map<number, number>> | undefined;

  constructor(private readonly ctx: ServiceContext) {}

  async current(): Promise<Map<number, number>> {
    if (this.counts && Date.now() - this.readAt < FRESH_MS) return this.counts;
    // One reading at a time: fifty runners polling at once share it.
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** A shared runner of this process just took a build of `projectId`. */
  claimed(projectId: number): void {
    this.counts?.set(projectId, (this.counts.get(projectId) ?? 0) + 1);
  }

  private async read(): Promise<Map<number, number>> {
    const startedAt = Date.now();
    const rows = await this.ctx.db
      .selectFrom('ci_builds')
      .innerJoin('ci_runners', 'ci_runners.id', 'ci_builds.runner_id')
      .select(['ci_builds.project_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('ci_builds.status', '=', 'running')
      .where('ci_runners.is_shared', '=', 1)
      .groupBy('ci_builds.project_id')
      .execute();
    this.counts = new Map(rows.map((row) => [row.project_id, Number(row.count)]));
    this.readAt = startedAt;
    return this.counts;
  }
}
