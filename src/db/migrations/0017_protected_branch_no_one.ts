import type { Kysely, Migration } from 'kysely';

/**
 * GitLab 10's access level 0 ("No one") for a protected branch's push and merge: a rule may now let
 * nobody push (or merge), masters and administrators included. 0 for rules from before.
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of ['nobody_can_push', 'nobody_can_merge']) {
        await db.schema
          .alterTable('protected_branches')
          .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}
