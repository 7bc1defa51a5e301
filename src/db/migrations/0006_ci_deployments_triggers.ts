import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { flag, timestamp, withId } from '../columns';

export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      // Per-project numbers (a deployment's iid now; issues' and merge requests' later), handed out by
      // one upsert so that two writers never get the same one (src/db/internal-ids.ts).
      await db.schema
        .createTable('internal_ids')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('usage', 'text', (c) => c.notNull())
        .addColumn('last_value', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('internal_ids_pkey', ['project_id', 'usage'])
        .execute();

      await withId(db.schema.createTable('ci_triggers'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('token_digest', 'text', (c) => c.notNull())
        .addColumn('token_sealed', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('ci_triggers_token').on('ci_triggers').column('token_digest').unique().execute();
      await db.schema.createIndex('ci_triggers_project').on('ci_triggers').column('project_id').execute();

      await withId(db.schema.createTable('ci_trigger_requests'), dialect)
        .addColumn('trigger_id', 'integer', (c) => c.notNull().references('ci_triggers.id').onDelete('cascade'))
        .addColumn('variables', 'text')
        .addColumn('pipeline_id', 'integer', (c) => c.references('ci_pipelines.id').onDelete('set null'))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('ci_trigger_requests_trigger').on('ci_trigger_requests').columns(['trigger_id', 'id']).execute();

      // A triggered pipeline's builds carry their trigger request (its variables, CI_BUILD_TRIGGERED).
      await db.schema.alterTable('ci_builds').addColumn('trigger_request_id', 'integer').execute();

      await withId(db.schema.createTable('environments'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('external_url', 'text')
        .addColumn('environment_type', 'text')
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('environments_project_name').on('environments').columns(['project_id', 'name']).unique().execute();

      await withId(db.schema.createTable('deployments'), dialect)
        .addColumn('iid', 'integer', (c) => c.notNull())
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('environment_id', 'integer', (c) => c.notNull().references('environments.id').onDelete('cascade'))
        .addColumn('ref', 'text', (c) => c.notNull())
        .addColumn('tag', 'integer', flag(0))
        .addColumn('sha', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('deployable_id', 'integer', (c) => c.references('ci_builds.id').onDelete('set null'))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('deployments_project_iid').on('deployments').columns(['project_id', 'iid']).unique().execute();
      await db.schema.createIndex('deployments_environment').on('deployments').columns(['environment_id', 'id']).execute();
    },
  };
}
