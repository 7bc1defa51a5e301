import crypto from 'node:crypto';
import { notify } from '../notify';
import type Sshpk from 'sshpk';
import { lazyPackage } from '../../lib/lazy-package';
import type { Selectable } from 'kysely';
import type { KeysTable } from '../../db/schema';
import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { Validation, notFound, recordNotFound, validationFailed } from '../../errors';
import { now } from '../../lib/time';
import { LIMITS } from '../../lib/limits';
import { checkLength } from './rules';
import { emitSystemEvent, keyEventData } from '../hooks/system-events';
import type { User } from './users';
import { isUniqueViolation } from '../../db/errors';
import { inTransaction } from '../../db/transaction';

export type Key = Selectable<KeysTable>;

export interface KeyAttributes {
  title: string;
  key: string;
}

const sshpk = lazyPackage<typeof Sshpk>('sshpk');

/** GitLab 8.12's Key format: `ssh-…` or `ecdsa-…`, matched up to the first line break. */
const KEY_FORMAT = /^(ssh|ecdsa)-[^\n]*$/;

/**
 * The MD5 fingerprint as `ssh-keygen -E md5 -lf` prints it (colon-separated hex),
 * or undefined when the text holds no OpenSSH public key. Like ssh-keygen reading
 * the key file, only the first line counts.
 */
export function fingerprintOf(text: string): string | undefined {
  try {
    return sshpk().parseKey(text.split(/\r?\n/, 1)[0], 'ssh').fingerprint('md5').toString('hex');
  } catch {
    return undefined;
  }
}

/** The MD5 fingerprint of a key in SSH wire format (what an SSH client offers), as `fingerprintOf` writes it. */
export function fingerprintOfBlob(blob: Buffer): string {
  return crypto.hash('md5', blob, 'hex').replace(/(..)(?!$)/g, '$1:');
}

/**
 * GitLab 8.12's Key validations, in its order: title, key, fingerprint (unique among users' keys
 * and deploy keys alike). A missing attribute gets Rails' presence and length messages both.
 * Answers the key's text, trimmed, and its fingerprint.
 */
export async function validateKey(db: Db, attributes: { title?: string; key?: string }): Promise<{ text: string; fingerprint: string }> {
  const validation = new Validation();
  const { title } = attributes;
  const text = attributes.key?.trim();
  if (!title?.trim()) validation.add('title', "can't be blank");
  if (title === undefined) validation.add('title', 'is too short (minimum is 0 characters)');
  checkLength(validation, 'title', title);
  if (!text) validation.add('key', "can't be blank");
  if (text === undefined) validation.add('key', 'is too short (minimum is 0 characters)');
  checkLength(validation, 'key', text, LIMITS.sshKey);
  if (!KEY_FORMAT.test(text ?? '')) validation.add('key', 'is invalid');
  if (text && /[\n\r]/.test(text)) validation.add('key', 'should be a single line');
  const fingerprint = text ? fingerprintOf(text) : undefined;
  if (!fingerprint) {
    validation.add('fingerprint', 'cannot be generated');
  } else if (await db.selectFrom('keys').select('id').where('fingerprint', '=', fingerprint).executeTakeFirst()) {
    validation.add('fingerprint', 'has already been taken');
  }
  validation.throwIfInvalid();
  return { text: text!, fingerprint: fingerprint! };
}

type Owner = Pick<User, 'id' | 'username'>;

/** Users' SSH keys: validation, a server-wide unique fingerprint, key_create/key_destroy events. */
export class KeysService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  async listOwn(userId: number): Promise<Key[]> {
    return this.db.selectFrom('keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  }

  /** An administrator listing another user's keys: `404 User Not Found` for an unknown user. */
  async listOf(userId: number): Promise<Key[]> {
    await this.ownerOrThrow(userId, notFound('User'));
    return this.listOwn(userId);
  }

  /** Only the caller's own keys: another user's key is `404 Not found`, even for administrators. */
  async findOwn(userId: number, id: number): Promise<Key> {
    const key = await this.db.selectFrom('keys').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!key) throw recordNotFound();
    return key;
  }

  /** The key an SSH client authenticates with, user or deploy key, by its fingerprint. */
  async findByFingerprint(fingerprint: string): Promise<Key | undefined> {
    return this.db.selectFrom('keys').selectAll().where('fingerprint', '=', fingerprint).executeTakeFirst();
  }

  /** Any key, user or deploy key (GET /keys/:id). */
  async find(id: number): Promise<Key> {
    const key = await this.db.selectFrom('keys').selectAll().where('id', '=', id).executeTakeFirst();
    if (!key) throw recordNotFound();
    return key;
  }

  async createOwn(owner: Owner, attributes: KeyAttributes): Promise<Key> {
    return this.insert(owner, attributes);
  }

  /** An administrator adding a key: an unknown user is `404 Not found` (GitLab's `User.find`). */
  async createFor(userId: number, attributes: KeyAttributes): Promise<Key> {
    return this.insert(await this.ownerOrThrow(userId, recordNotFound()), attributes);
  }

  /** Deletes one of the caller's keys; undefined when there is none (the route answers 200 all the same). */
  async removeOwn(owner: Owner, id: number): Promise<Key | undefined> {
    return inTransaction(this.db, async (trx) => {
      const key = await trx.deleteFrom('keys').where('id', '=', id).where('user_id', '=', owner.id).returningAll().executeTakeFirst();
      if (key) await emitSystemEvent(this.ctx, trx, 'key_destroy', keyEventData(key, owner));
      return key;
    });
  }

  /** An administrator deleting a user's key: `404 User Not Found`, then `404 Key Not Found`. */
  async removeFrom(userId: number, id: number): Promise<Key> {
    const owner = await this.ownerOrThrow(userId, notFound('User'));
    const key = await this.removeOwn(owner, id);
    if (!key) throw notFound('Key');
    return key;
  }

  private async insert(owner: Owner, attributes: KeyAttributes): Promise<Key> {
    const { text, fingerprint } = await validateKey(this.db, attributes);
    const time = now();
    try {
      return await inTransaction(this.db, async (trx) => {
        const key = await trx
          .insertInto('keys')
          .values({ user_id: owner.id, title: attributes.title, key: text, fingerprint, created_at: time, updated_at: time })
          .returningAll()
          .executeTakeFirstOrThrow();
        await emitSystemEvent(this.ctx, trx, 'key_create', keyEventData(key, owner));
        await notify(this.ctx, trx, { kind: 'key.new', keyId: key.id });
        return key;
      });
    } catch (error) {
      // Another request stored the same key between the check and the insert.
      if (isUniqueViolation(error)) throw validationFailed({ fingerprint: ['has already been taken'] });
      throw error;
    }
  }

  private async ownerOrThrow(userId: number, error: Error): Promise<Owner> {
    const owner = await this.db.selectFrom('users').select(['id', 'username']).where('id', '=', userId).executeTakeFirst();
    if (!owner) throw error;
    return owner;
  }
}
