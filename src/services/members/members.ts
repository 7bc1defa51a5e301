import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import { mayRemoveMember, type Caller, type GroupStanding, type ProjectStanding } from '../policy';
import type { Project } from '../projects/types';
import type { Group } from '../groups/groups';
import { conflict, forbidden, notFound, notGiven, recordNotFound, validationFailed } from '../../errors';
import { now } from '../../lib/time';
import { announceJoin, announceLeave } from './announce';
import { findRow, isLastOwner, pageOfRows, withUsers } from './queries';
import { accessLevelFor, expiryDate, isBlank, type LooseParam } from './rules';
import { toInteger } from '../../lib/to-integer';
import { groupSource, personalOwnerId, projectSource, sourceOfRow, type SourceFinders } from './sources';
import type { MemberSource, MemberWithUser } from './types';
import { inTransaction } from '../../db/transaction';

export interface NewMember {
  user_id?: LooseParam;
  access_level?: LooseParam;
  expires_at?: LooseParam;
}

export interface MemberChanges {
  access_level?: LooseParam;
  expires_at?: LooseParam;
}

/** Members of projects and groups (GitLab 8.12's `members.rb`, project and group flavours). */
export class MembersService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly finders: SourceFinders,
    private readonly events: EventsService,
  ) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** The membership source of a project or group the door's guard found readable. */
  projectSource(project: Project, standing: ProjectStanding): MemberSource {
    return projectSource(project, standing);
  }

  groupSource(group: Group, standing: GroupStanding): MemberSource {
    return groupSource(group, standing);
  }

  /** Members only: access requesters are not listed. `inherited` adds a project's group members (`/members/all`). */
  async list(
    source: MemberSource,
    options: { query?: string; offset: number; limit: number; inherited?: boolean },
  ): Promise<{ members: MemberWithUser[]; total: number }> {
    const { rows, total } = await pageOfRows(this.db, source, 'member', {
      inherited: options.inherited,
      search: options.query,
      offset: options.offset,
      limit: options.limit,
    });
    return { members: await withUsers(this.db, rows), total };
  }

  async get(source: MemberSource, userId: number): Promise<MemberWithUser> {
    const row = await findRow(this.db, source, 'member', userId);
    if (!row) throw recordNotFound();
    const [member] = await withUsers(this.db, [row]);
    return member!;
  }

  /**
   * Adds a member. A pending access request of the user is discarded first. Adding an
   * existing member answers that member unchanged on a project, and 409 on a group;
   * `existingIsConflict` makes it 409 on both (GitLab 9+).
   */
  async add(
    source: MemberSource,
    caller: Caller,
    params: NewMember,
    options: { existingIsConflict?: boolean } = {},
  ): Promise<MemberWithUser> {
    if (!source.callerAdmins) throw forbidden();
    if (isBlank(params.user_id)) throw notGiven('user_id');
    if (isBlank(params.access_level)) throw notGiven('access_level');
    const userId = toInteger(params.user_id);
    const expiresAt = expiryDate(params.expires_at);
    return inTransaction(this.db, async (trx) => {
      const existing = userId === undefined ? undefined : await findRow(trx, source, 'any', userId);
      if (existing && existing.requested_at === null) {
        if (options.existingIsConflict) throw conflict('Member already exists');
        return this.existingMember(trx, source, userId!);
      }
      const accessLevel = accessLevelFor(source, params.access_level);
      const user = userId === undefined ? undefined : await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
      if (!user) throw validationFailed({ user: ["can't be blank"] });
      if (existing) await trx.deleteFrom('members').where('id', '=', existing.id).execute();
      const time = now();
      const member = await trx
        .insertInto('members')
        .values({
          source_type: source.type,
          source_id: source.id,
          user_id: user.id,
          access_level: accessLevel,
          notification_level: 3,
          expires_at: expiresAt,
          requested_at: null,
          created_by_id: caller.id,
          created_at: time,
          updated_at: time,
        })
        // A concurrent add of the same user won: answer as for an existing member.
        .onConflict((oc) => oc.columns(['source_type', 'source_id', 'user_id']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!member) {
        if (options.existingIsConflict) throw conflict('Member already exists');
        return this.existingMember(trx, source, user.id);
      }
      const added = { member, user };
      await announceJoin(this.ctx, this.events, trx, source, added);
      return added;
    });
  }

  private async existingMember(db: Db, source: MemberSource, userId: number): Promise<MemberWithUser> {
    if (source.type === 'Namespace') throw conflict('Member already exists');
    const row = await findRow(db, source, 'member', userId);
    if (!row) throw conflict('Member already exists');
    return (await withUsers(db, [row]))[0]!;
  }

  /** Changes a member's access level (required) and expiry date (when given). */
  async update(source: MemberSource, userId: number, changes: MemberChanges): Promise<MemberWithUser> {
    if (!source.callerAdmins) throw forbidden();
    if (isBlank(changes.access_level)) throw notGiven('access_level');
    const row = await findRow(this.db, source, 'member', userId);
    if (!row) throw recordNotFound();
    const accessLevel = accessLevelFor(source, changes.access_level);
    // Blank values never clear a field (GitLab's `attributes_for_keys`).
    const expiresAt = isBlank(changes.expires_at) ? row.expires_at : expiryDate(changes.expires_at);
    return inTransaction(this.db, async (trx) => {
      if (accessLevel !== row.access_level && (await isLastOwner(trx, this.ctx.dialect, source, row))) throw forbidden();
      const member = await trx
        .updateTable('members')
        .set({ access_level: accessLevel, expires_at: expiresAt, updated_at: now() })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return (await withUsers(trx, [member]))[0]!;
    });
  }

  /**
   * Removes a member: a master/owner may remove anybody but a personal project's owner
   * and a group's last owner; any member may leave on their own, with the same limits.
   * A project answers `null` for a user who is not a member (GitLab's "Access revoked"),
   * a group `404 Member: user_id:<id> Not Found`.
   */
  async remove(source: MemberSource, caller: Caller, userId: number): Promise<MemberWithUser | null> {
    const row = await findRow(this.db, source, 'member', userId);
    if (!row) {
      if (source.type === 'Namespace') throw notFound(`Member: user_id:${userId}`);
      // As in 8.12, whoever can read the project gets this answer: there is nothing to remove.
      return null;
    }
    if (row.user_id === personalOwnerId(source)) throw forbidden();
    if (!mayRemoveMember(source.callerAdmins, caller, row)) throw forbidden();
    return inTransaction(this.db, async (trx) => {
      if (await isLastOwner(trx, this.ctx.dialect, source, row)) throw forbidden();
      // The request that deletes the row announces it: a concurrent removal (or the user's own
      // deletion) that took it first leaves nothing to remove.
      const deleted = await trx.deleteFrom('members').where('id', '=', row.id).returningAll().execute();
      const [removed] = await withUsers(trx, deleted);
      if (!removed) return null;
      await announceLeave(this.ctx, this.events, trx, source, removed);
      return removed;
    });
  }

  /**
   * Removes the memberships whose `expires_at` day has come, as GitLab's daily worker did, each
   * announced as a removal (`left` event, system hook). Several processes may sweep at once: the
   * one whose delete takes the row announces it.
   */
  async removeExpired(today = now().slice(0, 10)): Promise<number> {
    const expired = await this.db
      .selectFrom('members')
      .selectAll()
      .where('requested_at', 'is', null)
      .where('expires_at', '<=', today)
      .orderBy('id')
      .execute();
    let removed = 0;
    for (const row of expired) {
      const source = await sourceOfRow(this.finders, row);
      if (!source) continue;
      removed += await inTransaction(this.db, async (trx) => {
        const deleted = await trx.deleteFrom('members').where('id', '=', row.id).returningAll().execute();
        if (deleted.length === 0) return 0;
        const [left] = await withUsers(trx, deleted);
        await announceLeave(this.ctx, this.events, trx, source, left!);
        return 1;
      });
    }
    return removed;
  }
}
