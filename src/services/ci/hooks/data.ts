import path from 'node:path';
import type { Commit } from '../../../git/objects';
import type { Project } from '../../projects/types';
import type { User } from '../../users/users';
import { ZERO_OID } from '../../../git/ref-names';
import {
  commitHookAttributes,
  currentProjectHookAttributes,
  hookTime,
  projectHookAttributes,
  userHookAttributes,
} from '../../hooks/hook-attributes';
import type { UrlBase } from '../../../lib/urls';
import type { BuildRow, PipelineRow, RunnerRow } from '../types';

/*
 * GitLab 8.12 built these payloads at the moment of the change and queued them through Sidekiq,
 * whose JSON wrote record times as `2016-08-12 15:23:28 UTC` (`hookTime`). Forge builds them in a
 * job a moment later: the status is the one of the change (carried by the job), the rest is read
 * when the job runs.
 */

const time = (iso: string | null): string | null => (iso === null ? null : hookTime(iso));

/** `CommitStatus#duration`: seconds (a float, as Ruby subtracts times) from start to finish, or to now while unfinished. */
function buildDuration(startedAt: string | null, finishedAt: string | null, now: string): number | null {
  if (startedAt === null) return null;
  return (Date.parse(finishedAt ?? now) - Date.parse(startedAt)) / 1000;
}

export interface BuildHookInput {
  build: BuildRow;
  /** The build's status at the change. */
  status: string;
  pipeline: PipelineRow;
  project: Project;
  /** `Namespace#human_name`: a group's name, or the name of the user owning a personal namespace. */
  namespaceHumanName: string;
  user: User | undefined;
  /** The pipeline's commit, undefined when the repository cannot show it. */
  commit: Commit | undefined;
  urls: UrlBase;
  now: string;
}

/** GitLab 8.12's `Gitlab::DataBuilder::Build.build`: the payload of a Build Hook. */
export function buildHookData({ build, status, pipeline, project, namespaceHumanName, user, commit, urls, now }: BuildHookInput) {
  // Announced as running, the build had not finished yet, whatever it did since.
  const finishedAt = status === 'running' ? null : build.finished_at;
  const attributes = projectHookAttributes(project, urls);
  return {
    object_kind: 'build',
    ref: build.ref,
    tag: build.tag === 1,
    before_sha: pipeline.before_sha ?? ZERO_OID,
    sha: pipeline.sha,
    build_id: build.id,
    build_name: build.name,
    build_stage: build.stage,
    build_status: status,
    build_started_at: time(build.started_at),
    build_finished_at: time(finishedAt),
    build_duration: buildDuration(build.started_at, finishedAt, now),
    build_allow_failure: build.allow_failure === 1,
    project_id: project.id,
    project_name: `${namespaceHumanName} / ${project.name}`,
    user: { id: user?.id ?? null, name: user?.name ?? null, email: user?.email ?? null },
    commit: {
      // GitLab's `commit` here is the pipeline (table `ci_commits`): its id is the pipeline's.
      id: pipeline.id,
      sha: pipeline.sha,
      message: commit?.message ?? null,
      author_name: commit?.author.name ?? null,
      author_email: commit?.author.email ?? null,
      status: pipeline.status,
      duration: pipeline.duration,
      started_at: time(pipeline.started_at),
      finished_at: time(pipeline.finished_at),
    },
    repository: {
      name: attributes.name,
      url: attributes.url,
      description: attributes.description,
      homepage: attributes.homepage,
      git_http_url: attributes.git_http_url,
      git_ssh_url: attributes.git_ssh_url,
      visibility_level: attributes.visibility_level,
    },
  };
}

export interface PipelineHookInput {
  pipeline: PipelineRow;
  /** The pipeline's status at the change. */
  status: string;
  /** `Ci::Pipeline#stages`: the stage names of all its statuses, ordered by stage index. */
  stages: Array<string | null>;
  project: Project;
  user: User | undefined;
  commit: Commit | undefined;
  /** Every build of the pipeline (retried ones too), in id order; external statuses are not builds. */
  builds: BuildRow[];
  /** The users and runners the builds name. */
  users: Map<number, User>;
  runners: Map<number, RunnerRow>;
  urls: UrlBase;
}

/** GitLab 8.12's `Gitlab::DataBuilder::Pipeline.build`: the payload of a Pipeline Hook. */
export function pipelineHookData({ pipeline, status, stages, project, user, commit, builds, users, runners, urls }: PipelineHookInput) {
  const hookProject = currentProjectHookAttributes(project, urls);
  const userOf = (id: number | null) => {
    const found = id === null ? undefined : users.get(id);
    return found ? userHookAttributes(found) : null;
  };
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pipeline.id,
      ref: pipeline.ref,
      tag: pipeline.tag === 1,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha,
      status,
      stages,
      created_at: time(pipeline.created_at),
      finished_at: time(pipeline.finished_at),
      duration: pipeline.duration,
    },
    user: user ? userHookAttributes(user) : null,
    project: hookProject,
    commit: commit ? commitHookAttributes(commit, hookProject.web_url) : null,
    builds: builds.map((build) => {
      const runner = build.runner_id === null ? undefined : runners.get(build.runner_id);
      return {
        id: build.id,
        stage: build.stage,
        name: build.name,
        status: build.status,
        created_at: time(build.created_at),
        started_at: time(build.started_at),
        finished_at: time(build.finished_at),
        when: build.when,
        manual: build.when === 'manual',
        user: userOf(build.user_id),
        runner: runner
          ? { id: runner.id, description: runner.description, active: runner.active === 1, is_shared: runner.is_shared === 1 }
          : null,
        // The uploaded file's name, as CarrierWave kept it.
        artifacts_file: {
          filename: build.artifacts_file === null ? null : path.posix.basename(build.artifacts_file),
          size: build.artifacts_size,
        },
      };
    }),
  };
}
