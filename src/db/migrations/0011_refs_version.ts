import type { Kysely, Migration } from 'kysely';

/**
 * `projects.refs_version`: bumped by every writer after it moved a branch or a tag, so that any
 * Forge process keeping a repository's refs knows, from the project row it reads anyway, whether
 * what it keeps is still current.
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('projects')
        .addColumn('refs_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
