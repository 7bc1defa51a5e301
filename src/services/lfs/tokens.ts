import { sameSecret, type SecretBox } from '../../lib/secrets';

export type LfsOperation = 'download' | 'upload';

/**
 * Whom an LFS token speaks for: a user, whose access is checked again on every request, or a
 * deploy key, which only downloads (GitLab 8.12's deploy keys are read-only).
 */
export type LfsActor = { userId: number } | { deployKeyId: number };

/** What a token lets its bearer do: `operation` (an upload grant downloads too) on one project until `expiresAt` (Unix seconds). */
export interface LfsGrant {
  actor: LfsActor;
  projectId: number;
  operation: LfsOperation;
  expiresAt: number;
}

// A version in the prefix lets the format change without old tokens being misread.
const PREFIX = 'lfs1.';
const PURPOSE = 'lfs-token';

/** Whether a Basic password is an LFS token (told apart without a database look-up or a password hash). */
export const isLfsToken = (secret: string): boolean => secret.startsWith(PREFIX);

/** A signed, self-contained token: nothing is stored, so it cannot be revoked; it lives minutes only. */
export function issueLfsToken(secrets: SecretBox, grant: LfsGrant): string {
  const actor = 'userId' in grant.actor ? ['u', grant.actor.userId] : ['k', grant.actor.deployKeyId];
  const payload = Buffer.from(JSON.stringify([...actor, grant.projectId, grant.operation, grant.expiresAt])).toString('base64url');
  return `${PREFIX}${payload}.${secrets.sign(PURPOSE, payload)}`;
}

/** The grant of a token signed here and not expired at `nowSeconds`, or undefined. */
export function readLfsToken(secrets: SecretBox, token: string, nowSeconds: number): LfsGrant | undefined {
  if (!isLfsToken(token)) return undefined;
  const [payload, signature, ...rest] = token.slice(PREFIX.length).split('.');
  if (!payload || !signature || rest.length > 0 || !sameSecret(signature, secrets.sign(PURPOSE, payload))) return undefined;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 5) return undefined;
  const [kind, id, projectId, operation, expiresAt] = fields as unknown[];
  if (!isId(id) || !isId(projectId) || typeof expiresAt !== 'number' || (operation !== 'download' && operation !== 'upload'))
    return undefined;
  if (kind !== 'u' && kind !== 'k') return undefined;
  if (expiresAt <= nowSeconds) return undefined;
  return { actor: kind === 'u' ? { userId: id } : { deployKeyId: id }, projectId, operation, expiresAt };
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
