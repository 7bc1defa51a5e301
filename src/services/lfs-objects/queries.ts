import type { Db } from '../../db/index';
import { inTransaction } from '../../db/transaction';
import { notFound } from '../../errors';
import { now } from '../../lib/time';
import type { FileStore } from '../../storage/index';
import { objectKey } from './object-files';

/*
 * LFS objects as stored: their rows, their links to projects and their files. They sit below projects
 * (a fork links its source's objects) and the repository (its removal sweeps the unlinked ones);
 * `services/lfs` speaks the LFS protocol above them.
 */

/** Of `oids`, those the project links. */
export async function linkedOids(db: Db, projectId: number, oids: string[]): Promise<Set<string>> {
  if (oids.length === 0) return new Set();
  const rows = await db
    .selectFrom('lfs_objects')
    .innerJoin('lfs_objects_projects', 'lfs_objects_projects.lfs_object_id', 'lfs_objects.id')
    .select('lfs_objects.oid')
    .where('lfs_objects_projects.project_id', '=', projectId)
    .where('lfs_objects.oid', 'in', oids)
    .execute();
  return new Set(rows.map((row) => row.oid));
}

/** Records a stored object (once for all projects) and links it to the project; both idempotent, so two uploads of one object at once make one. */
export async function recordObject(db: Db, projectId: number, oid: string, size: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    // The project may have been removed while its upload streamed in.
    const project = await trx.selectFrom('projects').select('id').where('id', '=', projectId).executeTakeFirst();
    if (!project) throw notFound('Project');
    const time = now();
    await trx
      .insertInto('lfs_objects')
      .values({ oid, size, created_at: time })
      .onConflict((oc) => oc.column('oid').doNothing())
      .execute();
    const object = await trx.selectFrom('lfs_objects').select('id').where('oid', '=', oid).executeTakeFirstOrThrow();
    await trx
      .insertInto('lfs_objects_projects')
      .values({ lfs_object_id: object.id, project_id: projectId, created_at: time })
      .onConflict((oc) => oc.columns(['project_id', 'lfs_object_id']).doNothing())
      .execute();
  });
}

/** Whether any project has the object (its row exists). */
export async function objectRecorded(db: Db, oid: string): Promise<boolean> {
  return (await db.selectFrom('lfs_objects').select('id').where('oid', '=', oid).executeTakeFirst()) !== undefined;
}

/** A new fork sees its source's objects (GitLab 8.12 looked them up in the fork network's root instead). Run in the fork's transaction. */
export async function linkForkLfsObjects(trx: Db, sourceId: number, forkId: number): Promise<void> {
  await trx
    .insertInto('lfs_objects_projects')
    .columns(['lfs_object_id', 'project_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('lfs_objects_projects')
        .select(['lfs_object_id', eb.val(forkId).as('project_id'), eb.val(now()).as('created_at')])
        .where('project_id', '=', sourceId),
    )
    .execute();
}

/** The bytes of the LFS objects a project links (Forge keeps no project statistics yet: this is the figure to add to them). */
export async function projectLfsSize(db: Db, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('lfs_objects')
    .innerJoin('lfs_objects_projects', 'lfs_objects_projects.lfs_object_id', 'lfs_objects.id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('lfs_objects.size'), eb.val(0)).as('size'))
    .where('lfs_objects_projects.project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.size);
}

const SWEEP_BATCH = 500;

/**
 * Deletes the objects no project links any more (their links went with their projects, by the
 * foreign key's cascade): the row first, only while it is still unlinked, then the file. Run by
 * the `repository.remove` job that follows a project's removal. Returns how many went.
 */
export async function removeUnlinkedLfsObjects(db: Db, files: FileStore): Promise<number> {
  let removed = 0;
  for (;;) {
    const gone = await db
      .deleteFrom('lfs_objects')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('lfs_objects as o')
          .select('o.id')
          .where((inner) =>
            inner.not(inner.exists(inner.selectFrom('lfs_objects_projects as l').select('l.id').whereRef('l.lfs_object_id', '=', 'o.id'))),
          )
          .limit(SWEEP_BATCH),
      )
      .returning('oid')
      .execute();
    await Promise.all(gone.map((row) => files.delete(objectKey(row.oid))));
    removed += gone.length;
    if (gone.length < SWEEP_BATCH) return removed;
  }
}
