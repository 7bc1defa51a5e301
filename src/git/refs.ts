import { gitText, runGit } from './run';
import { parseCommit, parseTag, type Commit } from './objects';
import { isValidRefName } from './ref-names';
import type { GitReader } from './reader';

export interface Branch {
  name: string;
  commit: Commit;
}

export interface TagRef {
  name: string;
  /** The annotation (final newline removed), or null for a lightweight tag. */
  message: string | null;
  /** The commit the tag leads to, or null when it tags a tree or a blob. */
  commit: Commit | null;
  /** What the ref points at: the tag object for annotated tags. */
  targetId: string;
}

export interface RawRef {
  ref: string;
  oid: string;
  type: string;
}

const REF_FORMAT = '--format=%(refname)%00%(objectname)%00%(objecttype)';

/** Refs under the given patterns, sorted by name (byte order, as GitLab sorts). */
export async function forEachRef(repoPath: string, patterns: string[]): Promise<RawRef[]> {
  const output = await gitText(repoPath, ['for-each-ref', REF_FORMAT, '--sort=refname', '--end-of-options', ...patterns]);
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [ref, oid, type] = line.split('\0');
      return { ref, oid, type };
    });
}

/** All branches with their head commits, sorted by name. */
export async function listBranches(git: GitReader, repoPath: string): Promise<Branch[]> {
  return toBranches(git, repoPath, await forEachRef(repoPath, ['refs/heads/']));
}

export async function findBranch(git: GitReader, repoPath: string, name: string): Promise<Branch | undefined> {
  if (!isValidRefName(`refs/heads/${name}`)) return undefined;
  const ref = `refs/heads/${name}`;
  const refs = (await forEachRef(repoPath, [ref])).filter((raw) => raw.ref === ref);
  return (await toBranches(git, repoPath, refs))[0];
}

export async function branchNames(repoPath: string): Promise<string[]> {
  return (await forEachRef(repoPath, ['refs/heads/'])).map((raw) => raw.ref.slice('refs/heads/'.length));
}

/** All tags, sorted by name ascending (GitLab's API lists them descending: reverse this). */
export async function listTags(git: GitReader, repoPath: string): Promise<TagRef[]> {
  return toTags(git, repoPath, await forEachRef(repoPath, ['refs/tags/']));
}

export async function findTag(git: GitReader, repoPath: string, name: string): Promise<TagRef | undefined> {
  if (!isValidRefName(`refs/tags/${name}`)) return undefined;
  const ref = `refs/tags/${name}`;
  return (
    await toTags(
      git,
      repoPath,
      (await forEachRef(repoPath, [ref])).filter((raw) => raw.ref === ref),
    )
  )[0];
}

/** Current values of exact full ref names (`refs/heads/x`); missing refs are absent from the map. */
export async function refValues(repoPath: string, refs: readonly string[]): Promise<Map<string, string>> {
  const wanted = new Set(refs.filter((ref) => isValidRefName(ref) && ref.startsWith('refs/')));
  if (wanted.size === 0) return new Map();
  const found = await forEachRef(repoPath, [...wanted]);
  return new Map(found.filter((raw) => wanted.has(raw.ref)).map((raw) => [raw.ref, raw.oid]));
}

/** The branch HEAD names, even when it has no commit yet. */
export async function headBranch(repoPath: string): Promise<string | undefined> {
  const { stdout, code } = await runGit(repoPath, ['symbolic-ref', '--quiet', 'HEAD'], { okCodes: [0, 1] });
  const ref = stdout.toString('utf8').trim();
  return code === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}

/**
 * GitLab's `discover_default_branch`: HEAD's branch when it exists, else `master`, else the first
 * branch; undefined for a repository without branches.
 */
export async function defaultBranch(repoPath: string): Promise<string | undefined> {
  const [names, head] = await Promise.all([branchNames(repoPath), headBranch(repoPath)]);
  if (head !== undefined && names.includes(head)) return head;
  return names.includes('master') ? 'master' : names[0];
}

/** Branch refs (`refs/heads/…`) with their commits read; refs that lead to no commit are left out. */
export async function toBranches(git: GitReader, repoPath: string, refs: RawRef[]): Promise<Branch[]> {
  const objects = await git.objects.readMany(
    repoPath,
    refs.map((raw) => (raw.type === 'commit' ? raw.oid : `${raw.oid}^{commit}`)),
  );
  return refs.flatMap((raw, index) => {
    const object = objects[index];
    return object?.type === 'commit'
      ? [{ name: raw.ref.slice('refs/heads/'.length), commit: parseCommit(object.oid, object.content) }]
      : [];
  });
}

/** Tag refs (`refs/tags/…`) with their annotations and commits read. */
export async function toTags(git: GitReader, repoPath: string, refs: RawRef[]): Promise<TagRef[]> {
  const [annotations, commits] = await Promise.all([
    git.objects.readMany(
      repoPath,
      refs.map((raw) => (raw.type === 'tag' ? raw.oid : '')),
    ),
    git.objects.readMany(
      repoPath,
      refs.map((raw) => (raw.type === 'commit' ? raw.oid : `${raw.oid}^{commit}`)),
    ),
  ]);
  return refs.map((raw, index) => {
    const annotation = annotations[index];
    const commit = commits[index];
    return {
      name: raw.ref.slice('refs/tags/'.length),
      message: annotation?.type === 'tag' ? parseTag(annotation.oid, annotation.content).message : null,
      commit: commit?.type === 'commit' ? parseCommit(commit.oid, commit.content) : null,
      targetId: raw.oid,
    };
  });
}
