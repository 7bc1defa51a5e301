import { sql, type Kysely, type Migration } from 'kysely';
import type { DbHandle } from '../index';
import { emptyText, flag, timestamp, withId } from '../columns';

export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('projects'), dialect)
        .addColumn('namespace_id', 'integer', (c) => c.notNull().references('namespaces.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('default_branch', 'text')
        .addColumn('tag_list', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('visibility_level', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('archived', 'integer', flag(0))
        .addColumn('issues_enabled', 'integer', flag(1))
        .addColumn('merge_requests_enabled', 'integer', flag(1))
        .addColumn('builds_enabled', 'integer', flag(1))
        .addColumn('wiki_enabled', 'integer', flag(1))
        .addColumn('snippets_enabled', 'integer', flag(1))
        .addColumn('container_registry_enabled', 'integer', flag(1))
        .addColumn('shared_runners_enabled', 'integer', flag(1))
        .addColumn('public_builds', 'integer', flag(1))
        .addColumn('only_allow_merge_if_build_succeeds', 'integer', flag(0))
        .addColumn('lfs_enabled', 'integer', flag(1))
        .addColumn('request_access_enabled', 'integer', flag(1))
        .addColumn('creator_id', 'integer')
        .addColumn('forked_from_project_id', 'integer')
        .addColumn('star_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('import_url', 'text')
        .addColumn('import_status', 'text', (c) => c.notNull().defaultTo('none'))
        .addColumn('runners_token_digest', 'text', (c) => c.notNull())
        .addColumn('runners_token_sealed', 'text', (c) => c.notNull())
        .addColumn('pending_delete', 'integer', flag(0))
        .addColumn('last_activity_at', 'text', timestamp)
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      // Paths are unique within a namespace, ignoring case; written out because it mixes a column and an expression.
      await sql`create unique index projects_namespace_path on projects (namespace_id, lower(path))`.execute(db);
      await db.schema.createIndex('projects_created').on('projects').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('projects_visibility').on('projects').columns(['visibility_level', 'created_at']).execute();
      await db.schema.createIndex('projects_forked_from').on('projects').column('forked_from_project_id').execute();
      await db.schema.createIndex('projects_runners_token').on('projects').column('runners_token_digest').execute();

      // Members of projects (source_type 'Project') and of groups ('Namespace'); a row with
      // `requested_at` set is an access request, not yet a member.
      await withId(db.schema.createTable('members'), dialect)
        .addColumn('source_type', 'text', (c) => c.notNull())
        .addColumn('source_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('access_level', 'integer', (c) => c.notNull())
        .addColumn('notification_level', 'integer', (c) => c.notNull().defaultTo(3))
        .addColumn('expires_at', 'text')
        .addColumn('requested_at', 'text')
        .addColumn('created_by_id', 'integer')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('members_source_user').on('members').columns(['source_type', 'source_id', 'user_id']).unique().execute();
      await db.schema.createIndex('members_user').on('members').columns(['user_id', 'source_type']).execute();

      await withId(db.schema.createTable('project_group_links'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('group_id', 'integer', (c) => c.notNull().references('namespaces.id').onDelete('cascade'))
        .addColumn('group_access', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('project_group_links_unique')
        .on('project_group_links')
        .columns(['project_id', 'group_id'])
        .unique()
        .execute();
      await db.schema.createIndex('project_group_links_group').on('project_group_links').column('group_id').execute();

      await withId(db.schema.createTable('stars'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('created_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('stars_user_project').on('stars').columns(['user_id', 'project_id']).unique().execute();
      await db.schema.createIndex('stars_project').on('stars').column('project_id').execute();

      await withId(db.schema.createTable('ci_variables'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', emptyText)
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('ci_variables_project_key').on('ci_variables').columns(['project_id', 'key']).unique().execute();

      await withId(db.schema.createTable('events'), dialect)
        .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_id', 'integer')
        .addColumn('target_type', 'text')
        .addColumn('target_title', 'text')
        .addColumn('data', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('events_project').on('events').columns(['project_id', 'id']).execute();
    },
  };
}
