import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import { DEVELOPER, mayRemoveMember, type Caller } from '../policy';
import { forbidden, recordNotFound, validationFailed } from '../../errors';
import { now } from '../../lib/time';
import { announceJoin } from './announce';
import { findRow, pageOfRows, withUsers } from './queries';
import { accessLevelFor, isBlank, type LooseParam } from './rules';
import type { MemberSource, MemberWithUser } from './types';
import { inTransaction } from '../../db/transaction';

/**
 * Access requests (GitLab 8.11+ `access_requests.rb`): a `members` row with `requested_at`
 * set, at developer level, until a master/owner approves it (it becomes a membership)
 * or it is withdrawn or denied (it is deleted).
 */
export class AccessRequestsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly events: EventsService,
  ) {}

  private get db(): Db {
    return this.ctx.db;
  }

  async list(source: MemberSource, page: { offset: number; limit: number }): Promise<{ requests: MemberWithUser[]; total: number }> {
    if (!source.callerAdmins) throw forbidden();
    const { rows, total } = await pageOfRows(this.db, source, 'request', page);
    return { requests: await withUsers(this.db, rows), total };
  }

  /** Whether the caller's own request to join is pending (a page offers to withdraw it). */
  async pending(source: MemberSource, caller: Caller): Promise<boolean> {
    return (await findRow(this.db, source, 'request', caller.id)) !== undefined;
  }

  /** The caller asks to join; members and earlier requesters are refused as GitLab's validation does. */
  async request(source: MemberSource, caller: Caller): Promise<MemberWithUser> {
    if (!source.requestAccessEnabled) throw forbidden();
    const time = now();
    const row = await this.db
      .insertInto('members')
      .values({
        source_type: source.type,
        source_id: source.id,
        user_id: caller.id,
        access_level: DEVELOPER,
        notification_level: 3,
        requested_at: time,
        created_at: time,
        updated_at: time,
      })
      .onConflict((oc) => oc.columns(['source_type', 'source_id', 'user_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw validationFailed({ user_id: ['already exists in source'] });
    return (await withUsers(this.db, [row]))[0]!;
  }

  /** Turns the request into a membership at `access_level` (default developer). */
  async approve(source: MemberSource, userId: number, accessLevel: LooseParam): Promise<MemberWithUser> {
    if (!source.callerAdmins) throw forbidden();
    const row = await findRow(this.db, source, 'request', userId);
    if (!row) throw recordNotFound();
    // GitLab 8.12 ignores an invalid level, fails to save and still answers 201; we refuse it.
    const level = isBlank(accessLevel) ? DEVELOPER : accessLevelFor(source, accessLevel);
    return inTransaction(this.db, async (trx) => {
      const member = await trx
        .updateTable('members')
        .set({ access_level: level, requested_at: null, updated_at: now() })
        .where('id', '=', row.id)
        .where('requested_at', 'is not', null)
        .returningAll()
        .executeTakeFirst();
      // Approved or withdrawn meanwhile.
      if (!member) throw recordNotFound();
      const [approved] = await withUsers(trx, [member]);
      await announceJoin(this.ctx, this.events, trx, source, approved!);
      return approved!;
    });
  }

  /** Withdrawn by the requester, or denied by a master/owner. */
  async remove(source: MemberSource, caller: Caller, userId: number): Promise<MemberWithUser> {
    const row = await findRow(this.db, source, 'request', userId);
    if (!row) throw recordNotFound();
    if (!mayRemoveMember(source.callerAdmins, caller, row)) throw forbidden();
    const [request] = await withUsers(this.db, [row]);
    await this.db.deleteFrom('members').where('id', '=', row.id).where('requested_at', 'is not', null).execute();
    return request!;
  }
}
