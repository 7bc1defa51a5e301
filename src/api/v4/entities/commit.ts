import { Type, type Static } from '@sinclair/typebox';
import type { Commit } from '../../../git/objects';
import type { CommitDetail, CommitRef as CommitRefRecord } from '../../../services/repository/commit-reads';
import type { Project } from '../../../services/projects/types';
import { Nullable } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { GitTime, RepoCommitStats, presentStats } from '../../shared/entities/commit';
import { PipelineBasic, presentPipelineBasic } from './pipeline';

/** GitLab 9–11's `Entities::Commit`, in its order. */
export const Commit4 = Type.Object({
  id: Type.String(),
  short_id: Type.String(),
  created_at: GitTime,
  parent_ids: Type.Array(Type.String()),
  title: Type.String(),
  message: Type.String(),
  author_name: Type.String(),
  author_email: Type.String(),
  authored_date: GitTime,
  committer_name: Type.String(),
  committer_email: Type.String(),
  committed_date: GitTime,
});

/** `Entities::CommitDetail`: the commit, its stats, and the status of its latest pipeline. */
export const CommitDetail4 = Type.Object({
  ...Commit4.properties,
  stats: RepoCommitStats,
  status: Nullable(Type.String()),
  last_pipeline: Nullable(PipelineBasic),
  project_id: Type.Integer(),
});

export const CommitRef = Type.Object({ type: Type.Union([Type.Literal('branch'), Type.Literal('tag')]), name: Type.String() });

export function presentCommit(commit: Commit): Static<typeof Commit4> {
  return {
    id: commit.id,
    short_id: commit.shortId,
    created_at: commit.committer.date,
    parent_ids: commit.parentIds,
    title: commit.title,
    message: commit.message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: commit.author.date,
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: commit.committer.date,
  };
}

export function presentCommitDetail(detail: CommitDetail, project: Project, presenter: Presenter): Static<typeof CommitDetail4> {
  const pipeline = detail.pipeline;
  return Object.assign(presentCommit(detail.commit), {
    stats: presentStats(detail.stats),
    status: detail.status,
    last_pipeline: pipeline ? presentPipelineBasic(pipeline, project, presenter) : null,
    project_id: project.id,
  });
}

export const presentCommitRef = (ref: CommitRefRecord): Static<typeof CommitRef> => ({ type: ref.type, name: ref.name });
