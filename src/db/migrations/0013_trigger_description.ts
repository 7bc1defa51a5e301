import type { Kysely, Migration } from 'kysely';

/**
 * What GitLab 9's CI resources added to 8.12's records: a trigger's `description` and `owner` (the
 * user who made it; null for triggers made before, and when that user is removed), and an
 * environment's `state` (`available`, or `stopped` until its next deployment).
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('ci_triggers').addColumn('description', 'text').execute();
      await db.schema
        .alterTable('ci_triggers')
        .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema
        .alterTable('environments')
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('available'))
        .execute();
    },
  };
}
