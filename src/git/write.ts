import { resolveCommitId } from './commits';
import { GitCommandError, GitStoreError } from './errors';
import { signatureLine, type Identity } from './identity';
import { checkMessage } from './message';
import { isFullOid, isSafeRevision, isValidBranchName, isValidTagName, ZERO_OID } from './ref-names';
import { refValues } from './refs';
import { runGit } from './run';
import type { GitReader } from './reader';

/**
 * Sets a ref only if it still has the value the caller read (`expected` null: only if it does not
 * exist), so concurrent writers never clobber each other. Failures are classified by looking at the
 * ref afterwards, not by reading git's messages.
 */
export async function updateRef(repoPath: string, ref: string, newId: string, expected: string | null): Promise<void> {
  try {
    await runGit(repoPath, ['update-ref', '--no-deref', '--end-of-options', ref, newId, expected ?? ZERO_OID]);
  } catch (error) {
    throw await classifyRefFailure(repoPath, ref, expected, error);
  }
}

/** Deletes a ref if it still has the expected value (any value when expected is undefined). */
export async function deleteRef(repoPath: string, ref: string, expected?: string): Promise<void> {
  const current = (await refValues(repoPath, [ref])).get(ref);
  if (current === undefined) throw new GitStoreError('ref_missing', `${ref} does not exist`);
  const old = expected ?? current;
  try {
    await runGit(repoPath, ['update-ref', '--no-deref', '-d', '--end-of-options', ref, old]);
  } catch (error) {
    throw await classifyRefFailure(repoPath, ref, old, error);
  }
}

/**
 * Deletes branches in one transaction, each only if it still has the expected value: all go, or
 * none does (`ref_moved` when any moved or vanished meanwhile).
 */
export async function deleteBranches(repoPath: string, branches: Array<{ name: string; expected: string }>): Promise<void> {
  if (branches.length === 0) return;
  const commands = branches.map(({ name, expected }) => {
    if (!isValidBranchName(name)) throw new GitStoreError('ref_missing', 'No such branch');
    return `delete refs/heads/${name}\0${expected}\0`;
  });
  try {
    await runGit(repoPath, ['update-ref', '--no-deref', '-z', '--stdin'], { input: `start\0${commands.join('')}commit\0` });
  } catch (error) {
    if (error instanceof GitCommandError) throw new GitStoreError('ref_moved', 'a branch changed while the branches were being deleted');
    throw error;
  }
}

/** Creates a branch at the commit `rev` names. Returns the commit id. */
export async function createBranch(git: GitReader, repoPath: string, name: string, rev: string): Promise<string> {
  if (!isValidBranchName(name)) throw new GitStoreError('invalid_ref_name', 'Branch name is invalid');
  const commitId = await resolveCommitId(git, repoPath, rev);
  if (commitId === undefined) throw new GitStoreError('invalid_revision', 'Invalid reference name');
  await updateRef(repoPath, `refs/heads/${name}`, commitId, null);
  return commitId;
}

export async function deleteBranch(repoPath: string, name: string, expected?: string): Promise<void> {
  if (!isValidBranchName(name)) throw new GitStoreError('ref_missing', 'No such branch');
  await deleteRef(repoPath, `refs/heads/${name}`, expected);
}

export interface TagAnnotation {
  message: string;
  tagger: Identity;
}

/**
 * Creates a tag at the object `rev` names: lightweight, or annotated when given a message.
 * Returns the id the ref points at (the tag object's for annotated tags).
 */
export async function createTag(git: GitReader, repoPath: string, name: string, rev: string, annotation?: TagAnnotation): Promise<string> {
  if (!isValidTagName(name)) throw new GitStoreError('invalid_ref_name', 'Tag name invalid');
  if (annotation) checkMessage(annotation.message);
  const target = isFullOid(rev) || isSafeRevision(rev) ? await git.objects.info(repoPath, rev) : undefined;
  if (!target) throw new GitStoreError('invalid_revision', `Target ${rev} is invalid`);
  let id = target.oid;
  if (annotation) {
    const message = annotation.message.endsWith('\n') ? annotation.message : `${annotation.message}\n`;
    const object = `object ${target.oid}\ntype ${target.type}\ntag ${name}\ntagger ${signatureLine(annotation.tagger)}\n\n${message}`;
    id = (await runGit(repoPath, ['mktag'], { input: object })).stdout.toString('utf8').trim();
  }
  await updateRef(repoPath, `refs/tags/${name}`, id, null);
  return id;
}

export async function deleteTag(repoPath: string, name: string, expected?: string): Promise<void> {
  if (!isValidTagName(name)) throw new GitStoreError('ref_missing', 'No such tag');
  await deleteRef(repoPath, `refs/tags/${name}`, expected);
}

async function classifyRefFailure(repoPath: string, ref: string, expected: string | null, error: unknown): Promise<unknown> {
  if (!(error instanceof GitCommandError)) return error;
  const current = (await refValues(repoPath, [ref])).get(ref);
  if (expected === null && current !== undefined) return new GitStoreError('ref_exists', `${ref} already exists`);
  if (expected !== null && current === undefined) return new GitStoreError('ref_missing', `${ref} does not exist`);
  if (expected !== null && current !== expected) return new GitStoreError('ref_moved', `${ref} changed while it was being updated`);
  if (current === undefined && (await conflictingRef(repoPath, ref))) {
    return new GitStoreError('ref_name_conflict', `${ref} conflicts with an existing ref`);
  }
  return error;
}

/** Whether a ref blocks this name as a directory (`a` for `a/b`) or lives under it (`a/b` for `a`). */
async function conflictingRef(repoPath: string, ref: string): Promise<boolean> {
  const parts = ref.split('/');
  const parents = parts.slice(2, -1).map((_, index) => parts.slice(0, index + 3).join('/'));
  const found = await refValues(repoPath, parents);
  if (found.size > 0) return true;
  const { stdout } = await runGit(repoPath, ['for-each-ref', '--count=1', '--format=%(refname)', '--end-of-options', `${ref}/`]);
  return stdout.length > 0;
}
