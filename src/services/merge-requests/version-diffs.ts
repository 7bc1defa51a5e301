import type { ServiceContext } from '../context';
import { diffTrees, type DiffFile } from '../../git/diff';
import { ImmutableCache } from '../../git/immutable-cache';
import { repoPathOf } from '../repository/repositories';
import type { MergeRequestVersionRow } from './types';

/**
 * Recent versions' diffs, up to 64 MiB of them. A version names two commits, so its diff never
 * changes: 8.12 computed it once when the version was made and stored it; here it is read by the
 * background check that follows a new version (`checks.ts`), and kept a while for the reads.
 */
let cache = newCache();

function newCache() {
  return new ImmutableCache<DiffFile[]>({
    maxEntries: 200,
    maxBytes: 64 * 1024 * 1024,
    weigh: (files) => files.reduce((sum, file) => sum + 2 * (file.diff.length + file.oldPath.length + file.newPath.length) + 200, 200),
  });
}

/** A version's diffs against its merge base, from the target repository (where its head is kept). */
export function versionDiffs(ctx: ServiceContext, targetProjectId: number, version: MergeRequestVersionRow): Promise<DiffFile[]> {
  const { base_commit_sha: base, head_commit_sha: head } = version;
  if (!base || !head) return Promise.resolve([]);
  const repoPath = repoPathOf(ctx, targetProjectId);
  return cache.get(`${repoPath}\0${base}\0${head}`, async () => (await diffTrees(repoPath, base, head)).files);
}

/** Empties the cache: for the benchmark's cold reads. */
export function forgetVersionDiffs(): void {
  cache = newCache();
}
