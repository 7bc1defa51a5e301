/**
 * What a scoped credential (a personal access token or an OAuth2 token) may call, as GitLab
 * allows: `api` everything; `read_api` reads (GET, HEAD); `read_user` reads of `/user` and
 * `/users…`; `sudo` is needed on top to act as another user. `read_repository` and
 * `write_repository` are for git over HTTP and open no API route. The private token has no scopes
 * and is never asked.
 */
const READ_METHODS = new Set(['GET', 'HEAD']);
const USER_ROUTES = /^\/api\/v\d+\/users?(\/|$)/;

/** The scope a request lacks (named in GitLab's 403), or undefined when its scopes cover it. */
export function missingScope(scopes: readonly string[], method: string, routeUrl: string, sudo: boolean): string | undefined {
  if (sudo && !scopes.includes('sudo')) return 'sudo';
  if (scopes.includes('api')) return undefined;
  if (!READ_METHODS.has(method)) return 'api';
  if (scopes.includes('read_api')) return undefined;
  if (scopes.includes('read_user') && USER_ROUTES.test(routeUrl)) return undefined;
  return 'api read_api';
}
