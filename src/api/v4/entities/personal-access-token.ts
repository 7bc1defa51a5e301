import { Type, type Static } from '@sinclair/typebox';
import { isActiveToken, type PersonalAccessToken as TokenRow } from '../../../services/access-tokens/personal-access-tokens';
import { parseScopes } from '../../../services/access-tokens/scopes';
import { Nullable, NullableTimestamp, Timestamp } from '../../shared/schemas';

/** GitLab's `PersonalAccessToken` entity; the token itself only in the answer that created it. */
export const PersonalAccessToken = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  revoked: Type.Boolean(),
  created_at: Timestamp,
  scopes: Type.Array(Type.String()),
  user_id: Type.Integer(),
  last_used_at: NullableTimestamp,
  active: Type.Boolean(),
  expires_at: Nullable(Type.String({ format: 'date' })),
});

export const PersonalAccessTokenWithToken = Type.Object({ ...PersonalAccessToken.properties, token: Type.String() });

export function presentPersonalAccessToken(token: TokenRow): Static<typeof PersonalAccessToken> {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked === 1,
    created_at: token.created_at,
    scopes: parseScopes(token.scopes),
    user_id: token.user_id,
    last_used_at: token.last_used_at,
    active: isActiveToken(token),
    expires_at: token.expires_at,
  };
}
