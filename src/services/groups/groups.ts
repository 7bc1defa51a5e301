import type { Db } from '../../db/index';
import { preparedPerHandle, preparedShapes } from '../../db/prepared';
import type { ServiceContext } from '../context';
import type { User } from '../users/users';
import type { SettingsReader } from '../settings-reader';
import type { ProjectsService } from '../projects/projects';
import type { Project } from '../projects/types';
import { Validation, failedTo, forbidden, notFound, validationFailed } from '../../errors';
import { containsText } from '../../db/search';
import { now } from '../../lib/time';
import { sql } from 'kysely';
import {
  INTERNAL,
  OWNER,
  PUBLIC,
  canOnGroup,
  mayUseRestrictedVisibility,
  readsEverything,
  readsGroupItself,
  visibilityName,
  type Caller,
  type GroupAbility,
  type GroupStanding,
} from '../policy';
import { visibleTo } from '../projects/queries';
import type { NamespaceRow } from '../projects/types';
import { isUniqueViolation } from '../../db/errors';
import { emitSystemEvents, groupEventData, groupMemberEventData, type SystemEvent } from '../hooks/system-events';
import { groupAccessOf, memberGroupIds } from '../namespaces/group-membership';
import { checkGroupDescription, checkGroupName, checkGroupPath, checkGroupVisibility } from './rules';
import { inTransaction } from '../../db/transaction';
import { recordIdOf } from '../../lib/record-id';

export type Group = NamespaceRow;

export interface GroupAttributes {
  name?: string;
  path?: string;
  description?: string;
  visibility_level?: number;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
}

