import type { ServerChannel } from 'ssh2';
import { accessRefusal, type GitCaller } from '../services/repository/git-access';
import type { Project } from '../services/projects/types';
import type { LfsAuthentication, LfsOperation } from '../services/lfs/ssh-authenticate';
import type { SshSessionDeps } from './session';
import { finish, refuse } from './channel';

export type LfsAuthenticator = (caller: GitCaller, project: Project, operation: LfsOperation) => Promise<LfsAuthentication>;

/**
 * `git-lfs-authenticate <path> <download|upload>`: git-lfs asks over SSH for the address and
 * a credential of the project's LFS API over HTTP, and reads this JSON on stdout.
 */
export async function lfsAuthenticate(deps: SshSessionDeps, caller: GitCaller, project: Project, operation: LfsOperation, channel: ServerChannel): Promise<void> {
  // The access of the git command the operation stands for.
  const action = operation === 'upload' ? 'write' : 'read';
  const refusal = accessRefusal(caller, await deps.git.access(caller, project, action), action);
  const answer = refusal === undefined ? await deps.lfs(caller, project, operation) : { refusal };
  if ('refusal' in answer) return refuse(channel, answer.refusal);
  const basic = Buffer.from(`${answer.username}:${answer.password}`).toString('base64');
  const href = `${deps.externalUrl()}/${project.namespace.path}/${project.path}.git/info/lfs`;
  channel.write(`${JSON.stringify({ header: { Authorization: `Basic ${basic}` }, href, expires_in: answer.expiresIn })}\n`);
  finish(channel, 0);
}
