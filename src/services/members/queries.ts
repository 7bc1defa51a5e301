import { sql, type SqlBool } from 'kysely';
import type { Db, DialectName } from '../../db/index';
import { containsText } from '../../db/search';
import { OWNER } from '../policy';
import type { MemberRow, MemberSource, MemberWithUser } from './types';

/** Memberships (`'member'`) and access requests (`'request'`) are rows of the same table. */
export type RowKind = 'member' | 'request';

function rowsOf(db: Db, source: MemberSource, kind: RowKind | 'any') {
  const query = db.selectFrom('members').where('members.source_type', '=', source.type).where('members.source_id', '=', source.id);
  if (kind === 'any') return query;
  return kind === 'member' ? query.where('members.requested_at', 'is', null) : query.where('members.requested_at', 'is not', null);
}

/**
 * The memberships that give access to the source: its own, and for a project in a group the group's
 * too (Forge has no subgroups, so there is no further ancestor). A user with both counts once, by the
 * higher access level (the source's own row when they are equal).
 */
function inheritedRowsOf(db: Db, source: MemberSource) {
  const groupId = source.type === 'Project' && source.project.namespace.kind === 'group' ? source.project.namespace_id : undefined;
  if (groupId === undefined) return rowsOf(db, source, 'member');
  const fromSources = (table: 'members' | 'better') => {
    const [type, id] = [sql.ref(`${table}.source_type`), sql.ref(`${table}.source_id`)];
    return sql<SqlBool>`((${type} = 'Project' and ${id} = ${source.id}) or (${type} = 'Namespace' and ${id} = ${groupId}))`;
  };
  return db
    .selectFrom('members')
    .where('members.requested_at', 'is', null)
    .where(fromSources('members'))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('members as better')
            .select('better.id')
            .whereRef('better.user_id', '=', 'members.user_id')
            .where('better.requested_at', 'is', null)
            .where(fromSources('better'))
            .where((eb) =>
              eb.or([
                eb('better.access_level', '>', eb.ref('members.access_level')),
                eb.and([
                  eb('better.access_level', '=', eb.ref('members.access_level')),
                  eb('better.source_type', '=', 'Project'),
                  eb('members.source_type', '=', 'Namespace'),
                ]),
              ]),
            ),
        ),
      ),
    );
}

/** The user's row of the given kind; `'any'` finds either (a user has at most one row per source). */
export function findRow(db: Db, source: MemberSource, kind: RowKind | 'any', userId: number): Promise<MemberRow | undefined> {
  return rowsOf(db, source, kind).selectAll('members').where('members.user_id', '=', userId).executeTakeFirst();
}

/** One page of rows, oldest first, optionally only users whose name, username or e-mail contains `search`. */
export async function pageOfRows(
  db: Db,
  source: MemberSource,
  kind: RowKind,
  options: { search?: string; offset: number; limit: number; inherited?: boolean },
): Promise<{ rows: MemberRow[]; total: number }> {
  let query = options.inherited && kind === 'member' ? inheritedRowsOf(db, source) : rowsOf(db, source, kind);
  const search = options.search;
  if (search !== undefined) {
    query = query
      .innerJoin('users', 'users.id', 'members.user_id')
      .where((eb) =>
        eb.or([containsText('users.name', search), containsText('users.username', search), containsText('users.email', search)]),
      );
  }
  const [rows, count] = await Promise.all([
    query.selectAll('members').orderBy('members.id').offset(options.offset).limit(options.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Pairs rows with their users in one query. */
export async function withUsers(db: Db, rows: MemberRow[]): Promise<MemberWithUser[]> {
  if (rows.length === 0) return [];
  const users = await db
    .selectFrom('users')
    .selectAll()
    .where('id', 'in', [...new Set(rows.map((row) => row.user_id))])
    .execute();
  const byId = new Map(users.map((user) => [user.id, user]));
  return rows.map((member) => ({ member, user: byId.get(member.user_id)! }));
}

/**
 * A group's only owner may be neither removed nor demoted. Ask inside the transaction that changes
 * the row: on PostgreSQL the owners' rows stay locked until it ends, so that two owners demoting each
 * other at once cannot both succeed (SQLite runs one writing transaction at a time).
 */
export async function isLastOwner(trx: Db, dialect: DialectName, source: MemberSource, member: MemberRow): Promise<boolean> {
  if (source.type !== 'Namespace' || member.access_level !== OWNER) return false;
  let owners = rowsOf(trx, source, 'member').where('members.access_level', '=', OWNER).select('members.id');
  if (dialect === 'postgres') owners = owners.forUpdate();
  return (await owners.execute()).length <= 1;
}
