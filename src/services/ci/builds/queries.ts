import type { Db } from '../../../db/index';
import type { Commit } from '../../../git/objects';
import type { User } from '../../users/users';
import type { BuildRecord, RunnerRow } from '../types';

/** A build and what its answer shows besides its own columns, each read in one batch for a whole list. */
export interface BuildDetails {
  build: BuildRecord;
  commit: Commit | undefined;
  user: User | undefined;
  runner: RunnerRow | undefined;
  /** The build's pipeline as a job shows it (API v4). */
  pipeline: BuildPipeline | undefined;
}

export interface BuildPipeline {
  id: number;
  ref: string | null;
  sha: string;
  status: string;
}

/** Builds of a project (type `Build`: external statuses are not builds) with their pipeline's sha. */
export function buildsOf(db: Db, projectId: number) {
  return db
    .selectFrom('ci_builds')
    .innerJoin('ci_pipelines', 'ci_pipelines.id', 'ci_builds.pipeline_id')
    .selectAll('ci_builds')
    .select('ci_pipelines.sha as sha')
    .where('ci_builds.project_id', '=', projectId)
    .where('ci_builds.type', '=', 'Build');
}
