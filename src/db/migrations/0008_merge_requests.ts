import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { flag, timestamp, withId } from '../columns';

/** Merge requests and their versions (GitLab 8.12's `merge_requests` and `merge_request_diffs`, trimmed). */
export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('merge_requests'), dialect)
        // Per target project, from `internal_ids` ('merge_requests').
        .addColumn('iid', 'integer', (c) => c.notNull())
        .addColumn('target_project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        // A fork's merge request outlives the fork's removal, as in GitLab (it can then only be closed).
        .addColumn('source_project_id', 'integer', (c) => c.references('projects.id').onDelete('set null'))
        .addColumn('source_branch', 'text', (c) => c.notNull())
        .addColumn('target_branch', 'text', (c) => c.notNull())
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('milestone_id', 'integer', (c) => c.references('milestones.id').onDelete('set null'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        // opened, reopened, closed, merged, locked (while a merge is being made)
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('opened'))
        // The state a locked merge request returns to when its merge fails.
        .addColumn('locked_from', 'text')
        .addColumn('locked_at', 'text')
        // unchecked, can_be_merged, cannot_be_merged
        .addColumn('merge_status', 'text', (c) => c.notNull().defaultTo('unchecked'))
        .addColumn('merge_commit_sha', 'text')
        .addColumn('merge_when_build_succeeds', 'integer', flag(0))
        // Who asked for the merge when the pipeline succeeds, and with what message.
        .addColumn('merge_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('merge_commit_message', 'text')
        .addColumn('should_remove_source_branch', 'integer', flag(0))
        .addColumn('force_remove_source_branch', 'integer', flag(0))
        // Why the last merge failed (GitLab's `merge_error`), for the hook payload and the logs.
        .addColumn('merge_error', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('merge_requests_target_iid')
        .on('merge_requests')
        .columns(['target_project_id', 'iid'])
        .unique()
        .execute();
      await db.schema
        .createIndex('merge_requests_target_state')
        .on('merge_requests')
        .columns(['target_project_id', 'state', 'id'])
        .execute();
      await db.schema
        .createIndex('merge_requests_target_branch')
        .on('merge_requests')
        .columns(['target_project_id', 'target_branch'])
        .execute();
      await db.schema
        .createIndex('merge_requests_source_branch')
        .on('merge_requests')
        .columns(['source_project_id', 'source_branch'])
        .execute();
      await db.schema.createIndex('merge_requests_author').on('merge_requests').columns(['author_id', 'id']).execute();
      await db.schema.createIndex('merge_requests_assignee').on('merge_requests').columns(['assignee_id', 'id']).execute();
      await db.schema.createIndex('merge_requests_milestone').on('merge_requests').column('milestone_id').execute();

      // One version a push to the source branch (and the creation): what the merge request showed then.
      await withId(db.schema.createTable('merge_request_diffs'), dialect)
        .addColumn('merge_request_id', 'integer', (c) => c.notNull().references('merge_requests.id').onDelete('cascade'))
        // collected, empty (no commits between base and head)
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('base_commit_sha', 'text')
        .addColumn('head_commit_sha', 'text')
        .addColumn('start_commit_sha', 'text')
        // The number of changed files, as text (GitLab's `real_size`, "0" when empty).
        .addColumn('real_size', 'text')
        .addColumn('commits_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('merge_request_diffs_request').on('merge_request_diffs').columns(['merge_request_id', 'id']).execute();
    },
  };
}
