import type { ServiceContext } from '../context';
import { diffTrees, type DiffFile } from '../../git/diff';
import { commitsBetween } from '../../git/log';
import type { Commit } from '../../git/objects';
import { ImmutableCache } from '../../git/immutable-cache';
import { repoPathOf } from '../repository/repositories';
import type { MergeRequestVersionRow } from './types';

/**
 * Recent versions' diffs (up to 64 MiB of them) and commits. A version names two commits, so what
 * it shows never changes: 8.12 computed it once when the version was made and stored it; here the
 * diff is read by the background check that follows a new version (`checks.ts`), and both are
 * kept a while for the reads. The composition root makes one per app and hands it to the check,
 * the reads and the merge (which closes the issues its commits name).
 */
export class VersionContentCache {
  private diffs = newDiffCache();
  private commits = newCommitCache();

  constructor(private readonly ctx: ServiceContext) {}

  /** A version's diffs against its merge base, from the target repository (where its head is kept). */
  versionDiffs(targetProjectId: number, version: MergeRequestVersionRow): Promise<DiffFile[]> {
    const { base_commit_sha: base, head_commit_sha: head } = version;
    if (!base || !head) return Promise.resolve([]);
    const repoPath = repoPathOf(this.ctx, targetProjectId);
    return this.diffs.get(`${repoPath}\0${base}\0${head}`, async () => (await diffTrees(this.ctx.git, repoPath, base, head)).files);
  }

  /** A version's commits, newest first. */
  versionCommits(targetProjectId: number, version: MergeRequestVersionRow): Promise<Commit[]> {
    const { base_commit_sha: base, head_commit_sha: head } = version;
    if (!base || !head) return Promise.resolve([]);
    const repoPath = repoPathOf(this.ctx, targetProjectId);
    return this.commits.get(`${repoPath}\0${base}\0${head}`, async () =>
      (await commitsBetween(this.ctx.git, repoPath, base, head)).reverse(),
    );
  }

  /** Empties the caches: for the benchmark's cold reads. */
  forget(): void {
    this.diffs = newDiffCache();
    this.commits = newCommitCache();
  }
}

function newCommitCache() {
  return new ImmutableCache<Commit[]>({
    maxEntries: 500,
    maxBytes: 16 * 1024 * 1024,
    weigh: (commits) => commits.reduce((sum, commit) => sum + 2 * commit.message.length + 400, 200),
  });
}

function newDiffCache() {
  return new ImmutableCache<DiffFile[]>({
    maxEntries: 200,
    maxBytes: 64 * 1024 * 1024,
    weigh: (files) => files.reduce((sum, file) => sum + 2 * (file.diff.length + file.oldPath.length + file.newPath.length) + 200, 200),
  });
}
