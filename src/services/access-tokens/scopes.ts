/**
 * The scopes of GitLab's personal access tokens and OAuth2 tokens (GitLab 11.x plus `read_api`
 * of 12.10). The private token has none: it may do everything its owner may.
 */
export const TOKEN_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'sudo'] as const;

export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const isTokenScope = (name: string): name is TokenScope => (TOKEN_SCOPES as readonly string[]).includes(name);

/** Scopes as stored (a JSON array); anything unreadable grants nothing. */
export function parseScopes(stored: string): TokenScope[] {
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((name): name is TokenScope => typeof name === 'string' && isTokenScope(name)) : [];
  } catch {
    return [];
  }
}

/** OAuth2's `scope` parameter: names separated by spaces (GitLab's clients also send `+`, decoded to spaces). */
export const splitScopeParam = (value: string): string[] => value.split(/[\s+]+/).filter((name) => name !== '');

/** What git over HTTP may do with a token of these scopes: `api` is everything, as in GitLab. */
export function gitAbility(scopes: readonly TokenScope[]): 'write' | 'read' | undefined {
  if (scopes.includes('api') || scopes.includes('write_repository')) return 'write';
  return scopes.includes('read_repository') ? 'read' : undefined;
}
