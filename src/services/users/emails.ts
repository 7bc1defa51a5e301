import type { Selectable } from 'kysely';
import type { EmailsTable } from '../../db/schema';
import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { Validation, notFound, recordNotFound, validationFailed } from '../../errors';
import { now } from '../../lib/time';
import { checkEmail } from './rules';
import { isUniqueViolation } from '../../db/errors';

export type Email = Selectable<EmailsTable>;

const TAKEN = 'has already been taken';

/** Users' secondary e-mail addresses, unique across every user's primary and secondary addresses. */
export class EmailsService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  async listOwn(userId: number): Promise<Email[]> {
    return this.db.selectFrom('emails').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  }

  /** An administrator listing another user's e-mails: `404 User Not Found` for an unknown user. */
  async listOf(userId: number): Promise<Email[]> {
    await this.userOrThrow(userId, notFound('User'));
    return this.listOwn(userId);
  }

  /** Only the caller's own e-mails: another user's is `404 Not found`. */
  async findOwn(userId: number, id: number): Promise<Email> {
    const email = await this.db.selectFrom('emails').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!email) throw recordNotFound();
    return email;
  }

  async createOwn(userId: number, address: string): Promise<Email> {
    return this.insert(userId, address);
  }

  /** An administrator adding an e-mail: an unknown user is `404 Not found` (GitLab's `User.find`). */
  async createFor(userId: number, address: string): Promise<Email> {
    await this.userOrThrow(userId, recordNotFound());
    return this.insert(userId, address);
  }

  /** Deletes one of the caller's e-mails; undefined when there is none (the route answers 200 all the same). */
  async removeOwn(userId: number, id: number): Promise<Email | undefined> {
    return this.db.deleteFrom('emails').where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
  }

  /** An administrator deleting a user's e-mail: `404 User Not Found`, then `404 Email Not Found`. */
  async removeFrom(userId: number, id: number): Promise<Email> {
    await this.userOrThrow(userId, notFound('User'));
    const email = await this.removeOwn(userId, id);
    if (!email) throw notFound('Email');
    return email;
  }

  private async insert(userId: number, address: string): Promise<Email> {
    // GitLab's Email model stores the address stripped and lower-cased.
    const email = address.trim().toLowerCase();
    await this.validate(email);
    try {
      return await this.db
        .insertInto('emails')
        .values({ user_id: userId, email, created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      // Another request stored the same address between the check and the insert.
      if (isUniqueViolation(error)) throw validationFailed({ email: [TAKEN] });
      throw error;
    }
  }

  /** GitLab 8.12's Email validations, in its order: taken as a secondary address, format, taken as a primary one. */
  private async validate(email: string): Promise<void> {
    const [secondary, primary] = await Promise.all([
      this.db
        .selectFrom('emails')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
        .executeTakeFirst(),
      this.db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
        .executeTakeFirst(),
    ]);
    const validation = new Validation();
    if (secondary) validation.add('email', TAKEN);
    checkEmail(validation, 'email', email);
    if (primary) validation.add('email', TAKEN);
    validation.throwIfInvalid();
  }

  private async userOrThrow(userId: number, error: Error): Promise<void> {
    const user = await this.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw error;
  }
}
