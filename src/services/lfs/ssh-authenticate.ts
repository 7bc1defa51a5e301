import type { Project } from '../projects/types';
import type { GitCaller } from '../repository/git-access';

export type LfsOperation = 'download' | 'upload';

/** What `git-lfs-authenticate` answers: a credential the HTTP LFS door accepts, or why there is none. */
export type LfsAuthentication = { username: string; password: string; expiresIn: number } | { refusal: string };

/**
 * The credential git-lfs uses against `<project>.git/info/lfs` after asking over SSH. Git LFS over
 * HTTP is not in this branch, and no short-lived token such a door would accept exists yet: until
 * one does, the answer is a refusal that says so.
 */
export async function lfsAuthentication(_caller: GitCaller, _project: Project, _operation: LfsOperation): Promise<LfsAuthentication> {
  return { refusal: 'Git LFS is not supported over SSH on this server yet: use the HTTPS address.' };
}
