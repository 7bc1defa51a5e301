import type { Kysely, Migration } from 'kysely';

/**
 * A merge request's Changes tab reads its line comments only (`type = 'DiffNote'`), not the
 * thousands of other notes it may hold: an index on the noteable and the type finds them alone.
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('notes_noteable_type').on('notes').columns(['noteable_type', 'noteable_id', 'type']).execute();
    },
  };
}
