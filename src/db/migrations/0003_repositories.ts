import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { emptyText, flag, timestamp, withId } from '../columns';

export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('protected_branches'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('developers_can_push', 'integer', flag(0))
        .addColumn('developers_can_merge', 'integer', flag(0))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('protected_branches_project_name')
        .on('protected_branches')
        .columns(['project_id', 'name'])
        .unique()
        .execute();

      // Pipelines group the builds and external statuses of one commit and ref.
      await withId(db.schema.createTable('ci_pipelines'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('ref', 'text')
        .addColumn('sha', 'text', (c) => c.notNull())
        .addColumn('before_sha', 'text')
        .addColumn('tag', 'integer', flag(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('created'))
        .addColumn('yaml_errors', 'text')
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('committed_at', 'text')
        .addColumn('duration', 'integer')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('ci_pipelines_project_sha').on('ci_pipelines').columns(['project_id', 'sha']).execute();
      await db.schema.createIndex('ci_pipelines_project_ref').on('ci_pipelines').columns(['project_id', 'ref', 'id']).execute();

      // Builds run by runners (type 'Build') and statuses posted from outside (type 'GenericCommitStatus').
      await withId(db.schema.createTable('ci_builds'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('pipeline_id', 'integer', (c) => c.notNull().references('ci_pipelines.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('stage', 'text')
        .addColumn('stage_idx', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ref', 'text')
        .addColumn('tag', 'integer', flag(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('target_url', 'text')
        .addColumn('allow_failure', 'integer', flag(0))
        .addColumn('when', 'text', (c) => c.notNull().defaultTo('on_success'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('runner_id', 'integer')
        .addColumn('token_digest', 'text')
        .addColumn('options', 'text', emptyText)
        .addColumn('yaml_variables', 'text', emptyText)
        .addColumn('coverage', 'real')
        .addColumn('trace_size', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('artifacts_file', 'text')
        .addColumn('artifacts_size', 'integer')
        .addColumn('artifacts_metadata', 'text')
        .addColumn('artifacts_expire_at', 'text')
        .addColumn('erased_at', 'text')
        .addColumn('erased_by_id', 'integer')
        .addColumn('queued_at', 'text')
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('ci_builds_pipeline').on('ci_builds').columns(['pipeline_id', 'stage_idx']).execute();
      await db.schema.createIndex('ci_builds_project').on('ci_builds').columns(['project_id', 'id']).execute();
      await db.schema.createIndex('ci_builds_status').on('ci_builds').columns(['status', 'type', 'id']).execute();
      await db.schema.createIndex('ci_builds_token').on('ci_builds').column('token_digest').execute();

      // Notes on commits now; issues, merge requests and snippets use the same table later.
      await withId(db.schema.createTable('notes'), dialect)
        .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
        .addColumn('noteable_type', 'text', (c) => c.notNull())
        .addColumn('noteable_id', 'integer')
        .addColumn('commit_id', 'text')
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('path', 'text')
        .addColumn('line', 'integer')
        .addColumn('line_type', 'text')
        .addColumn('system', 'integer', flag(0))
        .addColumn('attachment', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('notes_commit').on('notes').columns(['project_id', 'commit_id']).execute();
      await db.schema.createIndex('notes_noteable').on('notes').columns(['noteable_type', 'noteable_id']).execute();
    },
  };
}
