import { sql, type Kysely, type Migration } from 'kysely';
import type { DbHandle } from '../index';
import { emptyText, flag, timestamp, withId } from '../columns';

export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('users'), dialect)
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('token_digest', 'text', (c) => c.notNull().unique())
        .addColumn('token_sealed', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('admin', 'integer', flag(0))
        .addColumn('external', 'integer', flag(0))
        .addColumn('can_create_group', 'integer', flag(1))
        .addColumn('projects_limit', 'integer', (c) => c.notNull().defaultTo(10))
        .addColumn('bio', 'text')
        .addColumn('location', 'text')
        .addColumn('skype', 'text', emptyText)
        .addColumn('linkedin', 'text', emptyText)
        .addColumn('twitter', 'text', emptyText)
        .addColumn('website_url', 'text', emptyText)
        .addColumn('theme_id', 'integer', (c) => c.notNull().defaultTo(2))
        .addColumn('color_scheme_id', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('confirmed_at', 'text')
        .addColumn('last_sign_in_at', 'text')
        .addColumn('current_sign_in_at', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      // Uniqueness is case-insensitive, as GitLab's validations are.
      await db.schema.createIndex('users_username_lower').on('users').unique().expression(lower('username')).execute();
      await db.schema.createIndex('users_email_lower').on('users').unique().expression(lower('email')).execute();

      await withId(db.schema.createTable('identities'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('extern_uid', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('identities_user').on('identities').columns(['user_id', 'provider']).unique().execute();

      await withId(db.schema.createTable('emails'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('emails_email_lower').on('emails').unique().expression(lower('email')).execute();
      await db.schema.createIndex('emails_user').on('emails').column('user_id').execute();

      await withId(db.schema.createTable('keys'), dialect)
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('keys_user').on('keys').column('user_id').execute();

      await withId(db.schema.createTable('namespaces'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('description', 'text', emptyText)
        .addColumn('visibility_level', 'integer', (c) => c.notNull().defaultTo(20))
        .addColumn('request_access_enabled', 'integer', flag(1))
        .addColumn('share_with_group_lock', 'integer', flag(0))
        .addColumn('lfs_enabled', 'integer', flag(1))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('namespaces_path_lower').on('namespaces').unique().expression(lower('path')).execute();
      await db.schema.createIndex('namespaces_owner').on('namespaces').column('owner_id').execute();

      await withId(db.schema.createTable('broadcast_messages'), dialect)
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('starts_at', 'text', timestamp)
        .addColumn('ends_at', 'text', timestamp)
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('font', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();

      await withId(db.schema.createTable('application_settings'), dialect)
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();

      // Project hooks (issue 3) share this table; project_id gets its foreign key when projects exist.
      await withId(db.schema.createTable('hooks'), dialect)
        .addColumn('project_id', 'integer')
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('token', 'text')
        .addColumn('push_events', 'integer', flag(1))
        .addColumn('tag_push_events', 'integer', flag(0))
        .addColumn('issues_events', 'integer', flag(0))
        .addColumn('merge_requests_events', 'integer', flag(0))
        .addColumn('note_events', 'integer', flag(0))
        .addColumn('build_events', 'integer', flag(0))
        .addColumn('pipeline_events', 'integer', flag(0))
        .addColumn('wiki_page_events', 'integer', flag(0))
        .addColumn('enable_ssl_verification', 'integer', flag(1))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('hooks_project').on('hooks').column('project_id').execute();

      await withId(db.schema.createTable('jobs'), dialect)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('run_at', 'text', timestamp)
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('locked_at', 'text')
        .addColumn('locked_by', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('jobs_due').on('jobs').columns(['locked_at', 'run_at']).execute();
    },
  };
}

function lower(column: string) {
  return sql`lower(${sql.ref(column)})`;
}
