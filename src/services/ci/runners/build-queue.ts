import { sql } from 'kysely';
import type { ServiceContext } from '../../context';
import type { BuildRow, RunnerRow } from '../types';
import { inTransaction } from '../../../db/transaction';
import { now } from '../../../lib/time';
import { afterClaim } from '../builds/transitions';
import { SharedRunnerLoad } from './shared-runner-load';
import { preparedQuery } from '../../../db/prepared';
import { protectedRefJudge } from '../builds/protected-ref';

/** A pending build as the queue weighs it. */
interface Candidate {
  id: number;
  project_id: number;
  pipeline_id: number;
  tag_list: string;
  ref: string | null;
  tag: number;
}

/*
 * How much of the queue one request weighs: the oldest WINDOW builds this runner's kind may run, read
 * through the queue index in id order, so every poll costs the same however long the queue is. Fair
 * share and the tag check are applied within that window (tags are a JSON list): a project that
 * uses shared runners least goes first among the oldest WINDOW pending builds, not among all of
 * them, and a runner whose tags fit none of them waits for them to be taken.
 */
const WINDOW = 100;

/**
 * GitLab 8.12's `RegisterBuildService`: the oldest pending build a runner may run, assigned to it
 * and moved to running, or undefined. Shared runners serve projects with shared runners and builds
 * enabled, those using shared runners least first (fair share), then the oldest build; specific
 * runners serve their projects' builds oldest first. A locked runner only serves its own projects,
 * so a locked shared runner serves nothing. A build's tags must all be among the runner's, and an
 * untagged build needs a runner that runs untagged builds.
 */
export class BuildQueue {
  private readonly load: SharedRunnerLoad;
  // Every poll runs one of these: built and compiled once (src/db/prepared.ts).
  private readonly sharedWindow: () => Promise<Candidate[]>;
  private readonly specificWindow: (runnerId: number) => Promise<Candidate[]>;

  constructor(private readonly ctx: ServiceContext) {
    this.load = new SharedRunnerLoad(ctx);
    this.sharedWindow = preparedQuery(ctx.db, () =>
      pendingBuilds(ctx).where('p.shared_runners_enabled', '=', 1).orderBy('b.id').limit(WINDOW),
    );
    this.specificWindow = preparedQuery(ctx.db, (runnerId: number) =>
      pendingBuilds(ctx)
        .innerJoin('ci_runner_projects as rp', (join) => join.onRef('rp.project_id', '=', 'b.project_id').on('rp.runner_id', '=', runnerId))
        .orderBy('b.id')
        .limit(WINDOW),
    );
  }

  async next(runner: RunnerRow): Promise<BuildRow | undefined> {
    if (runner.is_shared && runner.locked) return undefined;
    const candidates = runner.is_shared ? await this.sharedCandidates() : await this.specificWindow(runner.id);
    const runnerTags = new Set<string>(JSON.parse(runner.tag_list) as string[]);
    const fitting = candidates.filter((candidate) => canPick(runner, runnerTags, JSON.parse(candidate.tag_list) as string[]));
    // A runner registered `ref_protected` runs only builds of protected refs (it may hold deploy secrets).
    const eligible = runner.access_level === 'ref_protected' ? await this.onProtectedRefs(fitting) : fitting;
    if (eligible.length === 0) return undefined;
    // Unlike 8.12, which answered "no build" to the loser of a race for a build, the loser takes
    // the next candidate: with many runners polling, the first candidate is often just taken.
    const claimed =
      this.ctx.dialect === 'postgres' ? await claimFirstFree(this.ctx, runner, eligible) : await claimInTurn(this.ctx, runner, eligible);
    if (claimed && runner.is_shared) this.load.claimed(claimed.project_id);
    return claimed;
  }

  /** The candidates whose ref is protected, each project's rules read once. */
  private async onProtectedRefs(candidates: Candidate[]): Promise<Candidate[]> {
    const isProtected = await protectedRefJudge(this.ctx.db, [...new Set(candidates.map((candidate) => candidate.project_id))]);
    return candidates.filter((candidate) => isProtected(candidate.project_id, candidate.ref, candidate.tag === 1));
  }

  /** Projects with the fewest builds running on shared runners first, then the oldest build. */
  private async sharedCandidates(): Promise<Candidate[]> {
    const [busy, window] = await Promise.all([this.load.current(), this.sharedWindow()]);
    const weight = (candidate: Candidate) => busy.get(candidate.project_id) ?? 0;
    return window.sort((a, b) => weight(a) - weight(b) || a.id - b.id);
  }
}

function canPick(runner: RunnerRow, runnerTags: Set<string>, buildTags: string[]): boolean {
  if (!runner.run_untagged && buildTags.length === 0) return false;
  return buildTags.every((tag) => runnerTags.has(tag));
}

/*
 * A claim assigns a build to the runner only while it is still pending and unassigned, so of two
 * runners asking at once exactly one gets it. The pipeline is not locked: a claim only ever makes
 * it `running` (`afterClaim`).
 */

/**
 * SQLite runs one write at a time: the candidates are tried in turn, each with one conditional
 * update, and a lost one costs only an in-process statement.
 */
async function claimInTurn(ctx: ServiceContext, runner: RunnerRow, candidates: Candidate[]): Promise<BuildRow | undefined> {
  for (const candidate of candidates) {
    const claimed = await claim(ctx, runner, candidate);
    if (claimed) return claimed;
  }
  return undefined;
}

/**
 * PostgreSQL: one statement takes the first candidate, in the queue's order, that no other claim
 * holds (`FOR UPDATE SKIP LOCKED`). Many runners go for the same oldest builds; trying them one
 * transaction at a time made each poll wait on the others (about 80 builds a second with 50 runners).
 */
async function claimFirstFree(ctx: ServiceContext, runner: RunnerRow, candidates: Candidate[]): Promise<BuildRow | undefined> {
  const ids = candidates.map((candidate) => candidate.id);
  return inTransaction(ctx.db, async (trx) => {
    const time = now();
    const { rows } = await sql<BuildRow>`
      update ci_builds set status = 'running', runner_id = ${runner.id}, started_at = ${time}, updated_at = ${time}
      where id = (
        select id from ci_builds
        where id = any(${ids}::int[]) and status = 'pending' and runner_id is null
        order by array_position(${ids}::int[], id)
        limit 1
        for update skip locked
      )
      returning *`.execute(trx);
    const updated = rows[0];
    if (!updated) return undefined;
    await afterClaim(ctx, trx, updated);
    return updated;
  });
}

async function claim(ctx: ServiceContext, runner: RunnerRow, candidate: Candidate): Promise<BuildRow | undefined> {
  return inTransaction(ctx.db, async (trx) => {
    const time = now();
    const updated = await trx
      .updateTable('ci_builds')
      .set({ status: 'running', runner_id: runner.id, started_at: time, updated_at: time })
      .where('id', '=', candidate.id)
      .where('status', '=', 'pending')
      .where('runner_id', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!updated) return undefined;
    await afterClaim(ctx, trx, updated);
    return updated;
  });
}

function pendingBuilds(ctx: ServiceContext) {
  return ctx.db
    .selectFrom('ci_builds as b')
    .innerJoin('projects as p', 'p.id', 'b.project_id')
    .select(['b.id', 'b.project_id', 'b.pipeline_id', 'b.tag_list', 'b.ref', 'b.tag'])
    .where('b.status', '=', 'pending')
    .where('b.runner_id', 'is', null)
    .where('b.type', '=', 'Build')
    .where('p.builds_enabled', '=', 1)
    .where('p.pending_delete', '=', 0);
}
