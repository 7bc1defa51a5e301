import { sql } from 'kysely';
import type { Db } from '../../db/index';
import { containsText } from '../../db/search';
import { INTERNAL, PRIVATE, PUBLIC, type Caller } from '../policy';
import { authorizedFor, ownedBy, visibleTo } from './queries';
import { attachNamespaces } from './lookup';
import type { Project, ProjectListOptions } from './types';

/** A page of the projects a list asks for, filtered and ordered, with the total. */
export async function listProjects(db: Db, caller: Caller, options: ProjectListOptions): Promise<{ projects: Project[]; total: number }> {
  let query = db.selectFrom('projects').where('projects.pending_delete', '=', 0);
  if (options.scope === 'authorized') query = query.where((eb) => authorizedFor(eb, caller.id));
  if (options.scope === 'owned') query = query.where((eb) => ownedBy(eb, caller.id));
  if (options.scope === 'visible') query = query.where((eb) => visibleTo(eb, caller));
  if (options.scope === 'starred') {
    query = query
      .where('projects.id', 'in', (eb) => eb.selectFrom('stars').select('project_id').where('user_id', '=', caller.id))
      .where((eb) => visibleTo(eb, caller));
  }
  if (options.namespaceId !== undefined) query = query.where('projects.namespace_id', '=', options.namespaceId);
  if (options.groupId !== undefined) {
    const groupId = options.groupId;
    query = query.where((eb) =>
      eb.or([
        eb('projects.namespace_id', '=', groupId),
        eb('projects.id', 'in', eb.selectFrom('project_group_links').select('project_id').where('group_id', '=', groupId)),
      ]),
    );
  }
  if (options.archived !== undefined) query = query.where('projects.archived', '=', options.archived ? 1 : 0);
  if (options.visibility) {
    const level = { public: PUBLIC, internal: INTERNAL, private: PRIVATE }[options.visibility];
    query = query.where('projects.visibility_level', '=', level);
  }
  if (options.search) {
    const search = options.search;
    query = query.where((eb) => {
      const matches = [containsText('projects.name', search), containsText('projects.path', search), containsText('projects.description', search)];
      if (options.searchNamespace) {
        matches.push(sql<boolean>`${eb('projects.namespace_id', 'in', eb.selectFrom('namespaces').select('id').where(containsText('name', search)))}`);
      }
      return eb.or(matches);
    });
  }
  const orderBy = options.orderBy ?? 'created_at';
  const direction = options.sort ?? 'desc';
  const [rows, count] = await Promise.all([
    query
      .selectAll('projects')
      .$if(options.ciEnabledFirst === true, (q) => q.orderBy('projects.builds_enabled', 'desc'))
      // Names and paths sort alphabetically ignoring case, the same on both databases.
      .orderBy(orderBy === 'name' || orderBy === 'path' ? sql`lower(${sql.ref(`projects.${orderBy}`)})` : sql.ref(`projects.${orderBy}`), direction)
      .orderBy('projects.id', direction)
      .offset(options.offset)
      .limit(options.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { projects: await attachNamespaces(db, rows), total: Number(count.total) };
}
