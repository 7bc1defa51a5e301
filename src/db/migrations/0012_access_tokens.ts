import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { flag, timestamp, withId } from '../columns';

/**
 * Credentials other than the user's private token (GitLab's `personal_access_tokens` and
 * Doorkeeper's `oauth_applications`, `oauth_access_grants`, `oauth_access_tokens`). Every secret is
 * kept as its SHA-256 digest, never as itself: a copy of the database reveals no token. Scopes are
 * JSON text (an array of names). A user's credentials go with the user (the foreign keys' cascade).
 */
export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('personal_access_tokens'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_digest', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        // A date (YYYY-MM-DD): the token works through the day before it.
        .addColumn('expires_at', 'text')
        .addColumn('revoked', 'integer', flag(0))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('personal_access_tokens_digest').on('personal_access_tokens').column('token_digest').unique().execute();
      await db.schema.createIndex('personal_access_tokens_user').on('personal_access_tokens').column('user_id').execute();

      await withId(db.schema.createTable('oauth_applications'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        // The public client id (`application_id`, Doorkeeper's `uid`).
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('secret_digest', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('confidential', 'integer', flag(1))
        .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('oauth_applications_uid').on('oauth_applications').column('uid').unique().execute();

      await withId(db.schema.createTable('oauth_access_grants'), dialect)
        .addColumn('application_id', 'integer', (c) => c.notNull().references('oauth_applications.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_digest', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', timestamp)
        .addColumn('used', 'integer', flag(0))
        .addColumn('created_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('oauth_access_grants_code').on('oauth_access_grants').column('code_digest').unique().execute();

      await withId(db.schema.createTable('oauth_access_tokens'), dialect)
        // Null for the password grant without a client.
        .addColumn('application_id', 'integer', (c) => c.references('oauth_applications.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_digest', 'text', (c) => c.notNull())
        .addColumn('refresh_token_digest', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', timestamp)
        .addColumn('revoked', 'integer', flag(0))
        .addColumn('created_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('oauth_access_tokens_token').on('oauth_access_tokens').column('token_digest').unique().execute();
      await db.schema
        .createIndex('oauth_access_tokens_refresh')
        .on('oauth_access_tokens')
        .column('refresh_token_digest')
        .unique()
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('oauth_access_tokens').execute();
      await db.schema.dropTable('oauth_access_grants').execute();
      await db.schema.dropTable('oauth_applications').execute();
      await db.schema.dropTable('personal_access_tokens').execute();
    },
  };
}
