import type { Db } from '../../db/index';
import { notFound, validationFailed, type Validation } from '../../errors';
import { mayCreateProjectIn, readsEverything, type Caller } from '../policy';
import type { NamespaceRow } from './types';
import { groupAccessOf } from '../namespaces/group-membership';

/** The user's own namespace. */
export function personalNamespace(db: Db, userId: number): Promise<NamespaceRow> {
  return db.selectFrom('namespaces').selectAll().where('owner_id', '=', userId).where('kind', '=', 'user').executeTakeFirstOrThrow();
}

/** Administrators anywhere; users in their own namespace and in groups where they are masters or owners. */
export async function mayCreateIn(db: Db, caller: Caller, namespace: NamespaceRow): Promise<boolean> {
  const groupAccess = namespace.kind === 'group' ? await groupAccessOf(db, namespace.id, caller.id) : null;
  return mayCreateProjectIn(caller, namespace, groupAccess);
}

/** Namespaces a list offers at most (an administrator's choice of every namespace). */
const CREATABLE_LIMIT = 1000;

/**
 * Every namespace the caller may create projects in (a form's choices): their own first, then
 * groups by path; one query, each row judged by the same rule as `usableNamespace`.
 */
export async function creatableNamespaces(db: Db, caller: Caller): Promise<NamespaceRow[]> {
  const rows = await db
    .selectFrom('namespaces')
    .leftJoin('members', (join) =>
      join
        .onRef('members.source_id', '=', 'namespaces.id')
        .on('members.source_type', '=', 'Namespace')
        .on('members.user_id', '=', caller.id)
        .on('members.requested_at', 'is', null),
    )
    .selectAll('namespaces')
    .select('members.access_level')
    .$if(!readsEverything(caller), (query) =>
      query.where((eb) =>
        eb.or([
          eb.and([eb('namespaces.kind', '=', 'user'), eb('namespaces.owner_id', '=', caller.id)]),
          eb('members.access_level', 'is not', null),
        ]),
      ),
    )
    .orderBy('namespaces.kind', 'desc')
    .orderBy('namespaces.path')
    .limit(CREATABLE_LIMIT)
    .execute();
  const usable = rows.filter((row) => mayCreateProjectIn(caller, row, row.access_level ?? null));
  const own = usable.findIndex((row) => row.kind === 'user' && row.owner_id === caller.id);
  if (own > 0) usable.unshift(...usable.splice(own, 1));
  return usable.map(({ access_level: _, ...namespace }) => namespace as NamespaceRow);
}

/** A namespace (by id) the caller may create projects in; a 400 on `namespace` otherwise, as GitLab validates it. */
export async function usableNamespace(db: Db, caller: Caller, namespaceId: number): Promise<NamespaceRow> {
  const namespace = await db.selectFrom('namespaces').selectAll().where('id', '=', namespaceId).executeTakeFirst();
  if (!namespace || !(await mayCreateIn(db, caller, namespace))) throw validationFailed({ namespace: ['is not valid'] });
  return namespace;
}

/** A fork's target: the caller's namespace, or one given by id, path or name they may create projects in. */
export async function forkTarget(db: Db, caller: Caller, namespaceRef: string | undefined): Promise<NamespaceRow> {
  if (namespaceRef === undefined || namespaceRef === '') return personalNamespace(db, caller.id);
  const namespace = await db
    .selectFrom('namespaces')
    .selectAll()
    .where((eb) =>
      /^\d+$/.test(namespaceRef)
        ? eb('id', '=', Number(namespaceRef))
        : eb.or([eb(eb.fn('lower', ['path']), '=', namespaceRef.toLowerCase()), eb('name', '=', namespaceRef)]),
    )
    .orderBy('id')
    .executeTakeFirst();
  if (!namespace || !(await mayCreateIn(db, caller, namespace))) throw notFound('Target Namespace');
  return namespace;
}

/** A name or path (ignoring case) another project of the namespace already has. */
export async function checkTaken(
  db: Db,
  validation: Validation,
  namespaceId: number,
  name: string,
  path: string,
  selfId: number | undefined,
): Promise<void> {
  const clashes = await db
    .selectFrom('projects')
    .select(['name', 'path'])
    .where('namespace_id', '=', namespaceId)
    .where('id', '!=', selfId ?? -1)
    .where((eb) => eb.or([eb('name', '=', name), eb(eb.fn('lower', ['path']), '=', path.toLowerCase())]))
    .execute();
  if (clashes.some((c) => c.name === name)) validation.add('name', 'has already been taken');
  if (clashes.some((c) => c.path.toLowerCase() === path.toLowerCase())) validation.add('path', 'has already been taken');
}
