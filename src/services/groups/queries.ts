import type { Db } from '../../db/index';

/** Ids of the groups the user is a member of (access requests do not count). */
export function memberGroupIds(db: Db, userId: number) {
  return db
    .selectFrom('members')
    .select('source_id')
    .where('source_type', '=', 'Namespace')
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null);
}
