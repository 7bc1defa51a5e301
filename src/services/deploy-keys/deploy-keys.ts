import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import { DEPLOY_KEY_SHARING_ACCESS, mayUseEveryDeployKey, type Caller } from '../policy';
import { fingerprintOf, validateKey, type Key } from '../users/keys';
import { projectIdsWithAccess } from '../projects/queries';
import { isUniqueViolation } from '../../db/errors';
import { inTransaction } from '../../db/transaction';
import { notFound, recordNotFound, validationFailed } from '../../errors';
import { now } from '../../lib/time';

export interface DeployKeyAttributes {
  title?: string;
  key?: string;
}

/**
 * Deploy keys (GitLab 8.12's `deploy_keys.rb`): `keys` rows without a user, enabled on projects
 * through `deploy_keys_projects`. A deploy key fetches the projects it is enabled on over SSH and
 * pushes nowhere. Its fingerprint is unique among users' keys too.
 */
export class DeployKeysService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** Every deploy key (administrators). */
  listAll(): Promise<Key[]> {
    return this.db.selectFrom('keys').selectAll().where('user_id', 'is', null).orderBy('id').execute();
  }

  listOf(projectId: number): Promise<Key[]> {
    return this.linkedTo(projectId).orderBy('keys.id').execute();
  }

  /**
   * The deploy keys the caller may enable on this project and that are not on it yet (a settings
   * page's choices; the same rule as `enable`), the first hundred.
   */
  enableableOn(projectId: number, caller: Caller): Promise<Key[]> {
    const links = this.db.selectFrom('deploy_keys_projects').select('deploy_key_id');
    return this.db
      .selectFrom('keys')
      .selectAll()
      .where('user_id', 'is', null)
      .where('id', 'not in', links.where('project_id', '=', projectId))
      .$if(!mayUseEveryDeployKey(caller), (query) =>
        query.where('id', 'in', links.where('project_id', 'in', projectIdsWithAccess(this.db, caller.id, DEPLOY_KEY_SHARING_ACCESS))),
      )
      .orderBy('id')
      .limit(100)
      .execute();
  }

  /** A key enabled on this project, else `404 Not found` (8.12's `find`). */
  async findIn(projectId: number, keyId: number): Promise<Key> {
    const key = await this.linkedTo(projectId).where('keys.id', '=', keyId).executeTakeFirst();
    if (!key) throw recordNotFound();
    return key;
  }

  /** Whether a deploy key may fetch this project. */
  async isEnabled(keyId: number, projectId: number): Promise<boolean> {
    const link = await this.db
      .selectFrom('deploy_keys_projects')
      .select('id')
      .where('deploy_key_id', '=', keyId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return link !== undefined;
  }

  /**
   * Adds a deploy key to a project. The text of a deploy key the caller may already use (see
   * `accessible`) enables that key here instead: 8.12 enabled it and then answered 400 all the
   * same (and 500 when it was enabled here already); later GitLabs answer the key with 201, as
   * here. Any other key already stored, a user's included, is `fingerprint has already been taken`.
   */
  async create(project: Project, caller: Caller, attributes: DeployKeyAttributes): Promise<Key> {
    const fingerprint = attributes.key ? fingerprintOf(attributes.key.trim()) : undefined;
    const existing =
      fingerprint === undefined
        ? undefined
        : await this.db
            .selectFrom('keys')
            .selectAll()
            .where('fingerprint', '=', fingerprint)
            .where('user_id', 'is', null)
            .executeTakeFirst();
    if (existing && (await this.accessible(caller, existing.id))) return this.link(project.id, existing);
    const valid = await validateKey(this.db, attributes);
    const time = now();
    try {
      return await inTransaction(this.db, async (trx) => {
        const key = await trx
          .insertInto('keys')
          .values({
            user_id: null,
            title: attributes.title!,
            key: valid.text,
            fingerprint: valid.fingerprint,
            created_at: time,
            updated_at: time,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('deploy_keys_projects')
          .values({ deploy_key_id: key.id, project_id: project.id, created_at: time, updated_at: time })
          .execute();
        return key;
      });
    } catch (error) {
      // Another request stored the same key between the check and the insert.
      if (isUniqueViolation(error)) throw validationFailed({ fingerprint: ['has already been taken'] });
      throw error;
    }
  }

  /** Enables a deploy key the caller may use on this project too; anything else is `404 Deploy Key Not Found`. */
  async enable(project: Project, caller: Caller, keyId: number): Promise<Key> {
    const key = await this.db.selectFrom('keys').selectAll().where('id', '=', keyId).where('user_id', 'is', null).executeTakeFirst();
    if (!key || !(await this.accessible(caller, key.id))) throw notFound('Deploy Key');
    return this.link(project.id, key);
  }

  /** Takes a deploy key off this project; the key stays. 8.12 failed with 500 on a key not enabled here: 404 instead. */
  async disable(projectId: number, keyId: number): Promise<Key> {
    return inTransaction(this.db, async (trx) => {
      const link = await trx
        .deleteFrom('deploy_keys_projects')
        .where('project_id', '=', projectId)
        .where('deploy_key_id', '=', keyId)
        .returning('id')
        .executeTakeFirst();
      const key = link && (await trx.selectFrom('keys').selectAll().where('id', '=', keyId).executeTakeFirst());
      if (!key) throw notFound('Deploy Key');
      return key;
    });
  }

  /**
   * Removes a deploy key of this project. 8.12 destroyed the key itself, taking it from every
   * other project it was enabled on (projects the caller may not even see); here a key other
   * projects still use is only taken off this one, and a key used nowhere else is destroyed.
   * Answers the key's record either way.
   */
  async remove(projectId: number, keyId: number): Promise<Key> {
    return inTransaction(this.db, async (trx) => {
      const key = await this.linkedTo(projectId, trx).where('keys.id', '=', keyId).executeTakeFirst();
      if (!key) throw recordNotFound();
      await trx.deleteFrom('deploy_keys_projects').where('project_id', '=', projectId).where('deploy_key_id', '=', keyId).execute();
      const elsewhere = await trx.selectFrom('deploy_keys_projects').select('id').where('deploy_key_id', '=', keyId).executeTakeFirst();
      if (!elsewhere) await trx.deleteFrom('keys').where('id', '=', keyId).execute();
      return key;
    });
  }

  /** 8.12's `accessible_deploy_keys`: administrators may use any deploy key, others those of projects they master. */
  private async accessible(caller: Caller, keyId: number): Promise<boolean> {
    if (mayUseEveryDeployKey(caller)) return true;
    const link = await this.db
      .selectFrom('deploy_keys_projects')
      .select('id')
      .where('deploy_key_id', '=', keyId)
      .where('project_id', 'in', projectIdsWithAccess(this.db, caller.id, DEPLOY_KEY_SHARING_ACCESS))
      .limit(1)
      .executeTakeFirst();
    return link !== undefined;
  }

  /** Enables a key on a project, once however many times it is asked (a race included). */
  private async link(projectId: number, key: Key): Promise<Key> {
    const time = now();
    await this.db
      .insertInto('deploy_keys_projects')
      .values({ deploy_key_id: key.id, project_id: projectId, created_at: time, updated_at: time })
      .onConflict((conflict) => conflict.columns(['project_id', 'deploy_key_id']).doNothing())
      .execute();
    return key;
  }

  private linkedTo(projectId: number, db: Db = this.db) {
    return db
      .selectFrom('keys')
      .selectAll('keys')
      .where('keys.user_id', 'is', null)
      .where('keys.id', 'in', db.selectFrom('deploy_keys_projects').select('deploy_key_id').where('project_id', '=', projectId));
  }
}
