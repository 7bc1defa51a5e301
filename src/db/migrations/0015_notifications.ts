import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { timestamp, withId } from '../columns';

/**
 * GitLab 8.12's `notification_settings`: a user's level of e-mail notifications, globally (source
 * `Global`, id 0: a real value rather than null, so the unique index holds on both databases), per
 * project and per group (`Project`, `Namespace`); `events` the JSON of a `custom` level's choices.
 * The global row also holds the address mails go to (`notification_email`; empty: the primary one).
 */
export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('notification_settings'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('source_type', 'text', (c) => c.notNull())
        .addColumn('source_id', 'integer', (c) => c.notNull())
        .addColumn('level', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('notification_email', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('notification_settings_user_source')
        .on('notification_settings')
        .columns(['user_id', 'source_type', 'source_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('notification_settings_source')
        .on('notification_settings')
        .columns(['source_type', 'source_id'])
        .execute();
    },
  };
}
