import type { ServiceContext } from '../context';
import { projectUrls } from '../../lib/urls';
import { forbidden } from '../../errors';
import { issueLfsToken, type LfsActor, type LfsOperation } from './tokens';

export type { LfsActor, LfsOperation } from './tokens';

/** How long a token from `git-lfs-authenticate` is good for; git-lfs asks again when it runs out. */
export const LFS_TOKEN_SECONDS = 600;

/** The JSON `git-lfs-authenticate` prints: where the LFS API is and the credential to use there. */
export interface LfsAuthentication {
  header: { Authorization: string };
  href: string;
  expires_in: number;
}

/**
 * The answer to `git-lfs-authenticate <project> <operation>` over SSH, for a caller the SSH
 * server has already found may read (download) or push to (upload) the project. The credential is
 * HTTP Basic with a short-lived signed token that the LFS routes accept, for this project only;
 * a user's access is checked again on each request. Deploy keys download only (403 otherwise).
 */
export function lfsAuthentication(
  ctx: Pick<ServiceContext, 'config' | 'secrets'>,
  actor: LfsActor,
  project: { id: number; path: string; namespace: { path: string } },
  operation: LfsOperation,
): LfsAuthentication {
  if ('deployKeyId' in actor && operation !== 'download') throw forbidden('Deploy keys only download LFS objects');
  const expiresAt = Math.floor(Date.now() / 1000) + LFS_TOKEN_SECONDS;
  const token = issueLfsToken(ctx.secrets, { actor, projectId: project.id, operation, expiresAt });
  // The username is for people reading logs; the token alone says who is asking.
  const username = 'userId' in actor ? `lfs+user-${actor.userId}` : 'lfs+deploy-key';
  return {
    header: { Authorization: `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}` },
    href: `${projectUrls(ctx.config, project).http}/info/lfs`,
    expires_in: LFS_TOKEN_SECONDS,
  };
}
