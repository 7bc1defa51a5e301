import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { emptyText, flag, timestamp, withId } from '../columns';

/** Issues, labels, milestones, project snippets, award emoji, subscriptions and todos (GitLab 8.12's tables, trimmed). */
export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('milestones'), dialect)
        .addColumn('iid', 'integer', (c) => c.notNull())
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        // A date, YYYY-MM-DD
        .addColumn('due_date', 'text')
        // active, closed
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('milestones_project_iid').on('milestones').columns(['project_id', 'iid']).unique().execute();
      await db.schema.createIndex('milestones_project_title').on('milestones').columns(['project_id', 'title']).unique().execute();

      await withId(db.schema.createTable('issues'), dialect)
        .addColumn('iid', 'integer', (c) => c.notNull())
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('milestone_id', 'integer', (c) => c.references('milestones.id').onDelete('set null'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        // opened, reopened, closed
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('opened'))
        .addColumn('confidential', 'integer', flag(0))
        // A date, YYYY-MM-DD
        .addColumn('due_date', 'text')
        // The issue this one was moved to (GitLab's `moved_to_id`).
        .addColumn('moved_to_id', 'integer')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('issues_project_iid').on('issues').columns(['project_id', 'iid']).unique().execute();
      await db.schema.createIndex('issues_project_state').on('issues').columns(['project_id', 'state', 'id']).execute();
      await db.schema.createIndex('issues_author').on('issues').columns(['author_id', 'id']).execute();
      await db.schema.createIndex('issues_assignee').on('issues').columns(['assignee_id', 'id']).execute();
      await db.schema.createIndex('issues_milestone').on('issues').column('milestone_id').execute();

      await withId(db.schema.createTable('labels'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        // #RRGGBB or #RGB, as given
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('labels_project_title').on('labels').columns(['project_id', 'title']).unique().execute();

      // Which labels an issue (or, later, a merge request) carries.
      await withId(db.schema.createTable('label_links'), dialect)
        .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
        // Issue, MergeRequest
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('label_links_label_target')
        .on('label_links')
        .columns(['label_id', 'target_type', 'target_id'])
        .unique()
        .execute();
      await db.schema.createIndex('label_links_target').on('label_links').columns(['target_type', 'target_id']).execute();

      await withId(db.schema.createTable('snippets'), dialect)
        .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('content', 'text', emptyText)
        .addColumn('visibility_level', 'integer', (c) => c.notNull().defaultTo(0))
        // ProjectSnippet (PersonalSnippet later)
        .addColumn('type', 'text', (c) => c.notNull().defaultTo('ProjectSnippet'))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('snippets_project').on('snippets').columns(['project_id', 'id']).execute();

      await withId(db.schema.createTable('award_emoji'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // Issue, MergeRequest, Snippet, Note
        .addColumn('awardable_type', 'text', (c) => c.notNull())
        .addColumn('awardable_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('award_emoji_unique')
        .on('award_emoji')
        .columns(['awardable_type', 'awardable_id', 'name', 'user_id'])
        .unique()
        .execute();

      await withId(db.schema.createTable('subscriptions'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // Issue, MergeRequest, Label
        .addColumn('subscribable_type', 'text', (c) => c.notNull())
        .addColumn('subscribable_id', 'integer', (c) => c.notNull())
        .addColumn('subscribed', 'integer', flag(1))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('subscriptions_unique')
        .on('subscriptions')
        .columns(['subscribable_type', 'subscribable_id', 'user_id'])
        .unique()
        .execute();

      await withId(db.schema.createTable('todos'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        // Issue, MergeRequest
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        .addColumn('note_id', 'integer', (c) => c.references('notes.id').onDelete('cascade'))
        // 1 assigned, 2 mentioned, 3 build_failed, 4 marked (GitLab's numbers)
        .addColumn('action', 'integer', (c) => c.notNull())
        // pending, done
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('todos_user_state').on('todos').columns(['user_id', 'state', 'id']).execute();
      await db.schema.createIndex('todos_target').on('todos').columns(['target_type', 'target_id']).execute();
    },
  };
}
