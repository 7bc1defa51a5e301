import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { forbidden, notFound } from '../../errors';
import { canOnGroup, visibleWithoutMembership, type Caller, type GroupAbility, type GroupStanding } from '../policy';
import { visibleTo } from '../projects/queries';
import type { NamespaceRow } from '../projects/types';

export type Group = NamespaceRow;

/** Groups are namespaces of kind `group`. */
export class GroupsService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** By path first, then by numeric id, as GitLab 8.12 resolves `:id`. */
  async find(idOrPath: string | number): Promise<Group | undefined> {
    const text = String(idOrPath);
    const byPath = await this.db
      .selectFrom('namespaces')
      .selectAll()
      .where('kind', '=', 'group')
      .where((eb) => eb(eb.fn('lower', ['path']), '=', text.toLowerCase()))
      .executeTakeFirst();
    if (byPath || !/^\d+$/.test(text)) return byPath;
    return this.db.selectFrom('namespaces').selectAll().where('kind', '=', 'group').where('id', '=', Number(text)).executeTakeFirst();
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
    const memberAccess = caller
      ? (
          await this.db
            .selectFrom('members')
            .select('access_level')
            .where('source_type', '=', 'Namespace')
            .where('source_id', '=', group.id)
            .where('user_id', '=', caller.id)
            .where('requested_at', 'is', null)
            .executeTakeFirst()
        )?.access_level ?? null
      : null;
    const base = { caller, visibilityLevel: group.visibility_level, memberAccess, seesAProject: false };
    if (memberAccess !== null || caller?.admin === 1 || visibleWithoutMembership(group.visibility_level, caller)) return base;
    // A user who can see one of its projects can see the group.
    const project = await this.db
      .selectFrom('projects')
      .select('id')
      .where('namespace_id', '=', group.id)
      .where('pending_delete', '=', 0)
      .where((eb) => visibleTo(eb, caller))
      .limit(1)
      .executeTakeFirst();
    return { ...base, seesAProject: project !== undefined };
  }

  authorize(standing: GroupStanding, ability: GroupAbility): void {
    if (!canOnGroup(standing, ability)) throw forbidden();
  }
}
