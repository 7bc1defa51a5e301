import { Type, type Static } from '@sinclair/typebox';
import type { Commit } from '../../../git/objects';
import type { DiffFile } from '../../../git/diff';
import type { MergeRequestVersionRow } from '../../../services/merge-requests/types';
import type { VersionContents } from '../../../services/merge-requests/reads';
import { Nullable, Timestamp } from '../../shared/schemas';

/** A git time in the commit's own offset. */
const GitTime = Type.String({ format: 'date-time' });

/**
 * GitLab v4's `Entities::Commit`, as a merge request's commits and versions show it. (The
 * repository's own commit answers are the commits area's; this is the part merge requests need.)
 */
export const MergeRequestCommit = Type.Object({
  id: Type.String(),
  short_id: Type.String(),
  title: Type.String(),
  created_at: GitTime,
  parent_ids: Type.Array(Type.String()),
  message: Type.String(),
  author_name: Type.String(),
  author_email: Type.String(),
  authored_date: GitTime,
  committer_name: Type.String(),
  committer_email: Type.String(),
  committed_date: GitTime,
});

/** `Entities::Diff`: one file's change. */
export const MergeRequestFileDiff = Type.Object({
  old_path: Type.String(),
  new_path: Type.String(),
  a_mode: Nullable(Type.String()),
  b_mode: Nullable(Type.String()),
  diff: Type.String(),
  new_file: Type.Boolean(),
  renamed_file: Type.Boolean(),
  deleted_file: Type.Boolean(),
});

export function presentMergeRequestCommit(commit: Commit): Static<typeof MergeRequestCommit> {
  return {
    id: commit.id,
    short_id: commit.shortId,
    title: commit.title,
    created_at: commit.committer.date,
    parent_ids: commit.parentIds,
    message: commit.message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: commit.author.date,
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: commit.committer.date,
  };
}

export function presentMergeRequestFileDiff(file: DiffFile): Static<typeof MergeRequestFileDiff> {
  return {
    old_path: file.oldPath,
    new_path: file.newPath,
    a_mode: file.aMode,
    b_mode: file.bMode,
    diff: file.diff,
    new_file: file.newFile,
    renamed_file: file.renamedFile,
    deleted_file: file.deletedFile,
  };
}

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
  commits: Type.Array(MergeRequestCommit),
  diffs: Type.Array(MergeRequestFileDiff),
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
    commits: commits.map(presentMergeRequestCommit),
    diffs: diffs.map(presentMergeRequestFileDiff),
  };
}
