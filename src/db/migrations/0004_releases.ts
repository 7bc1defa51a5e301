import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { timestamp, withId } from '../columns';

export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      // Release notes of a tag (the tag itself lives in git).
      await withId(db.schema.createTable('releases'), dialect)
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('tag', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', timestamp)
        .addColumn('updated_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('releases_project_tag').on('releases').columns(['project_id', 'tag']).unique().execute();
    },
  };
}
