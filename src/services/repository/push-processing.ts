import type { ServiceContext } from '../context';
import type { ProjectsService } from '../projects/projects';
import type { UsersService } from '../users/users';
import type { EventsService } from '../events/events';
import type { PushJob } from '../../jobs/kinds';
import type { RefUpdate } from '../../git/ref-update';
import type { GitReader } from '../../git/reader';
import { parseTag } from '../../git/objects';
import { commitsChanges, pushCommits } from '../../git/push-log';
import { ZERO_OID } from '../../git/ref-names';
import { emitProjectEvents } from '../hooks/project-events';
import { emitFlaggedSystemEvents } from '../hooks/system-events';
import { buildPushData, PUSH_DATA_COMMITS, type PushDataInput } from './push-data';
import { repoPathOf } from './repositories';
import { inTransaction } from '../../db/transaction';
import { insertPipelines, planPushPipeline, type PipelinePlan } from '../ci/pipelines/creation';

/** What processing a push needs. */
export interface PushProcessingDeps {
  ctx: ServiceContext;
  projects: ProjectsService;
  users: UsersService;
  events: EventsService;
}

type PushRead = Omit<PushDataInput, 'project' | 'user' | 'urls'>;

/**
 * What GitLab 8.12's `GitPushService` and `GitTagPushService` do after a push, per branch or tag:
 * the project event (with the push data), project hooks, system hooks and the project's
 * `last_activity_at`, all in one transaction so that a retried job never doubles anything.
 */
export async function processPush(services: PushProcessingDeps, job: PushJob): Promise<void> {
  const { ctx } = services;
  const [project, user] = await Promise.all([services.projects.find(job.projectId), services.users.findById(job.userId)]);
  // The project was deleted or the pusher removed meanwhile: nobody to show the push to.
  if (!project || !user) return;
  const repoPath = repoPathOf(ctx, project.id);
  // Other refs (notes, merge request heads) make no events, as in GitLab's `PostReceive`.
  const changes = job.updates.filter((change) => isBranch(change.ref) || isTag(change.ref));
  if (changes.length === 0) return;
  const reads = await readPushes(ctx.git, repoPath, changes);
  const base = { project, user, urls: ctx.config };

  const events = reads.map((read) => ({ read, data: buildPushData({ ...base, ...read }) }));
  // System hooks get the push without its commits; a tag's message is empty there (GitLab 8.12).
  const systemData = (read: PushRead) =>
    buildPushData({ ...base, ...read, commits: [], totalCommits: 0, message: isTag(read.ref) ? '' : null });
  const branches = events.filter(({ read }) => !isTag(read.ref));
  const tags = events.filter(({ read }) => isTag(read.ref));
  const pipelines = await planPipelines(services.ctx, project, user.id, reads);

  // A few statements whatever the number of refs: a mirror push of thousands of tags is one batch.
  await inTransaction(ctx.db, async (trx) => {
    await services.events.recordMany(
      trx,
      events.map(({ read, data }) => ({ projectId: project.id, authorId: user.id, action: actionOf(read), data })),
    );
    await emitProjectEvents(
      ctx,
      trx,
      project.id,
      'push_events',
      'Push Hook',
      branches.map(({ data }) => data),
    );
    await emitProjectEvents(
      ctx,
      trx,
      project.id,
      'tag_push_events',
      'Tag Push Hook',
      tags.map(({ data }) => data),
    );
    await emitFlaggedSystemEvents(
      ctx,
      trx,
      'push_events',
      branches.map(({ read }) => systemData(read)),
    );
    await emitFlaggedSystemEvents(
      ctx,
      trx,
      'tag_push_events',
      tags.map(({ read }) => systemData(read)),
    );
    await insertPipelines(ctx, trx, pipelines);
    await services.projects.touch(project.id, trx);
    // Merge requests of the pushed branches: new versions, checks, manual merges (`services/merge-requests/refresh.ts`).
    if (changes.some((change) => isBranch(change.ref))) await ctx.jobs.enqueue('merge_requests.refresh', { ...job, updates: changes }, trx);
  });
}

/** The pipeline of each pushed branch and tag (git is read here, before the transaction), a few refs at a time. */
async function planPipelines(
  ctx: ServiceContext,
  project: Parameters<typeof planPushPipeline>[1],
  userId: number,
  reads: PushRead[],
): Promise<PipelinePlan[]> {
  const plans: PipelinePlan[] = [];
  for (let start = 0; start < reads.length; start += PARALLEL_READS) {
    const batch = await Promise.all(reads.slice(start, start + PARALLEL_READS).map((read) => planPushPipeline(ctx, project, userId, read)));
    for (const plan of batch) if (plan) plans.push(plan);
  }
  return plans;
}

const isBranch = (ref: string) => ref.startsWith('refs/heads/');
const isTag = (ref: string) => ref.startsWith('refs/tags/');

/** GitLab's `Event#action_name` for pushes. */
function actionOf(change: RefUpdate): string {
  if (change.oldId === ZERO_OID) return 'pushed new';
  if (change.newId === ZERO_OID) return 'deleted';
  return 'pushed to';
}

/** Branch reads run this many at a time: a mirror push of many branches must not start a process storm. */
const PARALLEL_READS = 4;

/**
 * The commits and details of each ref change, in order; a deleted ref has none. A branch lists
 * the commits after the old head (for a new branch, those no other branch has); a tag lists the
 * commit it names, with its annotation.
 */
async function readPushes(git: GitReader, repoPath: string, changes: RefUpdate[]): Promise<PushRead[]> {
  const reads: PushRead[] = changes.map((change) => ({ ...change, commits: [], totalCommits: 0, checkoutSha: null, message: null }));
  const live = reads.filter((read) => read.newId !== ZERO_OID);
  await readBranches(
    git,
    repoPath,
    live.filter((read) => isBranch(read.ref)),
  );
  await readTags(
    git,
    repoPath,
    live.filter((read) => isTag(read.ref)),
  );
  return reads;
}

async function readBranches(git: GitReader, repoPath: string, reads: PushRead[]): Promise<void> {
  for (let start = 0; start < reads.length; start += PARALLEL_READS) {
    await Promise.all(
      reads.slice(start, start + PARALLEL_READS).map(async (read) => {
        const range = read.oldId === ZERO_OID ? { newBranch: read.ref.slice('refs/heads/'.length) } : { oldId: read.oldId };
        const { commits, total } = await pushCommits(git, repoPath, read.newId, range, PUSH_DATA_COMMITS);
        Object.assign(read, { commits, totalCommits: total, checkoutSha: read.newId });
      }),
    );
  }
}

/** All tags in one pipelined cat-file exchange and one `git log`. */
async function readTags(git: GitReader, repoPath: string, reads: PushRead[]): Promise<void> {
  const objects = await git.objects.readMany(
    repoPath,
    reads.flatMap((read) => [read.newId, `${read.newId}^{commit}`]),
  );
  const peeled = reads.map((_, index) => objects[2 * index + 1]);
  const changes = await commitsChanges(
    git,
    repoPath,
    peeled.flatMap((object) => (object?.type === 'commit' ? [object.oid] : [])),
  );
  reads.forEach((read, index) => {
    const target = objects[2 * index];
    if (target?.type === 'tag') read.message = parseTag(target.oid, target.content).message;
    // A tag of a tree or a blob has no commit to check out.
    const pushed = peeled[index]?.type === 'commit' ? changes.get(peeled[index]!.oid) : undefined;
    if (pushed) Object.assign(read, { commits: [pushed], totalCommits: 1, checkoutSha: pushed.commit.id });
  });
}
