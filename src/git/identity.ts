import { GitStoreError } from './errors';

/** Who writes: an author, committer or tagger. */
export interface Identity {
  name: string;
  email: string;
  /** Defaults to now. */
  time?: Date;
}

/**
 * Name and e-mail as git can store them: `<`, `>` and line breaks would corrupt the object header,
 * so they are removed (git strips the same "crud").
 */
export function cleanIdentity(identity: Identity): { name: string; email: string; seconds: number } {
  const clean = (value: string) => value.replace(/[<>\n\r\0]/g, '').trim();
  const name = clean(identity.name);
  const email = clean(identity.email);
  if (name === '') throw new GitStoreError('invalid_identity', 'a name is required');
  return { name, email, seconds: Math.floor((identity.time ?? new Date()).getTime() / 1000) };
}

/** `Name <email> 1348124772 +0000`, as it appears in a commit or tag object. */
export function signatureLine(identity: Identity): string {
  const { name, email, seconds } = cleanIdentity(identity);
  return `${name} <${email}> ${seconds} +0000`;
}

/** The environment that makes `commit-tree` write these people and times. */
export function identityEnvironment(author: Identity, committer: Identity): Record<string, string> {
  const a = cleanIdentity(author);
  const c = cleanIdentity(committer);
  return {
    GIT_AUTHOR_NAME: a.name,
    GIT_AUTHOR_EMAIL: a.email,
    GIT_AUTHOR_DATE: `@${a.seconds} +0000`,
    GIT_COMMITTER_NAME: c.name,
    GIT_COMMITTER_EMAIL: c.email,
    GIT_COMMITTER_DATE: `@${c.seconds} +0000`,
  };
}
