import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { HookDelivery } from '../../jobs/kinds';
import { visibilityName } from '../policy';
import type { Selectable } from 'kysely';
import type { NamespacesTable, ProjectsTable } from '../../db/schema';

// Projects fire system hooks: their record is named from the schema here, not imported from the domain above.
type Project = Selectable<ProjectsTable> & { namespace: Selectable<NamespacesTable> };

/**
 * System hook events and their payloads, as GitLab 8.12's `SystemHooksService`
 * builds them: `event_name`, then the record's `created_at` and `updated_at`,
 * then the fields of its kind. The builders are pure: callers pass plain
 * records (rows fit) and get the `data` to hand to `emitSystemEvent`.
 */
export type SystemEventName =
  | 'project_create'
  | 'project_destroy'
  | 'project_rename'
  | 'project_transfer'
  | 'user_create'
  | 'user_destroy'
  | 'user_add_to_team'
  | 'user_remove_from_team'
  | 'group_create'
  | 'group_destroy'
  | 'user_add_to_group'
  | 'user_remove_from_group'
  | 'key_create'
  | 'key_destroy';

export interface SystemEvent {
  name: SystemEventName;
  data: Record<string, unknown>;
}

interface Timestamps {
  created_at: string;
  updated_at: string;
}

export interface EventUser extends Timestamps {
  id: number;
  name: string;
  email: string;
  username: string;
}

export interface EventKey extends Timestamps {
  id: number;
  key: string;
}

export interface EventProject extends Timestamps {
  id: number;
  name: string;
  path: string;
  /** `namespace-path/project-path` */
  path_with_namespace: string;
  visibility_level: number;
}

/** A project as the system hook payloads describe it. */
export const eventProject = (project: Project): EventProject => ({
  id: project.id,
  name: project.name,
  path: project.path,
  path_with_namespace: `${project.namespace.path}/${project.path}`,
  visibility_level: project.visibility_level,
  created_at: project.created_at,
  updated_at: project.updated_at,
});

/** A project's owner: its group (no e-mail) or the user owning its namespace. */
export interface EventOwner {
  name: string;
  email?: string;
}

export interface EventGroup extends Timestamps {
  id: number;
  name: string;
  path: string;
}

export interface EventMember extends Timestamps {
  access_level: number;
}

/** GitLab formats times in hook payloads with Ruby's `xmlschema`: seconds, `Z`. */
export const xmlschema = (iso: string | null | undefined): string | null => (iso ? iso.replace(/\.\d{3}Z$/, 'Z') : null);

const timestamps = (record: Timestamps) => ({ created_at: xmlschema(record.created_at), updated_at: xmlschema(record.updated_at) });

/** A member's `human_access`. */
export function humanAccess(level: number): string {
  return { 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Master', 50: 'Owner' }[level] ?? '';
}

/** `user_create`, `user_destroy` */
export function userEventData(user: EventUser) {
  return { ...timestamps(user), name: user.name, email: user.email, user_id: user.id, username: user.username };
}

/** `key_create`, `key_destroy`; `username` only for a key that has a user (not a deploy key). */
export function keyEventData(key: EventKey, user: { username: string } | null) {
  return { ...timestamps(key), key: key.key, id: key.id, ...(user ? { username: user.username } : {}) };
}

/** `project_create`, `project_destroy`; a group owner has no e-mail and shows `""`. */
export function projectEventData(project: EventProject, owner: EventOwner) {
  return {
    ...timestamps(project),
    name: project.name,
    path: project.path,
    path_with_namespace: project.path_with_namespace,
    project_id: project.id,
    owner_name: owner.name,
    owner_email: owner.email ?? '',
    project_visibility: visibilityName(project.visibility_level),
  };
}

/** `project_rename`, `project_transfer`: the project as it is now, plus where it was. */
export function projectMovedEventData(project: EventProject, owner: EventOwner, oldPathWithNamespace: string) {
  return { ...projectEventData(project, owner), old_path_with_namespace: oldPathWithNamespace };
}

/** `user_add_to_team`, `user_remove_from_team`: times are the membership's. */
export function projectMemberEventData(member: EventMember, project: EventProject, user: EventUser) {
  return {
    ...timestamps(member),
    project_name: project.name,
    project_path: project.path,
    project_path_with_namespace: project.path_with_namespace,
    project_id: project.id,
    user_username: user.username,
    user_name: user.name,
    user_email: user.email,
    user_id: user.id,
    access_level: humanAccess(member.access_level),
    project_visibility: visibilityName(project.visibility_level),
  };
}

/** `group_create`, `group_destroy`; a group without an owner shows nulls. */
export function groupEventData(group: EventGroup, owner: { name: string; email: string } | null) {
  return {
    ...timestamps(group),
    name: group.name,
    path: group.path,
    group_id: group.id,
    owner_name: owner?.name ?? null,
    owner_email: owner?.email ?? null,
  };
}

/** `user_add_to_group`, `user_remove_from_group`: times are the membership's. */
export function groupMemberEventData(member: EventMember, group: EventGroup, user: EventUser) {
  return {
    ...timestamps(member),
    group_name: group.name,
    group_path: group.path,
    group_id: group.id,
    user_username: user.username,
    user_name: user.name,
    user_email: user.email,
    user_id: user.id,
    group_access: humanAccess(member.access_level),
  };
}

/** The payload GitLab sends when an administrator tests a system hook. */
export const TEST_EVENT = {
  event_name: 'project_create',
  name: 'Ruby',
  path: 'ruby',
  project_id: 1,
  owner_name: 'Someone',
  owner_email: 'example@gitlabhq.com',
} as const;

/**
 * Queues the delivery of one system event to every system hook, inside the
 * caller's transaction: the event goes out if and only if the change commits.
 */
export function emitSystemEvent(ctx: ServiceContext, executor: Db, name: SystemEventName, data: Record<string, unknown>): Promise<void> {
  return emitSystemEvents(ctx, executor, [{ name, data }]);
}

/** Several events at once (a user's keys and the user): one read of the hooks, one insert. */
export async function emitSystemEvents(ctx: ServiceContext, executor: Db, events: SystemEvent[]): Promise<void> {
  if (events.length === 0) return;
  // Every system hook gets every event, whatever its flags (GitLab's `SystemHook.all`).
  const hooks = await executor.selectFrom('hooks').select('id').where('project_id', 'is', null).orderBy('id').execute();
  const deliveries: HookDelivery[] = events.flatMap((event) =>
    hooks.map((hook) => ({ hookId: hook.id, event: 'System Hook', payload: { event_name: event.name, ...event.data } })),
  );
  await ctx.jobs.enqueueMany('hook.deliver', deliveries, executor);
}

/** System hook flags that choose push deliveries (GitLab's `SystemHook.push_hooks` and `tag_push_hooks`). */
export type SystemPushFlag = 'push_events' | 'tag_push_events';

/**
 * Queues payloads that carry their own `event_name` (push data) to the system hooks that have
 * `flag` set: one read of the hooks, one insert, inside the caller's transaction.
 */
export async function emitFlaggedSystemEvents(ctx: ServiceContext, executor: Db, flag: SystemPushFlag, payloads: unknown[]): Promise<void> {
  if (payloads.length === 0) return;
  const hooks = await executor.selectFrom('hooks').select('id').where('project_id', 'is', null).where(flag, '=', 1).orderBy('id').execute();
  const deliveries: HookDelivery[] = payloads.flatMap((payload) =>
    hooks.map((hook) => ({ hookId: hook.id, event: 'System Hook', payload })),
  );
  await ctx.jobs.enqueueMany('hook.deliver', deliveries, executor);
}
