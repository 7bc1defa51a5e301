import { Type, type Static } from '@sinclair/typebox';
import type { RunnerDetails as RunnerDetailsRecord } from '../../../services/ci/runners/admin';
import { BasicProjectDetails, presentBasicProject } from './project';
import { Nullable, NullableTimestamp, type Presenter } from './common';
import { Runner, presentRunner } from '../../shared/entities/runner';

const detailFields = {
  ...Runner.properties,
  tag_list: Type.Array(Type.String()),
  run_untagged: Type.Boolean(),
  locked: Type.Boolean(),
  version: Nullable(Type.String()),
  revision: Nullable(Type.String()),
  platform: Nullable(Type.String()),
  architecture: Nullable(Type.String()),
  contacted_at: NullableTimestamp,
};

/**
 * GitLab 8.12's `Entities::RunnerDetails`: `token` (before `projects`) only to administrators and for
 * specific runners. Two shapes rather than an optional field, which the serializer would move last.
 */
export const RunnerDetails = Type.Union([
  Type.Object({ ...detailFields, token: Type.String(), projects: Type.Array(BasicProjectDetails) }),
  Type.Object({ ...detailFields, projects: Type.Array(BasicProjectDetails) }),
]);

export function presentRunnerDetails({ runner, token, projects }: RunnerDetailsRecord, presenter: Presenter): Static<typeof RunnerDetails> {
  return {
    ...presentRunner(runner),
    tag_list: JSON.parse(runner.tag_list) as string[],
    run_untagged: runner.run_untagged === 1,
    locked: runner.locked === 1,
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    contacted_at: runner.contacted_at,
    ...(token === undefined ? {} : { token }),
    projects: projects.map(({ project, namespaceHumanName }) => presentBasicProject(project, presenter, namespaceHumanName)),
  };
}
