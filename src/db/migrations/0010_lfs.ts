import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { timestamp, withId } from '../columns';

/**
 * Git LFS objects (GitLab 8.12's `lfs_objects` and `lfs_objects_projects`). An object is stored once
 * by its SHA-256 and may belong to many projects (forks link their source's objects); the file
 * lives in the file store, and goes when no project links it any more.
 */
export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('lfs_objects'), dialect)
        // The SHA-256 of the content, 64 lower-case hex digits.
        .addColumn('oid', 'text', (c) => c.notNull().unique())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', timestamp)
        .execute();

      await withId(db.schema.createTable('lfs_objects_projects'), dialect)
        .addColumn('lfs_object_id', 'integer', (c) => c.notNull().references('lfs_objects.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('created_at', 'text', timestamp)
        .execute();
      await db.schema
        .createIndex('lfs_objects_projects_project_object')
        .on('lfs_objects_projects')
        .columns(['project_id', 'lfs_object_id'])
        .unique()
        .execute();
      // Finding objects no project links any more, after a project's removal.
      await db.schema.createIndex('lfs_objects_projects_object').on('lfs_objects_projects').column('lfs_object_id').execute();
    },
  };
}
