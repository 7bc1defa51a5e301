import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import type { OauthAccessTokensTable, OauthApplicationsTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { User, UsersService } from '../users/users';
import { type ApiError, Validation, oauthError } from '../../errors';
import { digestToken, randomHex, sameSecret } from '../../lib/secrets';
import { now } from '../../lib/time';
import { inTransaction } from '../../db/transaction';
import { isTokenScope, parseScopes, splitScopeParam, type TokenScope } from './scopes';
import type { AccessTokenLookup } from './access-token-lookup';

export type OAuthApplication = Selectable<OauthApplicationsTable>;
type OAuthAccessToken = Selectable<OauthAccessTokensTable>;

/** What `POST /oauth/token` answers (Doorkeeper's token response). */
export interface OAuthTokenResponse {
  access_token: string;
  token_type: 'bearer';
  refresh_token: string;
  scope: string;
  created_at: number;
  expires_in: number;
}

/** Doorkeeper's and GitLab's (since 15.0) access token lifetime; a refresh token gets the next one. */
const ACCESS_TOKEN_SECONDS = 7200;
/** How long an authorization code may wait to be exchanged (Doorkeeper's default). */
const GRANT_SECONDS = 600;

const DESCRIPTIONS = {
  invalid_grant:
    'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  invalid_client:
    'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  invalid_request: 'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.',
  invalid_scope: 'The requested scope is invalid, unknown, or malformed.',
  invalid_redirect_uri: "The requested redirect uri is malformed or doesn't match client redirect URI.",
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  unsupported_response_type: 'The authorization server does not support this response type.',
} as const;

type OAuthErrorName = keyof typeof DESCRIPTIONS;

/** Doorkeeper answers an unknown or unauthenticated client with 401, every other refusal with 400. */
const refuse = (name: OAuthErrorName): ApiError => oauthError(name === 'invalid_client' ? 401 : 400, name, DESCRIPTIONS[name]);

/** What a client asks of `/oauth/authorize`. */
export interface AuthorizationRequest {
  clientId?: string;
  redirectUri?: string;
  responseType?: string;
  scope?: string;
}

export interface CheckedAuthorization {
  application: OAuthApplication;
  redirectUri: string;
  scopes: TokenScope[];
}

/** The client a request names (`client_id`, `client_secret`), when it names one. */
export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

/**
 * GitLab's OAuth2 provider (Doorkeeper) as clients use it: applications registered through the
 * API, the password grant, the authorization-code grant and the refresh grant. Codes, access and
 * refresh tokens and application secrets are kept as SHA-256 digests only.
 */
export class OAuthService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
  ) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** Registers a client; its secret is answered this once. */
  async createApplication(
    attributes: { name: string; redirect_uri: string; scopes: string; confidential?: boolean },
    ownerId: number | null,
  ): Promise<{ application: OAuthApplication; secret: string }> {
    const validation = new Validation();
    if (attributes.name.trim() === '') validation.add('name', "can't be blank");
    if (!isAbsoluteUri(attributes.redirect_uri)) validation.add('redirect_uri', 'must be an absolute URI.');
    const scopes = splitScopeParam(attributes.scopes);
    if (scopes.length === 0) validation.add('scopes', "can't be blank");
    for (const scope of scopes) if (!isTokenScope(scope)) validation.add('scopes', `${scope} is not a valid scope`);
    validation.throwIfInvalid();
    const secret = randomHex(64);
    const application = await this.db
      .insertInto('oauth_applications')
      .values({
        name: attributes.name,
        uid: randomHex(64),
        secret_digest: digestToken(secret),
        redirect_uri: attributes.redirect_uri,
        scopes: JSON.stringify([...new Set(scopes)]),
        confidential: attributes.confidential === false ? 0 : 1,
        owner_id: ownerId,
        created_at: now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { application, secret };
  }

  async listApplications(): Promise<OAuthApplication[]> {
    return this.db.selectFrom('oauth_applications').selectAll().orderBy('id').execute();
  }

  /** Removes a client with its codes and tokens (the foreign keys' cascade); false when there was none. */
  async deleteApplication(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('oauth_applications').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The applications a user registered for themselves (`/profile/applications`). */
  async listOwnedApplications(ownerId: number): Promise<OAuthApplication[]> {
    return this.db.selectFrom('oauth_applications').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
  }

  /** Removes one of the user's own applications with its codes and tokens; false when they own none by that id. */
  async deleteOwnedApplication(id: number, ownerId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('oauth_applications').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The applications holding a live token of the user's, each with when it was first given one. */
  async authorizedApplications(userId: number): Promise<Array<{ application: OAuthApplication; authorized_at: string }>> {
    const rows = await this.db
      .selectFrom('oauth_access_tokens')
      .select(['application_id', (eb) => eb.fn.min('created_at').as('authorized_at')])
      .where('user_id', '=', userId)
      .where('revoked', '=', 0)
      .where('expires_at', '>', now())
      .where('application_id', 'is not', null)
      .groupBy('application_id')
      .execute();
    if (rows.length === 0) return [];
    const applications = await this.db
      .selectFrom('oauth_applications')
      .selectAll()
      .where(
        'id',
        'in',
        rows.map((row) => row.application_id as number),
      )
      .orderBy('name')
      .execute();
    const since = new Map(rows.map((row) => [row.application_id, String(row.authorized_at)]));
    return applications.map((application) => ({ application, authorized_at: since.get(application.id) ?? '' }));
  }

  /** Takes back everything a user gave an application: its tokens and unused codes. False when it held none. */
  async revokeAuthorization(userId: number, applicationId: number): Promise<boolean> {
    return inTransaction(this.db, async (trx) => {
      const tokens = await trx
        .updateTable('oauth_access_tokens')
        .set({ revoked: 1 })
        .where('user_id', '=', userId)
        .where('application_id', '=', applicationId)
        .where('revoked', '=', 0)
        .executeTakeFirst();
      const grants = await trx
        .updateTable('oauth_access_grants')
        .set({ used: 1 })
        .where('user_id', '=', userId)
        .where('application_id', '=', applicationId)
        .where('used', '=', 0)
        .executeTakeFirst();
      return Number(tokens.numUpdatedRows) + Number(grants.numUpdatedRows) > 0;
    });
  }

  /** The resource owner password grant: a user's login and password for a token, with or without a client. */
  async passwordGrant(
    login: string | undefined,
    password: string | undefined,
    scope: string | undefined,
    client: ClientCredentials,
  ): Promise<OAuthTokenResponse> {
    if (!login || !password) throw refuse('invalid_request');
    const application = await this.optionalClient(client);
    const scopes = this.grantedScopes(scope, application);
    let user: User;
    try {
      user = await this.users.login(login, password);
    } catch {
      throw refuse('invalid_grant');
    }
    return inTransaction(this.db, (trx) => issueToken(trx, user.id, application?.id ?? null, scopes));
  }

  /**
   * An authorization request of the code grant, checked before anyone is asked to consent: the
   * client, the redirect URI it registered (a request naming another is refused, never followed)
   * and the scopes it may have.
   */
  async checkAuthorization(request: AuthorizationRequest): Promise<CheckedAuthorization> {
    if (!request.clientId) throw refuse('invalid_request');
    const application = await this.applicationByUid(request.clientId);
    if (!application) throw refuse('invalid_client');
    const redirectUri = request.redirectUri ?? application.redirect_uri;
    if (redirectUri !== application.redirect_uri) throw refuse('invalid_redirect_uri');
    if (request.responseType !== 'code') throw refuse('unsupported_response_type');
    return { application, redirectUri, scopes: this.grantedScopes(request.scope, application) };
  }

  /** The authorization request of the code grant, once the user has agreed: the code to send to the client's redirect URI. */
  async authorize(user: User, request: AuthorizationRequest): Promise<{ redirectUri: string; code: string }> {
    const { application, redirectUri, scopes } = await this.checkAuthorization(request);
    const code = randomHex(64);
    const time = new Date();
    await this.db
      .insertInto('oauth_access_grants')
      .values({
        application_id: application.id,
        user_id: user.id,
        code_digest: digestToken(code),
        redirect_uri: redirectUri,
        scopes: JSON.stringify(scopes),
        expires_at: new Date(time.getTime() + GRANT_SECONDS * 1000).toISOString(),
        used: 0,
        created_at: time.toISOString(),
      })
      .execute();
    return { redirectUri, code };
  }

  /** The code grant's exchange: a code once, by the client it was issued to, with the same redirect URI. */
  async codeGrant(code: string | undefined, redirectUri: string | undefined, client: ClientCredentials): Promise<OAuthTokenResponse> {
    if (!code) throw refuse('invalid_request');
    const application = await this.optionalClient(client);
    if (!application) throw refuse('invalid_client');
    return inTransaction(this.db, async (trx) => {
      // Claimed by one conditional update: a code raced twice gives one token.
      const grant = await trx
        .updateTable('oauth_access_grants')
        .set({ used: 1 })
        .where('code_digest', '=', digestToken(code))
        .where('used', '=', 0)
        .returningAll()
        .executeTakeFirst();
      if (!grant || grant.application_id !== application.id || grant.expires_at <= now()) throw refuse('invalid_grant');
      if (redirectUri !== undefined && redirectUri !== grant.redirect_uri) throw refuse('invalid_grant');
      if (!(await isActiveUser(trx, grant.user_id))) throw refuse('invalid_grant');
      return issueToken(trx, grant.user_id, application.id, parseScopes(grant.scopes));
    });
  }

  /** The refresh grant: the refresh token is used once; its access token is revoked with it. */
  async refreshGrant(refreshToken: string | undefined, client: ClientCredentials): Promise<OAuthTokenResponse> {
    if (!refreshToken) throw refuse('invalid_request');
    const application = await this.optionalClient(client);
    return inTransaction(this.db, async (trx) => {
      const old = await trx
        .updateTable('oauth_access_tokens')
        .set({ revoked: 1 })
        .where('refresh_token_digest', '=', digestToken(refreshToken))
        .where('revoked', '=', 0)
        .returningAll()
        .executeTakeFirst();
      if (!old || old.application_id !== (application?.id ?? old.application_id)) throw refuse('invalid_grant');
      // A token issued to a client is refreshed by that client only.
      if (old.application_id !== null && !application) throw refuse('invalid_client');
      if (!(await isActiveUser(trx, old.user_id))) throw refuse('invalid_grant');
      return issueToken(trx, old.user_id, old.application_id, parseScopes(old.scopes));
    });
  }

  /** Doorkeeper's `GET /oauth/token/info`: what a token is, or undefined when it is not usable. */
  async tokenInfo(token: string): Promise<{ record: OAuthAccessToken; application: OAuthApplication | undefined } | undefined> {
    const record = await this.tokenRecord(token);
    if (!record || record.revoked === 1 || record.expires_at <= now()) return undefined;
    const application =
      record.application_id === null
        ? undefined
        : await this.db.selectFrom('oauth_applications').selectAll().where('id', '=', record.application_id).executeTakeFirst();
    return { record, application };
  }

  /** RFC 7009's revocation: an access or a refresh token, of the client that names itself (any without one); unknown tokens are no error. */
  async revoke(token: string, client: ClientCredentials): Promise<void> {
    const application = await this.optionalClient(client);
    const digest = digestToken(token);
    let query = this.db
      .updateTable('oauth_access_tokens')
      .set({ revoked: 1 })
      .where((eb) => eb.or([eb('token_digest', '=', digest), eb('refresh_token_digest', '=', digest)]));
    if (application) query = query.where('application_id', '=', application.id);
    await query.execute();
  }

  /** Whom an access token stands for, with its scopes. */
  async resolve(token: string): Promise<AccessTokenLookup> {
    const record = await this.tokenRecord(token);
    if (!record) return undefined;
    if (record.revoked === 1) return { refused: 'revoked' };
    if (record.expires_at <= now()) return { refused: 'expired' };
    const user = await this.users.findById(record.user_id);
    return user?.state === 'active' ? { user, scopes: parseScopes(record.scopes) } : undefined;
  }

  private tokenRecord(token: string): Promise<OAuthAccessToken | undefined> {
    return this.db.selectFrom('oauth_access_tokens').selectAll().where('token_digest', '=', digestToken(token)).executeTakeFirst();
  }

  private applicationByUid(uid: string): Promise<OAuthApplication | undefined> {
    return this.db.selectFrom('oauth_applications').selectAll().where('uid', '=', uid).executeTakeFirst();
  }

  /** The client a request names, authenticated by its secret (a public client may omit it); none when none is named. */
  private async optionalClient({ clientId, clientSecret }: ClientCredentials): Promise<OAuthApplication | undefined> {
    if (!clientId) return undefined;
    const application = await this.applicationByUid(clientId);
    if (!application) throw refuse('invalid_client');
    if (clientSecret === undefined ? application.confidential === 1 : !sameSecret(application.secret_digest, digestToken(clientSecret))) {
      throw refuse('invalid_client');
    }
    return application;
  }

  /** The scopes asked for, each allowed to the client (any scope without one); `api` when none are asked for, as GitLab's default. */
  private grantedScopes(scope: string | undefined, application: OAuthApplication | undefined): TokenScope[] {
    const asked = scope === undefined ? [] : splitScopeParam(scope);
    const allowed = application ? parseScopes(application.scopes) : undefined;
    if (asked.length === 0) {
      if (!allowed) return ['api'];
      return allowed.includes('api') ? ['api'] : allowed;
    }
    if (!asked.every((name) => isTokenScope(name) && (allowed === undefined || allowed.includes(name)))) throw refuse('invalid_scope');
    return [...new Set(asked as TokenScope[])];
  }
}

/** Read in the grant's transaction: SQLite's one connection is held by it. */
async function isActiveUser(trx: Db, userId: number): Promise<boolean> {
  const user = await trx.selectFrom('users').select('state').where('id', '=', userId).executeTakeFirst();
  return user?.state === 'active';
}

async function issueToken(
  trx: Db,
  userId: number,
  applicationId: number | null,
  scopes: readonly TokenScope[],
): Promise<OAuthTokenResponse> {
  const accessToken = randomHex(64);
  const refreshToken = randomHex(64);
  const time = new Date();
  await trx
    .insertInto('oauth_access_tokens')
    .values({
      application_id: applicationId,
      user_id: userId,
      token_digest: digestToken(accessToken),
      refresh_token_digest: digestToken(refreshToken),
      scopes: JSON.stringify(scopes),
      expires_at: new Date(time.getTime() + ACCESS_TOKEN_SECONDS * 1000).toISOString(),
      revoked: 0,
      created_at: time.toISOString(),
    })
    .execute();
  return {
    access_token: accessToken,
    token_type: 'bearer',
    refresh_token: refreshToken,
    scope: scopes.join(' '),
    created_at: Math.floor(time.getTime() / 1000),
    expires_in: ACCESS_TOKEN_SECONDS,
  };
}

function isAbsoluteUri(value: string): boolean {
  try {
    return new URL(value).protocol !== '' && !value.includes('#');
  } catch {
    return false;
  }
}
