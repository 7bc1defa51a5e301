import type { Selectable } from 'kysely';
import type {
  CiBuildsTable,
  CiPipelinesTable,
  CiRunnersTable,
  CiTriggersTable,
  DeploymentsTable,
  EnvironmentsTable,
} from '../../db/schema';

/*
 * The rows of CI's tables, as every CI file and the doors' presenters see them. They live here, below
 * every file of services/ci, so that files which only share a row type do not import each other.
 */

/** A row of `ci_builds`: a build (`type` `Build`) or an external commit status (`GenericCommitStatus`). */
export type BuildRow = Selectable<CiBuildsTable>;

/** A build (a `Build` row of `ci_builds`) with the sha of its pipeline, which is its commit. */
export type BuildRecord = BuildRow & { sha: string };

/** A build or an external status, with the sha of its pipeline. */
export type CommitStatusRow = BuildRow & { sha: string };

export type PipelineRow = Selectable<CiPipelinesTable>;

export type RunnerRow = Selectable<CiRunnersTable>;

export type TriggerRow = Selectable<CiTriggersTable>;

export type EnvironmentRow = Selectable<EnvironmentsTable>;

export type DeploymentRow = Selectable<DeploymentsTable>;
