import { Type, type Static } from '@sinclair/typebox';
import type { Project } from '../../../services/projects/types';
import type { BuildDetails } from '../../../services/ci/builds/queries';
import { hasArtifacts } from '../../../services/ci/builds/rules';
import { projectUrls } from '../../../lib/urls';
import { User, presentUser } from '../../shared/entities/user';
import { Nullable, NullableTimestamp, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { Runner, presentRunner } from './runner';
import { Commit4, presentCommit } from './commit';

const JobPipeline = Type.Object({ id: Type.Integer(), ref: Nullable(Type.String()), sha: Type.String(), status: Type.String() });

/** GitLab 9–11's `Entities::Job` (8.12's Build under its new name, with its pipeline, duration and address). */
export const Job = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  stage: Nullable(Type.String()),
  name: Type.String(),
  ref: Nullable(Type.String()),
  tag: Type.Boolean(),
  coverage: Nullable(Type.Number()),
  created_at: Timestamp,
  started_at: NullableTimestamp,
  finished_at: NullableTimestamp,
  duration: Nullable(Type.Number()),
  user: Nullable(User),
  commit: Nullable(Commit4),
  pipeline: Nullable(JobPipeline),
  web_url: Type.String(),
  artifacts_file: Nullable(Type.Object({ filename: Type.String(), size: Nullable(Type.Integer()) })),
  runner: Nullable(Runner),
  artifacts_expire_at: NullableTimestamp,
});

/** Seconds between start and finish, or until now while it runs (GitLab's `CommitStatus#duration`); null before it starts. */
function durationOf(startedAt: string | null, finishedAt: string | null): number | null {
  if (startedAt === null) return null;
  const end = finishedAt === null ? Date.now() : Date.parse(finishedAt);
  return Math.max(0, (end - Date.parse(startedAt)) / 1000);
}

export function presentJob(
  { build, commit, user, runner, pipeline }: BuildDetails,
  project: Project,
  presenter: Presenter,
): Static<typeof Job> {
  return {
    id: build.id,
    // A manual job waiting to be played: 8.12 kept it `skipped`, GitLab 9 named the state `manual`.
    status: build.when === 'manual' && build.status === 'skipped' ? 'manual' : build.status,
    stage: build.stage,
    name: build.name,
    ref: build.ref,
    tag: build.tag === 1,
    coverage: build.coverage,
    created_at: build.created_at,
    started_at: build.started_at,
    finished_at: build.finished_at,
    duration: durationOf(build.started_at, build.finished_at),
    user: user ? presentUser(user, presenter) : null,
    commit: commit ? presentCommit(commit) : null,
    pipeline: pipeline ? { id: pipeline.id, ref: pipeline.ref, sha: pipeline.sha, status: pipeline.status } : null,
    web_url: `${projectUrls(presenter, project).web}/-/jobs/${build.id}`,
    artifacts_file: hasArtifacts(build) ? { filename: build.artifacts_file!, size: build.artifacts_size } : null,
    runner: runner ? presentRunner(runner) : null,
    artifacts_expire_at: build.artifacts_expire_at,
  };
}
