import { Type } from '@sinclair/typebox';
import type { Commit } from '../../../git/objects';
import type { BranchView } from '../../../services/repository/branches';

/** The raw git commit hash GitLab embeds in branches and tags (`Gitlab::Git::Commit#to_hash`). */
export const RawCommit = Type.Object({
  id: Type.String(),
  message: Type.String(),
  parent_ids: Type.Array(Type.String()),
  authored_date: Type.String(),
  author_name: Type.String(),
  author_email: Type.String(),
  committed_date: Type.String(),
  committer_name: Type.String(),
  committer_email: Type.String(),
});

export const RepoBranch = Type.Object({
  name: Type.String(),
  commit: RawCommit,
  protected: Type.Boolean(),
  developers_can_push: Type.Boolean(),
  developers_can_merge: Type.Boolean(),
});

export function presentRawCommit(commit: Commit) {
  return {
    id: commit.id,
    message: commit.message,
    parent_ids: commit.parentIds,
    authored_date: commit.author.date,
    author_name: commit.author.name,
    author_email: commit.author.email,
    committed_date: commit.committer.date,
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
  };
}

export function presentBranch(branch: BranchView) {
  return {
    name: branch.name,
    commit: presentRawCommit(branch.commit),
    protected: branch.protected,
    developers_can_push: branch.developersCanPush,
    developers_can_merge: branch.developersCanMerge,
  };
}
