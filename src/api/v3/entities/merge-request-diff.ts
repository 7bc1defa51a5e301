import { Type, type Static } from '@sinclair/typebox';
import type { MergeRequestVersionRow } from '../../../services/merge-requests/types';
import type { VersionContents } from '../../../services/merge-requests/reads';
import { Nullable, Timestamp } from './common';
import { RepoCommit, RepoDiff, presentRepoCommit, presentRepoDiff } from './commit';

/** GitLab 8.12's `Entities::MergeRequestDiff`: one version of a merge request. */
export const MergeRequestDiff = Type.Object({
  id: Type.Integer(),
  head_commit_sha: Nullable(Type.String()),
  base_commit_sha: Nullable(Type.String()),
  start_commit_sha: Nullable(Type.String()),
  created_at: Timestamp,
  merge_request_id: Type.Integer(),
  state: Type.String(),
  real_size: Nullable(Type.String()),
});

/** `Entities::MergeRequestDiffFull`: the version with its commits (newest first) and diffs. */
export const MergeRequestDiffFull = Type.Object({
  ...MergeRequestDiff.properties,
  commits: Type.Array(RepoCommit),
  diffs: Type.Array(RepoDiff),
});

export function presentMergeRequestDiff(version: MergeRequestVersionRow): Static<typeof MergeRequestDiff> {
  return {
    id: version.id,
    head_commit_sha: version.head_commit_sha,
    base_commit_sha: version.base_commit_sha,
    start_commit_sha: version.start_commit_sha,
    created_at: version.created_at,
    merge_request_id: version.merge_request_id,
    state: version.state,
    real_size: version.real_size,
  };
}

export function presentMergeRequestDiffFull({ version, commits, diffs }: VersionContents): Static<typeof MergeRequestDiffFull> {
  return { ...presentMergeRequestDiff(version), commits: commits.map(presentRepoCommit), diffs: diffs.map(presentRepoDiff) };
}
