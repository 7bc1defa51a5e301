import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';

// A group is a namespace: its membership is read by groups and by projects (who may create projects
// in a group), so it lives below both.

/** Ids of the groups the user is a member of (access requests do not count). */
export function memberGroupIds(db: Db, userId: number) {
  return db
    .selectFrom('members')
    .select('source_id')
    .where('source_type', '=', 'Namespace')
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null);
}

// Every group route asks: built and compiled once.
const groupMembership = preparedPerHandle((db: Db, groupId: number, userId: number) =>
  db
    .selectFrom('members')
    .select('access_level')
    .where('source_type', '=', 'Namespace')
    .where('source_id', '=', groupId)
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null),
);

/** The user's access level in the group as a member (null for non-members; access requests do not count). */
export async function groupAccessOf(db: Db, groupId: number, userId: number): Promise<number | null> {
  const [member] = await groupMembership(db, groupId, userId);
  return member?.access_level ?? null;
}
