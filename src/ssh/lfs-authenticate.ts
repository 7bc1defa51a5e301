import type { ServerChannel } from 'ssh2';
import { accessRefusal, type GitAccessService, type GitCaller } from '../services/repository/git-access';
import type { Project } from '../services/projects/types';
import type { LfsAuthentication, LfsOperation } from '../services/lfs/ssh-authenticate';
import { finish, refuse } from './channel';

/** The credential for the project's LFS API over HTTP; called once the caller's access is known. */
export type LfsAuthenticator = (caller: GitCaller, project: Project, operation: LfsOperation) => LfsAuthentication;

/**
 * `git-lfs-authenticate <path> <download|upload>`: git-lfs asks over SSH for the address and
 * a credential of the project's LFS API over HTTP, and reads this JSON on stdout.
 */
export async function lfsAuthenticate(
  deps: { git: GitAccessService; lfs: LfsAuthenticator },
  caller: GitCaller,
  project: Project,
  operation: LfsOperation,
  channel: ServerChannel,
): Promise<void> {
  // The access of the git command the operation stands for.
  const action = operation === 'upload' ? 'write' : 'read';
  const refusal = accessRefusal(caller, await deps.git.access(caller, project, action), action);
  if (refusal !== undefined) return refuse(channel, refusal);
  channel.write(`${JSON.stringify(deps.lfs(caller, project, operation))}\n`);
  finish(channel, 0);
}
