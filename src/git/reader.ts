import { CatFilePool, type CatFilePoolOptions } from './cat-file';
import { DiffTreePool, type DiffTreePoolOptions } from './diff-tree-pool';
import { DIFF_TREE, type DiffResult, type DiffStats } from './diff-types';
import { ImmutableCache } from './immutable-cache';
import type { Commit } from './objects';
import type { Blob, TreeEntry } from './tree';

export interface GitReaderOptions {
  objects?: CatFilePoolOptions;
  patches?: DiffTreePoolOptions;
}

/**
 * What reading git keeps between requests: long-lived processes per recently used repository and
 * caches of results computed from objects that never change. One is made per app by `app.ts`
 * (`serviceContext`), handed to every git function that reads, and closed with the app; tests
 * and benchmarks that call git functions make their own.
 */
export class GitReader {
  /** `cat-file --batch-command` per repository: every object read goes through it. */
  readonly objects: CatFilePool;
  /** `diff-tree --stdin -p` per repository: the patches of commits and comparisons. */
  readonly patches: DiffTreePool;

  /** Recent commits' diffs, up to 32 MiB of them: a commit page and its diff page ask for the same one. */
  readonly commitDiffs = new ImmutableCache<DiffResult>({
    maxEntries: 500,
    maxBytes: 32 * 1024 * 1024,
    weigh: ({ files }) => files.reduce((sum, file) => sum + 2 * (file.diff.length + file.oldPath.length + file.newPath.length) + 200, 200),
  });

  /** Recent commits' line counts. */
  readonly commitStats = new ImmutableCache<DiffStats>({ maxEntries: 5000 });

  /**
   * The history a commit starts never changes: a page of it is kept by the commit's id, so that
   * listing a branch's commits again costs one look-up of its head (a walk is a round trip to
   * cat-file per commit).
   */
  readonly walks = new ImmutableCache<Commit[] | undefined>({
    maxEntries: 2_000,
    maxBytes: 32 * 1024 * 1024,
    weigh: (commits) => (commits ?? []).reduce((bytes, commit) => bytes + 500 + 2 * commit.message.length, 0),
  });

  /**
   * The last commit to touch a path at a commit never changes; finding it may walk much of the
   * history (a file untouched for years), so answers at a commit id are kept.
   */
  readonly lastCommits = new ImmutableCache<Commit | undefined>({
    maxEntries: 10_000,
    maxBytes: 16 * 1024 * 1024,
    weigh: (commit) => 500 + 2 * (commit?.message.length ?? 0),
  });

  /** How many commits a history holds (`rev-list --count` from a commit id, with its path and dates). */
  readonly logCounts = new ImmutableCache<number>({ maxEntries: 5_000 });

  /**
   * A full sha found to name a commit (or a tag of one) names it forever: a comparison or a commit
   * page read again asks cat-file nothing to check its ids. Only what was found is kept.
   */
  readonly commitIds = new ImmutableCache<string>({ maxEntries: 10_000 });

  /**
   * Files read by path at a commit id (the files API), up to 16 MiB of them; one over 4 MiB is not
   * kept. A small one is weighed as Node's 8 KiB pool slab that its bytes may share (`allocUnsafe`).
   */
  readonly files = new ImmutableCache<Blob>({
    maxEntries: 2_000,
    maxBytes: 16 * 1024 * 1024,
    weigh: (blob) => 200 + Math.max(blob.content.length, 8 * 1024),
  });

  /** A directory's entries at a commit id never change: a tree page read again is no round trip to cat-file. */
  readonly trees = new ImmutableCache<TreeEntry[]>({
    maxEntries: 2_000,
    maxBytes: 16 * 1024 * 1024,
    weigh: (entries) => entries.reduce((bytes, entry) => bytes + 200 + 2 * (entry.name.length + entry.path.length), 0),
  });

  constructor(options: GitReaderOptions = {}) {
    this.objects = new CatFilePool(options.objects);
    this.patches = new DiffTreePool([...DIFF_TREE, '-p'], options.patches);
  }

  /** Ends the repository's processes (before the repository is deleted or replaced). */
  forget(repoPath: string): void {
    this.objects.close(repoPath);
    this.patches.close(repoPath);
  }

  /** Ends every process, waiting for their exits. */
  async close(): Promise<void> {
    await Promise.all([this.objects.closeAll(), this.patches.closeAll()]);
  }
}
