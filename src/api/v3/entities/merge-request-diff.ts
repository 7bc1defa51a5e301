import { Type, type Static } from '@sinclair/typebox';
import { MergeRequestDiff, presentMergeRequestDiff } from '../../shared/entities/merge-request-version';
import type { VersionContents } from '../../../services/merge-requests/reads';
import { RepoCommit, RepoDiff, presentRepoCommit, presentRepoDiff } from './commit';

/** `Entities::MergeRequestDiffFull`: the version with its commits (newest first) and diffs. */
export const MergeRequestDiffFull = Type.Object({
  ...MergeRequestDiff.properties,
  commits: Type.Array(RepoCommit),
  diffs: Type.Array(RepoDiff),
});

export function presentMergeRequestDiffFull({ version, commits, diffs }: VersionContents): Static<typeof MergeRequestDiffFull> {
  return { ...presentMergeRequestDiff(version), commits: commits.map(presentRepoCommit), diffs: diffs.map(presentRepoDiff) };
}

export { MergeRequestDiff, presentMergeRequestDiff };
