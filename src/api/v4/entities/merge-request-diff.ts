import { Type, type Static } from '@sinclair/typebox';
import { MergeRequestDiff, presentMergeRequestDiff } from '../../shared/entities/merge-request-version';
import type { VersionContents } from '../../../services/merge-requests/reads';
import { RepoDiff, presentRepoDiff } from '../../shared/entities/commit';
import { Commit4, presentCommit } from './commit';

/** `Entities::MergeRequestDiffFull`: the version with its commits (newest first) and diffs. */
export const MergeRequestDiffFull = Type.Object({
  ...MergeRequestDiff.properties,
  commits: Type.Array(Commit4),
  diffs: Type.Array(RepoDiff),
});

export function presentMergeRequestDiffFull({ version, commits, diffs }: VersionContents): Static<typeof MergeRequestDiffFull> {
  return {
    ...presentMergeRequestDiff(version),
    commits: commits.map(presentCommit),
    diffs: diffs.map(presentRepoDiff),
  };
}

export { MergeRequestDiff, presentMergeRequestDiff };
