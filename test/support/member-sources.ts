import { startApp, type TestApp } from './app';
import { HookListener, type ReceivedHook } from './hook-listener';
import type { ApiClient } from './client';
import { createGroupRow, grantGroupRole, grantProjectRole } from './roles';

export type SourceKind = 'projects' | 'groups';
export const SOURCE_KINDS: SourceKind[] = ['projects', 'groups'];

export interface Person {
  user: any;
  client: ApiClient;
}

/** GitLab's members_spec cast: a master (project) / owner (group), a developer, an access requester, a stranger. */
export interface Cast {
  master: Person;
  developer: Person;
  requester: Person;
  stranger: Person;
}

export interface Source {
  kind: SourceKind;
  /** The numeric id (`members.source_id`). */
  id: number;
  /** `/projects/:id` or `/groups/:id` */
  base: string;
  /** The project's `namespace/path` or the group's path. */
  fullPath: string;
}

let sources = 0;

/** The fields of GitLab 8.12's Member entity, sorted. */
export const MEMBER_FIELDS = ['access_level', 'avatar_url', 'created_at', 'expires_at', 'id', 'name', 'state', 'username', 'web_url'];

/** GitLab's 404 for a source the caller may not see. */
export const notFoundSource = (source: Source) => ({
  message: source.kind === 'projects' ? '404 Project Not Found' : '404 Group Not Found',
});

/** Matches the system hook announcing that `userId` joined or left `source` (`user_add_to_team`, `user_remove_from_group` …). */
export function memberHookMatch(source: Source, action: 'add' | 'remove', userId: number): (hook: ReceivedHook) => boolean {
  const name = `user_${action}_${action === 'add' ? 'to' : 'from'}_${source.kind === 'projects' ? 'team' : 'group'}`;
  const key = source.kind === 'projects' ? 'project_id' : 'group_id';
  return (hook) => hook.body?.event_name === name && hook.body.user_id === userId && hook.body[key] === source.id;
}

export interface MembersWorld {
  app: TestApp;
  cast: Cast;
  /** Receives every system hook of `app`. */
  listener: HookListener;
  close(): Promise<void>;
}

/** The members tests' set-up: a server, the cast, and a system hook pointing at a listener. */
export async function startMembersWorld(): Promise<MembersWorld> {
  const app = await startApp();
  const [cast, listener] = await Promise.all([createCast(app), HookListener.start()]);
  await app.root.post('/hooks', { url: listener.url });
  return { app, cast, listener, close: async () => void (await Promise.all([app.close(), listener.close()])) };
}

export async function createCast(app: TestApp): Promise<Cast> {
  const [master, developer, requester, stranger] = await Promise.all([
    // Every test makes a project of the master's: lift the default limit.
    app.createUser({ projects_limit: 10000 }),
    app.createUser(),
    app.createUser(),
    app.createUser(),
  ]);
  return { master, developer, requester, stranger };
}

/** A fresh project (of the master's) or group (owned by the master), public unless told. */
export async function createSource(app: TestApp, kind: SourceKind, master: Person, visibilityLevel = 20): Promise<Source> {
  const n = ++sources;
  if (kind === 'projects') {
    const created = await master.client.post('/projects', { name: `members-${n}`, visibility_level: visibilityLevel });
    if (created.status !== 201) throw new Error(`project creation failed: ${created.status} ${JSON.stringify(created.body)}`);
    return { kind, id: created.body.id, base: `/projects/${created.body.id}`, fullPath: created.body.path_with_namespace };
  }
  const path = `members-group-${n}`;
  const id = await createGroupRow(app, path, master.user.id, visibilityLevel);
  return { kind, id, base: `/groups/${path}`, fullPath: path };
}

/** Gives a user a membership directly in the database (the members API is what is under test). */
export function grant(app: TestApp, source: Source, userId: number, accessLevel: number): Promise<void> {
  return source.kind === 'projects'
    ? grantProjectRole(app, source.id, userId, accessLevel)
    : grantGroupRole(app, source.id, userId, accessLevel);
}

/** The members_spec setting: master/owner, developer member, pending access request. */
export async function populatedSource(app: TestApp, kind: SourceKind, cast: Cast, visibilityLevel = 20): Promise<Source> {
  const source = await createSource(app, kind, cast.master, visibilityLevel);
  await grant(app, source, cast.developer.user.id, 30);
  await requestAccessInDb(app, source, cast.requester.user.id);
  return source;
}

/** An access request written directly (for private sources, where the requester cannot ask through the API). */
export async function requestAccessInDb(app: TestApp, source: Source, userId: number): Promise<void> {
  const time = new Date().toISOString();
  await app.ctx.db
    .insertInto('members')
    .values({
      source_type: source.kind === 'projects' ? 'Project' : 'Namespace',
      source_id: source.id,
      user_id: userId,
      access_level: 30,
      notification_level: 3,
      requested_at: time,
      created_at: time,
      updated_at: time,
    })
    .execute();
}

/** Membership and request rows of a source, straight from the database. */
export function rowsOf(app: TestApp, source: Source) {
  return app.ctx.db
    .selectFrom('members')
    .selectAll()
    .where('source_type', '=', source.kind === 'projects' ? 'Project' : 'Namespace')
    .where('source_id', '=', source.id)
    .orderBy('id')
    .execute();
}

export async function setRequestAccess(app: TestApp, source: Source, enabled: boolean): Promise<void> {
  const table = source.kind === 'projects' ? 'projects' : 'namespaces';
  await app.ctx.db
    .updateTable(table)
    .set({ request_access_enabled: enabled ? 1 : 0 })
    .where('id', '=', source.id)
    .execute();
}
