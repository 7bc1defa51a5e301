import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import type { PersonalAccessTokensTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { UsersService } from '../users/users';
import { Validation, notFound } from '../../errors';
import { digestToken, randomToken } from '../../lib/secrets';
import { now } from '../../lib/time';
import { isTokenScope, parseScopes } from './scopes';
import type { AccessTokenLookup } from './access-token-lookup';

export type PersonalAccessToken = Selectable<PersonalAccessTokensTable>;

/** A token as created: the row, and the token itself, which is shown this once and never kept. */
export interface CreatedPersonalAccessToken {
  record: PersonalAccessToken;
  token: string;
}

/** Writing `last_used_at` on every request would make every read a write: once in ten minutes is GitLab's rule. */
const LAST_USED_EVERY_MS = 10 * 60 * 1000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC day, as `expires_at` is stored. */
const today = (): string => new Date().toISOString().slice(0, 10);

/** Expired from the first moment of its `expires_at` day (UTC), as GitLab's tokens. */
export const isExpired = (expiresAt: string | null): boolean => expiresAt !== null && expiresAt <= today();

/** Active: neither revoked nor expired. */
export const isActiveToken = (token: PersonalAccessToken): boolean => token.revoked === 0 && !isExpired(token.expires_at);

/**
 * Personal access tokens (GitLab's `PersonalAccessToken`): a user's named, scoped, expiring
 * credential, used in place of the private token. Stored as a SHA-256 digest only.
 */
export class PersonalAccessTokensService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
  ) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** A new token for a user: name, at least one known scope, an optional expiry date (`YYYY-MM-DD`). */
  async create(
    userId: number,
    attributes: { name: string; scopes: string[]; expires_at?: string | null },
  ): Promise<CreatedPersonalAccessToken> {
    if (!(await this.users.findById(userId))) throw notFound('User');
    const validation = new Validation();
    if (attributes.name.trim() === '') validation.add('name', "can't be blank");
    if (attributes.scopes.length === 0) validation.add('scopes', "can't be blank");
    for (const scope of attributes.scopes) if (!isTokenScope(scope)) validation.add('scopes', `${scope} is not a valid scope`);
    const expiresAt = attributes.expires_at === '' ? null : (attributes.expires_at ?? null);
    if (expiresAt !== null && (!DATE.test(expiresAt) || Number.isNaN(Date.parse(expiresAt)))) validation.add('expires_at', 'is invalid');
    validation.throwIfInvalid();
    const token = randomToken(20);
    const record = await this.db
      .insertInto('personal_access_tokens')
      .values({
        user_id: userId,
        name: attributes.name,
        token_digest: digestToken(token),
        scopes: JSON.stringify([...new Set(attributes.scopes)]),
        expires_at: expiresAt,
        revoked: 0,
        created_at: now(),
        last_used_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { record, token };
  }

  /** A page of every token, or of one user's, oldest first, with how many there are. */
  async list(filter: { userId?: number; offset: number; limit: number }): Promise<{ tokens: PersonalAccessToken[]; total: number }> {
    let query = this.db.selectFrom('personal_access_tokens');
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    const [tokens, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(filter.offset).limit(filter.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { tokens, total: Number(count.total) };
  }

  async find(id: number): Promise<PersonalAccessToken | undefined> {
    return this.db.selectFrom('personal_access_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Revokes a token; a revoked token stays listed (`revoked: true`), as in GitLab. */
  async revoke(id: number): Promise<void> {
    await this.db.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', id).execute();
  }

  /** Whom a token stands for, with its scopes; a blocked owner is nobody. */
  async resolve(token: string): Promise<AccessTokenLookup> {
    const record = await this.db
      .selectFrom('personal_access_tokens')
      .selectAll()
      .where('token_digest', '=', digestToken(token))
      .executeTakeFirst();
    if (!record) return undefined;
    if (record.revoked === 1) return { refused: 'revoked' };
    if (isExpired(record.expires_at)) return { refused: 'expired' };
    const user = await this.users.findById(record.user_id);
    if (user?.state !== 'active') return undefined;
    await this.noteUse(record);
    return { user, scopes: parseScopes(record.scopes) };
  }

  private async noteUse(record: PersonalAccessToken): Promise<void> {
    const time = now();
    if (record.last_used_at !== null && Date.parse(time) - Date.parse(record.last_used_at) < LAST_USED_EVERY_MS) return;
    await this.db.updateTable('personal_access_tokens').set({ last_used_at: time }).where('id', '=', record.id).execute();
  }
}
