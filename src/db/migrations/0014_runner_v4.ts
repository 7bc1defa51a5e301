import type { Kysely, Migration } from 'kysely';

/**
 * What today's runners (the runner API v4) tell about themselves and their jobs: why a job failed
 * (`failure_reason`, sent with the final `PUT /jobs/:id`), and a runner's `access_level` and
 * `maximum_timeout` given at registration (the timeout caps its jobs').
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('ci_builds').addColumn('failure_reason', 'text').execute();
      await db.schema
        .alterTable('ci_runners')
        .addColumn('access_level', 'text', (c) => c.notNull().defaultTo('not_protected'))
        .execute();
      await db.schema.alterTable('ci_runners').addColumn('maximum_timeout', 'integer').execute();
    },
  };
}
