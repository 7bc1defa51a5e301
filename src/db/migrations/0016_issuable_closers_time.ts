import type { Kysely, Migration } from 'kysely';

/**
 * What GitLab 10's issues and merge requests show beyond 8.12's records: who closed an issue or a
 * merge request and who merged one (`closed_by`, `merged_by`; null for rows from before, and when
 * that user is removed), and time tracking's estimate and total time spent, in seconds (the total
 * is the sum of every `/spend`, kept as it moves).
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of ['issues', 'merge_requests']) {
        await db.schema
          .alterTable(table)
          .addColumn('closed_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .execute();
        await db.schema
          .alterTable(table)
          .addColumn('time_estimate', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .alterTable(table)
          .addColumn('total_time_spent', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      }
      await db.schema
        .alterTable('merge_requests')
        .addColumn('merged_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
    },
  };
}