export interface GroupListOptions {
  search?: string;
  owned?: boolean;
  allAvailable?: boolean;
  orderBy?: 'id' | 'name' | 'path';
  sort?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** A group's own projects and the projects shared with it, as far as the caller may see them. */
export interface GroupProjects {
  projects: Project[];
  sharedProjects: Project[];
}

const FLAGS = ['lfs_enabled', 'request_access_enabled'] as const;

// Every group route looks its group up, and a group's detail lists its projects: built and compiled
// once (the projects' per kind of caller, whom `visibleTo` tells apart).
const groupByLowerPath = preparedPerHandle((db: Db, path: string) =>
  db
    .selectFrom('namespaces')
    .selectAll()
    .where('kind', '=', 'group')
    .where((eb) => eb(eb.fn('lower', ['path']), '=', path)),
);
const groupByLowerPathOrId = preparedPerHandle((db: Db, path: string, id: number) =>
  db
    .selectFrom('namespaces')
    .selectAll()
    .where('kind', '=', 'group')
    .where((eb) => eb.or([eb(eb.fn('lower', ['path']), '=', path), eb('id', '=', id)])),
);

type GroupProjectValues = { callerId: number; groupId: number };
const callerKind = (caller: Caller | null) => (caller ? `${readsEverything(caller)}|${caller.external === 1}` : 'anonymous');
const viewer = (caller: Caller | null, values: GroupProjectValues): Caller | null =>
  caller && { id: values.callerId, admin: caller.admin, external: caller.external };
const visibleProjects = (db: Db, caller: Caller | null, values: GroupProjectValues) =>
  db
    .selectFrom('projects')
    .selectAll('projects')
    .where('projects.pending_delete', '=', 0)
    .where((eb) => visibleTo(eb, viewer(caller, values)));

const aVisibleProject = preparedShapes(callerKind, (db: Db, caller: Caller | null, values: GroupProjectValues) =>
  visibleProjects(db, caller, values).where('projects.namespace_id', '=', values.groupId).clearSelect().select('projects.id').limit(1),
);
const ownProjects = preparedShapes(callerKind, (db: Db, caller: Caller | null, values: GroupProjectValues) =>
  visibleProjects(db, caller, values).where('projects.namespace_id', '=', values.groupId).orderBy('projects.id'),
);
const sharedProjects = preparedShapes(callerKind, (db: Db, caller: Caller | null, values: GroupProjectValues) =>
  visibleProjects(db, caller, values)
    .where('projects.id', 'in', (eb) => eb.selectFrom('project_group_links').select('project_id').where('group_id', '=', values.groupId))
    .orderBy('projects.id'),
);

/** Groups are namespaces of kind `group`; their members are `members` rows with source type `Namespace`. */
export class GroupsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsReader,
    private readonly projects: ProjectsService,
  ) {}

  private get db(): Db {
    return this.ctx.db;
  }

  // ---- look-up and permission ----

  /** By path first, then by numeric id, as GitLab 8.12 resolves `:id` (both in one query). */
  async find(idOrPath: string | number): Promise<Group | undefined> {
    const path = String(idOrPath).toLowerCase();
    // A number past an id's range can only be a path.
    const id = recordIdOf(path);
    if (id === undefined) return (await groupByLowerPath(this.db, path))[0];
    const found = await groupByLowerPathOrId(this.db, path, id);
    return found.find((group) => group.path.toLowerCase() === path) ?? found[0];
  }

  /** The group if the caller may read it; `404 Group Not Found` otherwise. */
  async findReadable(idOrPath: string | number, caller: Caller | null): Promise<{ group: Group; standing: GroupStanding }> {
    const group = await this.find(idOrPath);
    if (!group) throw notFound('Group');
    const standing = await this.standing(group, caller);
    if (!canOnGroup(standing, 'read_group')) throw notFound('Group');
    return { group, standing };
  }

  async standing(group: Group, caller: Caller | null): Promise<GroupStanding> {
    const memberAccess = caller ? await groupAccessOf(this.db, group.id, caller.id) : null;
    const base = { caller, visibilityLevel: group.visibility_level, memberAccess, seesAProject: false };
    if (readsGroupItself(caller, group.visibility_level, memberAccess !== null)) return base;
    // A user who can see one of its projects can see the group.
    const [project] = await aVisibleProject(this.db, caller, { callerId: caller?.id ?? 0, groupId: group.id });
    return { ...base, seesAProject: project !== undefined };
  }

  authorize(standing: GroupStanding, ability: GroupAbility): void {
    if (!canOnGroup(standing, ability)) throw forbidden();
  }

  // ---- lists ----

  /**
   * Administrators see every group, others the groups they are members of; `search` matches name or
   * path. `allAvailable` widens a non-administrator's list to every group they may read through its
   * visibility too (anonymous callers: public groups); `owned` narrows it to groups the caller owns.
   */
  async list(caller: Caller | null, options: GroupListOptions): Promise<{ groups: Group[]; total: number }> {
    let query = this.db.selectFrom('namespaces').where('kind', '=', 'group');
    const callerId = caller?.id ?? 0;
    if (!readsEverything(caller)) {
      if (options.allAvailable || caller === null) {
        const openLevel = caller === null || caller.external === 1 ? PUBLIC : INTERNAL;
        query = query.where((eb) => eb.or([eb('visibility_level', '>=', openLevel), eb('id', 'in', memberGroupIds(this.db, callerId))]));
      } else {
        query = query.where('id', 'in', memberGroupIds(this.db, callerId));
      }
    }
    if (options.owned) query = query.where('id', 'in', memberGroupIds(this.db, callerId).where('access_level', '>=', OWNER));
    const search = options.search;
    if (search) query = query.where((eb) => eb.or([containsText('name', search), containsText('path', search)]));
    const orderBy = options.orderBy ?? 'id';
    const direction = options.sort ?? 'asc';
    const [groups, count] = await Promise.all([
      query
        .selectAll()
        // Names and paths sort ignoring case, the same on both databases; the id breaks ties.
        .$if(orderBy !== 'id', (q) => q.orderBy(sql`lower(${sql.ref(orderBy)})`, direction))
        .orderBy('id', direction)
        .offset(options.offset)
        .limit(options.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { groups, total: Number(count.total) };
  }

  /**
   * The projects a group's detail shows. GitLab 8.12 listed every project of the group
   * to anyone who could read the group; we show only those the caller may read
   * (members and administrators read them all), so a public group never leaks a private project.
   */
  async projectsOf(group: Group, caller: Caller | null): Promise<GroupProjects> {
    const values = { callerId: caller?.id ?? 0, groupId: group.id };
    const [own, shared] = await Promise.all([ownProjects(this.db, caller, values), sharedProjects(this.db, caller, values)]);
    const all = await this.projects.attachNamespaces([...own, ...shared]);
    return { projects: all.slice(0, own.length), sharedProjects: all.slice(own.length) };
  }

  // ---- create, change, remove ----

  /** POST /groups: for users allowed to create groups (administrators are not exempt); the creator becomes owner. */
  async create(caller: User, attributes: GroupAttributes & { name: string; path: string }): Promise<Group> {
    if (caller.can_create_group !== 1) throw forbidden();
    const settings = await this.settings.get();
    const visibility = attributes.visibility_level ?? settings.default_group_visibility;
    const validation = await this.validate(caller, settings.restricted_visibility_levels, undefined, {
      name: attributes.name,
      path: attributes.path,
      description: attributes.description,
      visibility,
    });
    // 8.12's POST /groups renders its errors hash inside a string (PUT renders them as fields).
    if (!validation.ok) throw failedTo('save group', validation.messages);
    const time = now();
    try {
      return await inTransaction(this.db, async (trx) => {
        const group = await trx
          .insertInto('namespaces')
          .values({
            name: attributes.name,
            path: attributes.path,
            kind: 'group',
            owner_id: null,
            description: attributes.description ?? '',
            visibility_level: visibility,
            lfs_enabled: 1,
            request_access_enabled: 1,
            share_with_group_lock: 0,
            ...this.flags(attributes),
            created_at: time,
            updated_at: time,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        const member = await trx
          .insertInto('members')
          .values({
            source_type: 'Namespace',
            source_id: group.id,
            user_id: caller.id,
            access_level: OWNER,
            notification_level: 3,
            created_by_id: caller.id,
            created_at: time,
            updated_at: time,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        // As GitLab 8.12: the group is saved (group_create, no single owner), then the creator is added (user_add_to_group).
        await emitSystemEvents(this.ctx, trx, [
          { name: 'group_create', data: groupEventData(group, null) },
          { name: 'user_add_to_group', data: groupMemberEventData(member, group, caller) },
        ]);
        return group;
      });
    } catch (error) {
      // Two creations racing for one path: the unique index decides, the loser gets the validation answer.
      if (isUniqueViolation(error)) throw failedTo('save group', { path: ['has already been taken'] });
      throw error;
    }
  }

  /** PUT /groups/:id: owners and administrators. */
  async update(group: Group, standing: GroupStanding, caller: Caller, attributes: GroupAttributes): Promise<Group> {
    this.authorize(standing, 'admin_group');
    const settings = await this.settings.get();
    const visibility = attributes.visibility_level !== group.visibility_level ? attributes.visibility_level : undefined;
    const validation = await this.validate(caller, settings.restricted_visibility_levels, group, {
      name: attributes.name,
      path: attributes.path,
      description: attributes.description,
      visibility,
    });
    validation.throwIfInvalid();
    const changes: Partial<Group> = { ...this.flags(attributes), updated_at: now() };
    if (attributes.name !== undefined) changes.name = attributes.name;
    if (attributes.path !== undefined) changes.path = attributes.path;
    if (attributes.description !== undefined) changes.description = attributes.description;
    if (visibility !== undefined) changes.visibility_level = visibility;
    try {
      return await this.db.updateTable('namespaces').set(changes).where('id', '=', group.id).returningAll().executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw validationFailed({ path: ['has already been taken'] });
      throw error;
    }
  }

  /**
   * DELETE /groups/:id: owners and administrators. One transaction removes the group's
   * projects (each through `ProjectsService.destroy`, which queues its repository's
   * removal and its `project_destroy`), its members and shares, then the group.
   */
  async remove(group: Group, standing: GroupStanding): Promise<Group> {
    this.authorize(standing, 'admin_group');
    await inTransaction(this.db, async (trx) => {
      const projects = await trx.selectFrom('projects').selectAll().where('namespace_id', '=', group.id).orderBy('id').execute();
      // One destroy per project: it owns the per-project clean-up and events.
      for (const project of projects) await this.projects.destroy(trx, { ...project, namespace: group });
      const members = await trx
        .selectFrom('members')
        .innerJoin('users', 'users.id', 'members.user_id')
        .select([
          'users.id',
          'users.name',
          'users.email',
          'users.username',
          'users.created_at as user_created_at',
          'users.updated_at as user_updated_at',
          'members.access_level',
          'members.created_at',
          'members.updated_at',
        ])
        .where('members.source_type', '=', 'Namespace')
        .where('members.source_id', '=', group.id)
        .where('members.requested_at', 'is', null)
        .orderBy('members.id')
        .execute();
      await trx.deleteFrom('members').where('source_type', '=', 'Namespace').where('source_id', '=', group.id).execute();
      await trx.deleteFrom('project_group_links').where('group_id', '=', group.id).execute();
      await trx.deleteFrom('namespaces').where('id', '=', group.id).execute();
      // As GitLab 8.12: members go first (user_remove_from_group each), then the group (group_destroy).
      const events: SystemEvent[] = members.map((member) => ({
        name: 'user_remove_from_group',
        data: groupMemberEventData(member, group, { ...member, created_at: member.user_created_at, updated_at: member.user_updated_at }),
      }));
      events.push({ name: 'group_destroy', data: groupEventData(group, null) });
      await emitSystemEvents(this.ctx, trx, events);
    });
    return group;
  }

  private flags(attributes: GroupAttributes): Partial<Pick<Group, (typeof FLAGS)[number]>> {
    return Object.fromEntries(FLAGS.filter((flag) => attributes[flag] !== undefined).map((flag) => [flag, attributes[flag] ? 1 : 0]));
  }

  /** GitLab's namespace validations, field by field in its order; `self` is the group being changed. */
  private async validate(
    caller: Caller,
    restricted: number[],
    self: Group | undefined,
    changes: { name?: string; path?: string; description?: string; visibility?: number },
  ): Promise<Validation> {
    const validation = new Validation();
    const taken = await this.taken(changes.name, changes.path, self?.id);
    if (changes.name !== undefined) {
      if (taken.name) validation.add('name', 'has already been taken');
      checkGroupName(validation, changes.name);
    }
    checkGroupDescription(validation, changes.description);
    if (changes.path !== undefined) {
      if (taken.path) validation.add('path', 'has already been taken');
      checkGroupPath(validation, changes.path);
    }
    if (changes.visibility !== undefined) {
      checkGroupVisibility(validation, changes.visibility, restricted, mayUseRestrictedVisibility(caller));
      if (self && validation.ok && (await this.hasProjectsAbove(self, changes.visibility))) {
        validation.add(
          'visibility_level',
          `${visibilityName(changes.visibility)} is not allowed since there are projects with higher visibility.`,
        );
      }
    }
    return validation;
  }

  /** Names are unique among all namespaces; paths too, ignoring case (users' namespaces included). */
  private async taken(
    name: string | undefined,
    path: string | undefined,
    selfId: number | undefined,
  ): Promise<{ name: boolean; path: boolean }> {
    if (name === undefined && path === undefined) return { name: false, path: false };
    const clashes = await this.db
      .selectFrom('namespaces')
      .select(['name', 'path'])
      .where('id', '!=', selfId ?? -1)
      .where((eb) =>
        eb.or([
          ...(name !== undefined ? [eb('name', '=', name)] : []),
          ...(path !== undefined ? [eb(eb.fn('lower', ['path']), '=', path.toLowerCase())] : []),
        ]),
      )
      .execute();
    return {
      name: name !== undefined && clashes.some((clash) => clash.name === name),
      path: path !== undefined && clashes.some((clash) => clash.path.toLowerCase() === path.toLowerCase()),
    };
  }

  /** A group may not become less visible than one of its projects. */
  private async hasProjectsAbove(group: Group, level: number): Promise<boolean> {
    const project = await this.db
      .selectFrom('projects')
      .select('id')
      .where('namespace_id', '=', group.id)
      .where('visibility_level', '>', level)
      .limit(1)
      .executeTakeFirst();
    return project !== undefined;
  }
}
