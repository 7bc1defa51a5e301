import type { TestApp } from './app';

const now = () => new Date().toISOString();

/** Gives a user a role on a project directly in the database (the members API is tested on its own). */
export async function grantProjectRole(app: TestApp, projectId: number, userId: number, accessLevel: number): Promise<void> {
  await app.ctx.db
    .insertInto('members')
    .values({
      source_type: 'Project',
      source_id: projectId,
      user_id: userId,
      access_level: accessLevel,
      notification_level: 3,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
}

/** Creates a group owned by `ownerId` directly in the database. */
export async function createGroupRow(app: TestApp, path: string, ownerId: number, visibilityLevel = 20): Promise<number> {
  const db = app.ctx.db;
  const group = await db
    .insertInto('namespaces')
    .values({
      name: path,
      path,
      kind: 'group',
      owner_id: null,
      description: '',
      visibility_level: visibilityLevel,
      request_access_enabled: 1,
      share_with_group_lock: 0,
      lfs_enabled: 1,
      created_at: now(),
      updated_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await grantGroupRole(app, group.id, ownerId, 50);
  return group.id;
}

export async function grantGroupRole(app: TestApp, groupId: number, userId: number, accessLevel: number): Promise<void> {
  await app.ctx.db
    .insertInto('members')
    .values({
      source_type: 'Namespace',
      source_id: groupId,
      user_id: userId,
      access_level: accessLevel,
      notification_level: 3,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
}
