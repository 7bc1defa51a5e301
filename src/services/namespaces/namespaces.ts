import type { ServiceContext } from '../context';
import { readsEverything, type Caller } from '../policy';
import type { NamespaceRow } from './types';
import { containsText } from '../../db/search';
import { memberGroupIds } from './group-membership';

/** Namespaces: users' personal ones and groups, in one table. */
export class NamespacesService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Administrators see every namespace; others their own and the groups they are members of. */
  async list(
    caller: Caller,
    options: { search?: string; offset: number; limit: number },
  ): Promise<{ namespaces: NamespaceRow[]; total: number }> {
    let query = this.visibleTo(caller);
    const search = options.search;
    if (search) query = query.where((eb) => eb.or([containsText('name', search), containsText('path', search)]));
    const [namespaces, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(options.offset).limit(options.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { namespaces, total: Number(count.total) };
  }

  /** One namespace the caller would list, by id or by path; undefined for one they may not see. */
  async find(caller: Caller, idOrPath: string): Promise<NamespaceRow | undefined> {
    const id = /^\d+$/.test(idOrPath) ? Number(idOrPath) : undefined;
    return this.visibleTo(caller)
      .where((eb) =>
        id !== undefined && id <= 2 ** 31 - 1 ? eb('id', '=', id) : eb(eb.fn('lower', ['path']), '=', idOrPath.toLowerCase()),
      )
      .selectAll()
      .executeTakeFirst();
  }

  /** Administrators see every namespace; others their own and the groups they are members of. */
  private visibleTo(caller: Caller) {
    const db = this.ctx.db;
    const query = db.selectFrom('namespaces');
    if (readsEverything(caller)) return query;
    return query.where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'user'), eb('owner_id', '=', caller.id)]),
        eb.and([eb('kind', '=', 'group'), eb('id', 'in', memberGroupIds(db, caller.id))]),
      ]),
    );
  }
}
