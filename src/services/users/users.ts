import type { Selectable } from 'kysely';
import type { UsersTable } from '../../db/schema';
import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { Validation, conflict, forbidden, notFound, notFoundMessage, recordNotFound, unauthorized } from '../../errors';
import { digestToken, hashPassword, randomToken, sameSecret, verifyPassword } from '../../lib/secrets';
import { now } from '../../lib/time';
import { containsText } from '../../db/search';
import { isUniqueViolation } from '../../db/errors';
import { personalProjectCountQuery } from './personal-projects';
import { preparedQuery } from '../../db/prepared';
import { RecentCache } from '../../lib/recent-cache';
import { RECENT_MS, type Identity, type ProfileCache, type ProfileExtras } from './profile-cache';
import { checkEmail, checkLength, checkNamespacePath, checkPassword } from './rules';
import { emitSystemEvent, userEventData } from '../hooks/system-events';
import { destroyUser, ownsGroupsAlone, type ProjectRemover } from './destroy';
import { inTransaction } from '../../db/transaction';

export type User = Selectable<UsersTable>;

/** Why a deletion left a user in place (`delete` keeps the only owner of a group), as the API and the admin page say it. */
export const ONLY_GROUP_OWNER = 'User is the only owner of a group: transfer or remove the group first';

export interface UserAttributes {
  email?: string;
  password?: string;
  name?: string;
  username?: string;
  skype?: string;
  linkedin?: string;
  twitter?: string;
  website_url?: string;
  projects_limit?: number;
  bio?: string;
  location?: string;
  admin?: boolean;
  can_create_group?: boolean;
  external?: boolean;
  confirm?: boolean;
  provider?: string;
  extern_uid?: string;
}

export type { Identity, ProfileExtras } from './profile-cache';

/** Users: accounts, their tokens and their personal namespaces. */
export class UsersService {
  /** What every authenticated request asks, built once. */
  private readonly hot: ReturnType<typeof hotQueries>;
  /**
   * Who owns a private token (every API request asks) and the extras of the full user shape (every
   * `GET /user`), remembered for a second: their queries were most of a simple request's time.
   * Exact within this process: user writes here, and project writes through the shared `ProfileCache`, forget
   * them once committed. Other processes (several may share one PostgreSQL) see a change within
   * the second: a block, the admin flag, `can_create_project`.
   */
  private readonly tokenOwners = new RecentCache<string, User>(RECENT_MS);

  constructor(
    private readonly ctx: ServiceContext,
    /** Removes a deleted user's personal projects. */
    private readonly projects: ProjectRemover,
    /** Shared with projects, who forget it when personal projects change. */
    private readonly profiles: ProfileCache,
  ) {
    this.hot = hotQueries(ctx.db);
  }

  private get db(): Db {
    return this.ctx.db;
  }

