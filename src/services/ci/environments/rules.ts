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
