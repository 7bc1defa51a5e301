import { Type, type Static } from '@sinclair/typebox';
import type { MergeRequestVersionRow } from '../../../services/merge-requests/types';
import type { VersionContents } from '../../../services/merge-requests/reads';
import { Nullable, Timestamp } from '../../shared/schemas';
import { RepoDiff, presentRepoDiff } from '../../shared/entities/commit';
import { Commit4, presentCommit } from './commit';

/** `Entities::MergeRequestDiff`: one version of a merge request. */
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
  commits: Type.Array(Commit4),
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
  return {
    ...presentMergeRequestDiff(version),
    commits: commits.map(presentCommit),
    diffs: diffs.map(presentRepoDiff),
  };
}