  async findById(id: number): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findMany(ids: number[]): Promise<Map<number, User>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.hot.usersByIds(unique);
    return new Map(rows.map((user) => [user.id, user]));
  }

  async findByIdOrUsername(value: string): Promise<User | undefined> {
    const id = /^\d+$/.test(value) ? Number(value) : -1;
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb(eb.fn('lower', ['username']), '=', value.toLowerCase()), eb('id', '=', id)]))
      .orderBy('id')
      .executeTakeFirst();
  }

  /** The active user owning a private token; blocked users are nobody. */
  async findByToken(token: string): Promise<User | undefined> {
    const digest = digestToken(token);
    const user = await this.tokenOwners.get(digest, async () => (await this.hot.userByTokenDigest(digest))[0]);
    return user && user.state === 'active' ? user : undefined;
  }

  /** The private token, shown again only to its owner at login. */
  privateToken(user: User): string {
    return this.ctx.secrets.unseal(user.token_sealed);
  }

  /**
   * HTTP Basic credentials for git: a login (username, or e-mail when it holds an `@`) with its
   * password or its private token. No side effects: git asks on every request.
   */
  async checkCredentials(login: string, secret: string): Promise<User | undefined> {
    const user = await this.findByLogin(login);
    if (user?.state !== 'active') return undefined;
    if (sameSecret(user.token_digest, digestToken(secret))) return user;
    return (await verifyPassword(secret, user.password_hash)) ? user : undefined;
  }

  private async findByLogin(login: string): Promise<User | undefined> {
    const column = login.includes('@') ? 'email' : 'username';
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', [column]), '=', login.toLowerCase()))
      .executeTakeFirst();
  }

  /** POST /session: by username, or by e-mail when the login holds an `@`. */
  async login(login: string | undefined, password: string | undefined): Promise<User> {
    if (!login || !password) throw unauthorized();
    const user = await this.findByLogin(login);
    if (user?.state !== 'active' || !(await verifyPassword(password, user.password_hash))) throw unauthorized();
    const time = now();
    await this.db
      .updateTable('users')
      .set({ last_sign_in_at: user.current_sign_in_at ?? time, current_sign_in_at: time })
      .where('id', '=', user.id)
      .execute();
    this.forgetRecent();
    return { ...user, last_sign_in_at: user.current_sign_in_at ?? time, current_sign_in_at: time };
  }

  async list(options: {
    search?: string;
    username?: string;
    active?: boolean;
    blocked?: boolean;
    external?: boolean;
    offset: number;
    limit: number;
  }): Promise<{ users: User[]; total: number }> {
    let query = this.db.selectFrom('users');
    if (options.username !== undefined) {
      query = query.where((eb) => eb(eb.fn('lower', ['username']), '=', options.username!.toLowerCase()));
    }
    if (options.search) {
      const search = options.search;
      query = query.where((eb) => eb.or(['name', 'email', 'username'].map((column) => containsText(column, search))));
    }
    if (options.active) query = query.where('state', '=', 'active');
    if (options.blocked) query = query.where('state', 'in', ['blocked', 'ldap_blocked']);
    if (options.external) query = query.where('external', '=', 1);
    const [users, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(options.offset).limit(options.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { users, total: Number(count.total) };
  }

  async identities(userIds: number[]): Promise<Map<number, Identity[]>> {
    const byUser = new Map<number, Identity[]>();
    if (userIds.length === 0) return byUser;
    const rows = await this.db.selectFrom('identities').selectAll().where('user_id', 'in', userIds).orderBy('id').execute();
    for (const row of rows) {
      const list = byUser.get(row.user_id) ?? [];
      list.push({ provider: row.provider, extern_uid: row.extern_uid });
      byUser.set(row.user_id, list);
    }
    return byUser;
  }

  /** What the full user shape adds to the row: identities, and personal projects for `can_create_project`. */
  async profileExtras(userId: number): Promise<ProfileExtras> {
    const extras = await this.profiles.get(userId, async () => {
      // Few users have identities (LDAP, OAuth): counting them beside the projects saves a query.
      const [counts] = await this.hot.profileCounts(userId);
      const identities = Number(counts.identities) > 0 ? await this.hot.identitiesOf(userId) : [];
      return { identities, personalProjects: Number(counts.personal_projects) };
    });
    return extras!;
  }

  private forgetRecent(): void {
    this.tokenOwners.forgetAll();
    this.profiles.forgetAll();
  }

  async create(
    attributes: UserAttributes & { email: string; password: string; name: string; username: string },
    token?: string,
  ): Promise<User> {
    const validation = this.validate(attributes, true);
    await this.checkTaken(attributes, undefined);
    validation.throwIfInvalid();
    const time = now();
    const privateToken = token ?? randomToken();
    const settings = await this.defaults();
    const created = inTransaction(this.db, async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          username: attributes.username,
          email: attributes.email,
          name: attributes.name,
          password_hash: await hashPassword(attributes.password),
          token_digest: digestToken(privateToken),
          token_sealed: this.ctx.secrets.seal(privateToken),
          state: 'active',
          admin: attributes.admin ? 1 : 0,
          external: attributes.external ? 1 : 0,
          can_create_group: attributes.can_create_group === false ? 0 : 1,
          projects_limit: attributes.projects_limit ?? settings.projectsLimit,
          bio: attributes.bio ?? null,
          location: attributes.location ?? null,
          skype: attributes.skype ?? '',
          linkedin: attributes.linkedin ?? '',
          twitter: attributes.twitter ?? '',
          website_url: attributes.website_url ?? '',
          theme_id: 2,
          color_scheme_id: 1,
          // `confirm` (default true) means "send a confirmation"; false confirms at once.
          confirmed_at: attributes.confirm === false ? time : null,
          last_sign_in_at: null,
          current_sign_in_at: null,
          created_at: time,
          updated_at: time,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('namespaces')
        .values({
          name: user.username,
          path: user.username,
          kind: 'user',
          owner_id: user.id,
          description: '',
          visibility_level: 20,
          request_access_enabled: 1,
          share_with_group_lock: 0,
          lfs_enabled: 1,
          created_at: time,
          updated_at: time,
        })
        .execute();
      if (attributes.provider && attributes.extern_uid) {
        await trx
          .insertInto('identities')
          .values({ user_id: user.id, provider: attributes.provider, extern_uid: attributes.extern_uid })
          .execute();
      }
      await emitSystemEvent(this.ctx, trx, 'user_create', userEventData(user));
      return user;
    });
    return created.catch((error) => this.lostRace(error, attributes, undefined, 409));
  }

  async update(id: number, attributes: UserAttributes): Promise<User> {
    const user = await this.findById(id);
    if (!user) throw recordNotFound();
    const validation = this.validate(attributes, false);
    // GitLab's documentation: modification answers 404 even where 409 would fit (spec, Errors rule 3).
    await this.checkTaken(attributes, user.id, 404);
    validation.throwIfInvalid();
    const time = now();
    const changes: Partial<User> = { updated_at: time };
    for (const field of ['email', 'name', 'username', 'skype', 'linkedin', 'twitter', 'website_url', 'bio', 'location'] as const) {
      if (attributes[field] !== undefined) changes[field] = attributes[field];
    }
    if (attributes.projects_limit !== undefined) changes.projects_limit = attributes.projects_limit;
    if (attributes.admin !== undefined) changes.admin = attributes.admin ? 1 : 0;
    if (attributes.external !== undefined) changes.external = attributes.external ? 1 : 0;
    if (attributes.can_create_group !== undefined) changes.can_create_group = attributes.can_create_group ? 1 : 0;
    if (attributes.password !== undefined) changes.password_hash = await hashPassword(attributes.password);
    const write = inTransaction(this.db, async (trx) => {
      const updated = await trx.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      if (attributes.username !== undefined && attributes.username !== user.username) {
        await trx
          .updateTable('namespaces')
          .set({ name: attributes.username, path: attributes.username, updated_at: time })
          .where('kind', '=', 'user')
          .where('owner_id', '=', id)
          .execute();
      }
      if (attributes.provider && attributes.extern_uid) {
        const updatedIdentity = await trx
          .updateTable('identities')
          .set({ extern_uid: attributes.extern_uid })
          .where('user_id', '=', id)
          .where('provider', '=', attributes.provider)
          .executeTakeFirst();
        if (Number(updatedIdentity.numUpdatedRows) === 0) {
          await trx
            .insertInto('identities')
            .values({ user_id: id, provider: attributes.provider, extern_uid: attributes.extern_uid })
            .execute();
        }
      }
      return updated;
    });
    const updated = await write.catch((error) => this.lostRace(error, attributes, user.id, 404));
    this.forgetRecent();
    return updated;
  }

  /**
   * A user changing their own password (the profile page): the current password must be given, and
   * the new one twice; every message at once, as one record's errors.
   */
  async changePassword(id: number, change: { current: string; password: string; confirmation: string }): Promise<User> {
    const user = await this.findById(id);
    if (!user) throw recordNotFound();
    const validation = new Validation();
    if (!(await verifyPassword(change.current, user.password_hash))) validation.add('current_password', 'is invalid');
    checkPassword(validation, change.password);
    if (change.password !== change.confirmation) validation.add('password_confirmation', "doesn't match Password");
    validation.throwIfInvalid();
    return this.update(id, { password: change.password });
  }

  /** A new private token for the user (GitLab 8.12's `reset_private_token`); the old one stops working at once. Answers the new one. */
  async resetPrivateToken(id: number): Promise<string> {
    const token = randomToken();
    const updated = await this.db
      .updateTable('users')
      .set({ token_digest: digestToken(token), token_sealed: this.ctx.secrets.seal(token), updated_at: now() })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw recordNotFound();
    this.forgetRecent();
    return token;
  }

  /**
   * A unique index refused what `checkTaken` let through: a concurrent request took the e-mail or
   * username in between. Answered as `checkTaken` would answer now, not as a 500.
   */
  private async lostRace(error: unknown, attributes: UserAttributes, selfId: number | undefined, status: 404 | 409): Promise<never> {
    if (!isUniqueViolation(error)) throw error;
    await this.checkTaken(attributes, selfId, status);
    throw status === 409 ? conflict() : notFound();
  }

  /**
   * Deletes a user with their personal projects, memberships, stars, notes, events, keys and
   * e-mails, in one transaction (see `destroyUser`); undefined when there is no such user. The only
   * owner of a group is kept, and answered unchanged, as GitLab 8.12 did.
   */
  async delete(id: number): Promise<User | undefined> {
    const user = await this.findById(id);
    if (!user) return undefined;
    const projects = this.projects;
    const deleted = await inTransaction(this.db, async (trx) => {
      if (await ownsGroupsAlone(trx, user.id)) return false;
      await destroyUser(this.ctx, trx, user, projects);
      return true;
    });
    if (deleted) this.forgetRecent();
    return user;
  }

  /** Block or unblock; the answer is whether the state changed as asked. */
  async setBlocked(id: number, blocked: boolean): Promise<boolean> {
    const user = await this.findById(id);
    if (!user) throw notFound('User');
    if (user.state === 'ldap_blocked') {
      throw forbidden(blocked ? 'LDAP blocked users cannot be modified by the API' : 'LDAP blocked users cannot be unblocked by the API');
    }
    await this.db
      .updateTable('users')
      .set({ state: blocked ? 'blocked' : 'active', updated_at: now() })
      .where('id', '=', id)
      .execute();
    this.forgetRecent();
    return true;
  }

  private validate(attributes: UserAttributes, creating: boolean): Validation {
    const validation = new Validation();
    if (attributes.email !== undefined) checkEmail(validation, 'email', attributes.email);
    if (attributes.password !== undefined) checkPassword(validation, attributes.password);
    if (attributes.name !== undefined) {
      if (creating && attributes.name.trim() === '') validation.add('name', "can't be blank");
      checkLength(validation, 'name', attributes.name);
    }
    if (attributes.username !== undefined) checkNamespacePath(validation, 'username', attributes.username);
    checkLength(validation, 'bio', attributes.bio);
    checkLength(validation, 'location', attributes.location);
    if (attributes.projects_limit !== undefined && attributes.projects_limit < 0) {
      validation.add('projects_limit', 'must be greater than or equal to 0');
    }
    return validation;
  }

  /** E-mail first, then username, as GitLab checks them; against other users, their e-mails and group paths. */
  private async checkTaken(attributes: UserAttributes, selfId: number | undefined, status = 409): Promise<void> {
    const self = selfId ?? -1;
    if (attributes.email !== undefined) {
      const email = attributes.email.toLowerCase();
      const taken =
        (await this.db
          .selectFrom('users')
          .select('id')
          .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
          .where('id', '!=', self)
          .executeTakeFirst()) ??
        (await this.db
          .selectFrom('emails')
          .select('id')
          .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
          .executeTakeFirst());
      if (taken) throw status === 409 ? conflict('Email has already been taken') : notFoundMessage('Email has already been taken');
    }
    if (attributes.username !== undefined) {
      const path = attributes.username.toLowerCase();
      const taken = await this.db
        .selectFrom('namespaces')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['path']), '=', path))
        .where((eb) => eb.or([eb('owner_id', 'is', null), eb('owner_id', '!=', self), eb('kind', '!=', 'user')]))
        .executeTakeFirst();
      if (taken) throw status === 409 ? conflict('Username has already been taken') : notFoundMessage('Username has already been taken');
    }
  }

  private async defaults(): Promise<{ projectsLimit: number }> {
    const row = await this.db.selectFrom('application_settings').select('data').orderBy('id').executeTakeFirst();
    const data = row ? (JSON.parse(row.data) as { default_projects_limit?: number }) : {};
    return { projectsLimit: data.default_projects_limit ?? 10 };
  }
}

function hotQueries(db: Db) {
  return {
    userByTokenDigest: preparedQuery(db, (digest: string) => db.selectFrom('users').selectAll().where('token_digest', '=', digest)),
    // The authors and assignees of every page of issues, notes or merge requests.
    usersByIds: preparedQuery(db, (ids: number[]) => db.selectFrom('users').selectAll().where('id', 'in', ids)),
    identitiesOf: preparedQuery(db, (userId: number) =>
      db.selectFrom('identities').select(['provider', 'extern_uid']).where('user_id', '=', userId).orderBy('id'),
    ),
    profileCounts: preparedQuery(db, (userId: number) =>
      db.selectNoFrom((eb) => [
        personalProjectCountQuery(db, userId).as('personal_projects'),
        eb.selectFrom('identities').select(eb.fn.countAll<number>().as('count')).where('user_id', '=', userId).as('identities'),
      ]),
    ),
  };
}
