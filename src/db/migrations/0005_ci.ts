import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { emptyText, flag, timestamp, withId } from '../columns';

export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      // Runners: shared ones (registered with the instance's token) and specific ones (a project's).
      await withId(db.schema.createTable('ci_runners'), dialect)
        .addColumn('token_digest', 'text', (c) => c.notNull())
        .addColumn('token_sealed', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('active', 'integer', flag(1))
        .addColumn('is_shared', 'integer', flag(0))
        .addColumn('run_untagged', 'integer', flag(1))
        .addColumn('locked', 'integer', flag(0))
        // JSON array of strings
        .addColumn('tag_list', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('name', 'text')
        .addColumn('version', 'text')
        .addColumn('revision', 'text')
        .addColumn('platform', 'text')
        .addColumn('architecture', 'text')
        .addColumn('contacted_at', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('ci_runners_token').on('ci_runners').column('token_digest').unique().execute();

      await withId(db.schema.createTable('ci_runner_projects'), dialect)
        .addColumn('runner_id', 'integer', (c) => c.notNull().references('ci_runners.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('ci_runner_projects_runner_project')
        .on('ci_runner_projects')
        .columns(['runner_id', 'project_id'])
        .unique()
        .execute();
      await db.schema.createIndex('ci_runner_projects_project').on('ci_runner_projects').column('project_id').execute();

      // What a build needs beyond an external status: the token (sealed: a build's dependants are
      // handed it to fetch its artifacts), the commands, the runner tags it asks for, its environment.
      await db.schema.alterTable('ci_builds').addColumn('token_sealed', 'text').execute();
      await db.schema.alterTable('ci_builds').addColumn('commands', 'text', emptyText).execute();
      await db.schema
        .alterTable('ci_builds')
        .addColumn('tag_list', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema.alterTable('ci_builds').addColumn('environment', 'text').execute();
      // A trace's length is its file's size in the store; a column beside it would only drift.
      await db.schema.alterTable('ci_builds').dropColumn('trace_size').execute();
      // A pipeline's status is computed from the latest build of each name (`max(id) … group by name`).
      await db.schema.createIndex('ci_builds_pipeline_name').on('ci_builds').columns(['pipeline_id', 'name', 'id']).execute();
      // Runners look for the oldest pending build nobody runs.
      await db.schema.createIndex('ci_builds_queue').on('ci_builds').columns(['status', 'runner_id', 'id']).execute();
      await db.schema.createIndex('ci_builds_expiry').on('ci_builds').column('artifacts_expire_at').execute();

      // GitLab 8.12's project CI settings (no API shows them in v3; their defaults apply).
      await db.schema
        .alterTable('projects')
        .addColumn('build_timeout', 'integer', (c) => c.notNull().defaultTo(3600))
        .execute();
      await db.schema.alterTable('projects').addColumn('build_allow_git_fetch', 'integer', flag(1)).execute();
      await db.schema.alterTable('projects').addColumn('build_coverage_regex', 'text').execute();
    },
  };
}
