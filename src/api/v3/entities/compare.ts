import { Type, type Static } from '@sinclair/typebox';
import type { CompareResult } from '../../../services/repository/reads';
import { Nullable } from './common';
import { RepoCommit, RepoDiff, presentRepoCommit, presentRepoDiff } from './commit';

export const Compare = Type.Object({
  /** The last commit of the range. */
  commit: Nullable(RepoCommit),
  commits: Type.Array(RepoCommit),
  diffs: Type.Array(RepoDiff),
  compare_timeout: Type.Boolean(),
  compare_same_ref: Type.Boolean(),
});

export function presentCompare(result: CompareResult): Static<typeof Compare> {
  const commits = result.commits.map(presentRepoCommit);
  return {
    commit: commits.at(-1) ?? null,
    commits,
    diffs: result.diffs.map(presentRepoDiff),
    compare_timeout: result.timeout,
    compare_same_ref: result.sameRef,
  };
}
