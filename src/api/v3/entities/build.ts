import { Type, type Static } from '@sinclair/typebox';
import type { BuildDetails } from '../../../services/ci/builds/queries';
import { hasArtifacts } from '../../../services/ci/builds/rules';
import { User, presentUser } from '../../shared/entities/user';
import { Runner, presentRunner } from '../../shared/entities/runner';
import { RepoCommit, presentRepoCommit } from './commit';
import { Nullable, NullableTimestamp, Timestamp, type Presenter } from './common';

export const ArtifactsFile = Type.Object({ filename: Type.String(), size: Nullable(Type.Integer()) });

const buildFields = {
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
  // The full User entity, not UserBasic, as 8.12's `Entities::Build` exposed it.
  user: Nullable(User),
};
const tail = {
  commit: Nullable(RepoCommit),
  runner: Nullable(Runner),
};

/**
 * GitLab 8.12's `Entities::Build`. `artifacts_file` is `{filename, size}` while the build has
 * unexpired artifacts; the spec shows it in every answer but erase and keep, null when there are none.
 */
export const Build = Type.Object({ ...buildFields, artifacts_file: Nullable(ArtifactsFile), ...tail });

/** The erase and keep answers: the spec shows `download_url` (null) where the others show `artifacts_file`. */
export const BuildWithDownloadUrl = Type.Object({ ...buildFields, download_url: Type.Null(), ...tail });

function presentBuildFields({ build, user }: BuildDetails, presenter: Presenter) {
  return {
    id: build.id,
    status: build.status,
    stage: build.stage,
    name: build.name,
    ref: build.ref,
    tag: build.tag === 1,
    coverage: build.coverage,
    created_at: build.created_at,
    started_at: build.started_at,
    finished_at: build.finished_at,
    user: user ? presentUser(user, presenter) : null,
  };
}

export function presentBuild(details: BuildDetails, presenter: Presenter): Static<typeof Build> {
  const { build, commit, runner } = details;
  return Object.assign(presentBuildFields(details, presenter), {
    artifacts_file: hasArtifacts(build) ? { filename: build.artifacts_file!, size: build.artifacts_size } : null,
    commit: commit ? presentRepoCommit(commit) : null,
    runner: runner ? presentRunner(runner) : null,
  });
}

export function presentBuildWithDownloadUrl(details: BuildDetails, presenter: Presenter): Static<typeof BuildWithDownloadUrl> {
  const { commit, runner } = details;
  return Object.assign(presentBuildFields(details, presenter), {
    download_url: null,
    commit: commit ? presentRepoCommit(commit) : null,
    runner: runner ? presentRunner(runner) : null,
  });
}
