import { Type, type Static } from '@sinclair/typebox';
import type { RunnerRow } from '../../../services/ci/types';
import { isRunnerOnline, type RunnerDetails as RunnerDetailsRecord } from '../../../services/ci/runners/admin';
import { Runner as RunnerBase, presentRunner as presentRunnerBase } from '../../shared/entities/runner';
import { Nullable, NullableTimestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { BasicProject, presentBasicProject } from './project';

/** GitLab 9–11's `Entities::Runner`: 8.12's fields, whether it is `online`, and its `status`. */
export const Runner = Type.Object({
  ...RunnerBase.properties,
  ip_address: Nullable(Type.String()),
  online: Type.Boolean(),
  status: Type.String(),
});

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
 * GitLab 9–11's `Entities::RunnerDetails`: `token` only to administrators and for specific runners.
 * Two shapes rather than an optional field, which the serializer would move last.
 */
export const RunnerDetails = Type.Union([
  Type.Object({ ...detailFields, token: Type.String(), projects: Type.Array(BasicProject) }),
  Type.Object({ ...detailFields, projects: Type.Array(BasicProject) }),
]);

/** GitLab 11's `status`: `not_connected` before any contact, `paused` when inactive, else `online` or `offline`. */
function statusOf(runner: RunnerRow, online: boolean): string {
  if (runner.contacted_at === null) return 'not_connected';
  if (runner.active !== 1) return 'paused';
  return online ? 'online' : 'offline';
}

export function presentRunner(runner: RunnerRow): Static<typeof Runner> {
  const online = isRunnerOnline(runner);
  // Forge does not record the address runners call from.
  return Object.assign(presentRunnerBase(runner), { ip_address: null, online, status: statusOf(runner, online) });
}

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
    projects: projects.map(({ project, namespaceHumanName }) => presentBasicProject(project, presenter, undefined, namespaceHumanName)),
  };
}
