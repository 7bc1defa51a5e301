import { Type, type Static } from '@sinclair/typebox';
import type { CompareResult } from '../../../services/repository/reads';
import { Nullable } from '../../shared/schemas';
import { RepoDiff, presentRepoDiff } from '../../shared/entities/commit';
import { Commit4, presentCommit } from './commit';

export const Compare4 = Type.Object({
  /** The last commit of the range. */
  commit: Nullable(Commit4),
  commits: Type.Array(Commit4),
  diffs: Type.Array(RepoDiff),
  compare_timeout: Type.Boolean(),
  compare_same_ref: Type.Boolean(),
});

export function presentCompare(result: CompareResult): Static<typeof Compare4> {
  const commits = result.commits.map(presentCommit);
  return {
    commit: commits.at(-1) ?? null,
    commits,
    diffs: result.diffs.map(presentRepoDiff),
    compare_timeout: result.timeout,
    compare_same_ref: result.sameRef,
  };
}
