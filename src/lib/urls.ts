import crypto from 'node:crypto';

/** A user's avatar: Gravatar's identicon for the e-mail, as GitLab 8.12 shows by default. */
export function avatarUrl(email: string): string {
  const hash = crypto.hash('md5', email.trim().toLowerCase(), 'hex');
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}

/** A project's addresses, all derived from EXTERNAL_URL. */
export function projectUrls(externalUrl: string, project: { path: string; namespace: { path: string } }) {
  const pathWithNamespace = `${project.namespace.path}/${project.path}`;
  const web = `${externalUrl}/${pathWithNamespace}`;
  return { pathWithNamespace, web, http: `${web}.git`, ssh: `git@${new URL(externalUrl).hostname}:${pathWithNamespace}.git` };
}
