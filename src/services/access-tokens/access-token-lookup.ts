import type { User } from '../users/users';
import type { TokenScope } from './scopes';

/**
 * What a bearer credential (a personal access token or an OAuth2 access token) comes to: its active
 * owner with the token's scopes, a refusal the caller is told about (GitLab answers 401
 * `invalid_token` with a reason), or undefined when no such token exists.
 */
export type AccessTokenLookup = { user: User; scopes: readonly TokenScope[] } | { refused: 'revoked' | 'expired' } | undefined;
