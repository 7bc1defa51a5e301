import type { Kysely, Migration } from 'kysely';

/**
 * GitLab 10's comments on a line of a merge request's diff (`DiffNote`): the note's `type`, its
 * `position` (the version's three commits, the file's old and new path, the old and new line, as
 * JSON), the discussion it opens or answers (`discussion_id`, 40 hex digits), and who resolved that
 * discussion and when. Every column is null for the notes from before.
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of ['type', 'position', 'discussion_id', 'resolved_at']) {
        await db.schema.alterTable('notes').addColumn(column, 'text').execute();
      }
      await db.schema.alterTable('notes').addColumn('resolved_by_id', 'integer').execute();
      await db.schema.createIndex('index_notes_on_discussion_id').on('notes').column('discussion_id').execute();
    },
  };
}
