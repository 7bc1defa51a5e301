import type { MergeRequestVersionRow } from './types';

/** The three commits a diff is read between, named as GitLab's `DiffRefs` and a note's position name them. */
export interface DiffRefs {
  base_sha: string;
  start_sha: string;
  head_sha: string;
}

/** What the Changes tab asks to see: a version (the latest when none), compared with its base or with an older version's head. */
export interface AskedView {
  diffId?: number;
  startSha?: string;
}

/** A version against its base: the refs its line comments carry. */
export const versionRefs = (version: MergeRequestVersionRow): DiffRefs => ({
  base_sha: version.base_commit_sha ?? '',
  start_sha: version.start_commit_sha ?? '',
  head_sha: version.head_commit_sha ?? '',
});

/**
 * A version against an older one (GitLab's `MergeRequestDiff#compare_with`): a straight diff from
 * the older head, which is both base and start of the comparison's refs.
 */
export const comparisonRefs = (version: MergeRequestVersionRow, start: MergeRequestVersionRow): DiffRefs => ({
  base_sha: start.head_commit_sha ?? '',
  start_sha: start.head_commit_sha ?? '',
  head_sha: version.head_commit_sha ?? '',
});

/**
 * The version and the older one a view names, among `versions` (newest first), as GitLab 10's
 * `DiffsController#find_merge_request_diff_compare`: an unknown or foreign `diffId`, or a start
 * that is not the head of an older version, is undefined (the page's 404).
 */
export function chooseView(
  versions: MergeRequestVersionRow[],
  asked: AskedView,
): { version: MergeRequestVersionRow; start?: MergeRequestVersionRow } | undefined {
  const version = asked.diffId === undefined ? versions[0] : versions.find((each) => each.id === asked.diffId);
  if (!version) return undefined;
  if (asked.startSha === undefined) return { version };
  const start = versions.find((each) => each.id < version.id && each.head_commit_sha === asked.startSha);
  return start && { version, start };
}

/** The version, or the pair of versions, whose diff a position's refs name; undefined when they name none. */
export function viewOfRefs(
  versions: MergeRequestVersionRow[],
  refs: DiffRefs,
): { version: MergeRequestVersionRow; start?: MergeRequestVersionRow } | undefined {
  const version = versions.find(
    (each) =>
      each.head_commit_sha === refs.head_sha &&
      each.base_commit_sha === refs.base_sha &&
      (refs.start_sha === '' || each.start_commit_sha === refs.start_sha),
  );
  if (version) return { version };
  if (refs.start_sha !== '' && refs.start_sha !== refs.base_sha) return undefined;
  const newer = versions.find((each) => each.head_commit_sha === refs.head_sha);
  const start = newer && versions.find((each) => each.id < newer.id && each.head_commit_sha === refs.base_sha);
  return newer && start && { version: newer, start };
}
