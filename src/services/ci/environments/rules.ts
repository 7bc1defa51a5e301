/*
 * What makes an environment name and URL valid, shared by `.gitlab-ci.yml` (a job's `environment`)
 * and the Environment record (the API and deployments): GitLab 8.12 checked both with the same rules.
 */

// Gitlab::Regex.environment_name_regex; its `\\` lets a backslash through too (reference §6.3).
export const ENVIRONMENT_NAME = /^[a-zA-Z0-9_\\/${}. -]+$/;
export const ENVIRONMENT_NAME_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces";
export const ENVIRONMENT_URL_MAX = 255;

/** 8.12's `AddressableUrlValidator`: the scheme, exactly as written, is http, https, ssh or git. */
export function isEnvironmentUrl(s: string): boolean {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s)?.[1];
  return scheme !== undefined && ['http', 'https', 'ssh', 'git'].includes(scheme) && !/\s/.test(s);
}

/**
 * The first segment of a name made of several (`review/app` is of type `review`), else null. Split
 * as Ruby's `String#split` does, which drops trailing empty segments: `review/` is one segment.
 */
export function environmentType(name: string): string | null {
  const segments = name.split('/');
  while (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  return segments.length > 1 ? segments[0] : null;
}

/**
 * GitLab 9's environment slug (`Environment#generate_slug`): lowercase letters, digits and single
 * dashes, starting with a letter, at most 24 characters. A name that had to change gets a suffix of
 * 6 characters so that two names never share a slug; GitLab drew it at random and stored it, here
 * it is derived from the environment's id, which is as stable and as unique.
 */
export function environmentSlug(environment: { id: number; name: string }): string {
  let slug = environment.name.toLowerCase().replace(/[^a-z0-9]/g, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, '-').slice(0, 24).replace(/-$/, '');
  if (slug === environment.name) return slug;
  slug = slug.slice(0, 17);
  if (!slug.endsWith('-')) slug += '-';
  return slug + slugSuffix(environment.id);
}

/** Six characters of `[a-z0-9]` from the id, scrambled so that neighbouring ids do not look alike. */
function slugSuffix(id: number): string {
  const scrambled = (Math.imul(id, 2654435761) >>> 0) % 36 ** 6;
  return scrambled.toString(36).padStart(6, '0');
}
