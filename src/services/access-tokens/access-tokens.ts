import type { OAuthService } from './oauth';
import type { PersonalAccessTokensService } from './personal-access-tokens';
import type { AccessTokenLookup } from './access-token-lookup';

/**
 * One look-up for every bearer credential: a personal access token, else an OAuth2 access token.
 * Both are random and looked up by digest, so trying one table then the other reveals nothing.
 */
export class AccessTokensService {
  constructor(
    private readonly personal: PersonalAccessTokensService,
    private readonly oauth: OAuthService,
  ) {}

  async resolve(token: string): Promise<AccessTokenLookup> {
    return (await this.personal.resolve(token)) ?? this.oauth.resolve(token);
  }
}
