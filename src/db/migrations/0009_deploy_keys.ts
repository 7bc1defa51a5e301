import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { timestamp, withId } from '../columns';

/**
 * Which projects a deploy key (a `keys` row without a user) is enabled on (GitLab 8.12's
 * `deploy_keys_projects`). A key outlives its last link, as in 8.12: it can be enabled again.
 */
export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('deploy_keys_projects'), dialect)
        .addColumn('deploy_key_id', 'integer', (c) => c.notNull().references('keys.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('deploy_keys_projects_pair')
        .on('deploy_keys_projects')
        .columns(['project_id', 'deploy_key_id'])
        .unique()
        .execute();
      await db.schema.createIndex('deploy_keys_projects_key').on('deploy_keys_projects').column('deploy_key_id').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('deploy_keys_projects').execute();
    },
  };
}
