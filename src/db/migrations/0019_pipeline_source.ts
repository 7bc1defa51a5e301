import type { Kysely, Migration } from 'kysely';

/**
 * What GitLab 10 records beside 8.12's CI rows: how a pipeline came (`source`: `push`, `trigger`,
 * `api`; every pipeline from before was a push's or a trigger's, and is read as `push`), and a
 * project variable's `protected` (given only to builds of protected branches and tags) and
 * `masked` flags (0 for variables from before), and when a delayed build (`when: delayed`, status
 * `scheduled`) is due to be queued (`scheduled_at`).
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('ci_pipelines')
        .addColumn('source', 'text', (c) => c.notNull().defaultTo('push'))
        .execute();
      for (const column of ['protected', 'masked']) {
        await db.schema
          .alterTable('ci_variables')
          .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      }
      await db.schema.alterTable('ci_builds').addColumn('scheduled_at', 'text').execute();
    },
  };
}
