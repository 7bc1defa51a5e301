import crypto from 'node:crypto';

/** A user's avatar: Gravatar's identicon for the e-mail, as GitLab 8.12 shows by default. */
export function avatarUrl(email: string): string {
  const hash = crypto.hash('md5', email.trim().toLowerCase(), 'hex');
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}

/** What a project's addresses are made of: the external URL, and where the SSH server answers. */
export interface UrlBase {
  externalUrl: string;
  /** Empty: the external URL's host. */
  sshHost: string;
  /** null: SSH is off (the conventional port-22 form is shown). */
  sshPort: number | null;
}

/** A project's addresses, all derived from EXTERNAL_URL, SSH_HOST and SSH_PORT. */
export function projectUrls(base: UrlBase, project: { path: string; namespace: { path: string } }) {
  const pathWithNamespace = `${project.namespace.path}/${project.path}`;
  const web = `${base.externalUrl}/${pathWithNamespace}`;
  return { pathWithNamespace, web, http: `${web}.git`, ssh: sshUrl(base, pathWithNamespace) };
}

/** `git@host:ns/proj.git` on port 22 (scp-like syntax has no port), `ssh://git@host:port/ns/proj.git` elsewhere. */
function sshUrl(base: UrlBase, pathWithNamespace: string): string {
  const host = base.sshHost || hostOf(base.externalUrl);
  if (base.sshPort === null || base.sshPort === 22) return `git@${host}:${pathWithNamespace}.git`;
  // An IPv6 address needs brackets before a port.
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `ssh://git@${shown}:${base.sshPort}/${pathWithNamespace}.git`;
}

/** The external URL's host, parsed once (every project of every answer asks for it). */
const hosts = new Map<string, string>();
function hostOf(externalUrl: string): string {
  let host = hosts.get(externalUrl);
  if (host === undefined) {
    host = new URL(externalUrl).hostname;
    if (hosts.size < 16) hosts.set(externalUrl, host);
  }
  return host;
}
