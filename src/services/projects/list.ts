import { sql } from 'kysely';
import type { Db } from '../../db/index';
import type { Flag } from '../../db/schema';
import { preparedShapes } from '../../db/prepared';
import { pageLimit } from '../../db/page-limit';
import { containsText } from '../../db/search';
import { INTERNAL, PRIVATE, PUBLIC, readsEverything, type Caller } from '../policy';
import { attachNamespaces, authorizedFor, ownedBy, visibleTo } from './queries';
import type { Project, ProjectListOptions } from './types';

/** The values of a list's query; its shape is the options' (which filters, which order). */
type ListValues = {
  callerId: number;
  forkedFromId: number;
  ownerId: number;
  namespaceId: number;
  groupId: number;
  archived: Flag;
  level: number;
  offset: number;
};

interface ListShape {
  /** Null for anonymous callers, who see public projects only. */
  caller: Caller | null;
  options: ProjectListOptions;
}

function filtered(db: Db, { caller, options }: ListShape, values: ListValues) {
  const who: Caller | null = caller && { id: values.callerId, admin: caller.admin, external: caller.external };
  const whoId = values.callerId;
  let query = db.selectFrom('projects').where('projects.pending_delete', '=', 0);
  if (options.scope === 'authorized') query = query.where((eb) => authorizedFor(eb, whoId));
  if (options.scope === 'owned') query = query.where((eb) => ownedBy(eb, whoId));
  if (options.scope === 'visible') query = query.where((eb) => visibleTo(eb, who));
  // Narrowing filters of the `visible` scope (an anonymous caller, id 0, owns, joins and stars nothing).
  if (options.owned) query = query.where((eb) => ownedBy(eb, whoId));
  if (options.membership) query = query.where((eb) => authorizedFor(eb, whoId));
  if (options.starred)
    query = query.where('projects.id', 'in', (eb) => eb.selectFrom('stars').select('project_id').where('user_id', '=', whoId));
  if (options.forkedFromId !== undefined) query = query.where('projects.forked_from_project_id', '=', values.forkedFromId);
  if (options.ownerId !== undefined) {
    query = query.where('projects.namespace_id', 'in', (eb) =>
      eb.selectFrom('namespaces').select('id').where('owner_id', '=', values.ownerId).where('kind', '=', 'user'),
    );
  }
  if (options.scope === 'starred') {
    query = query
      .where('projects.id', 'in', (eb) => eb.selectFrom('stars').select('project_id').where('user_id', '=', whoId))
      .where((eb) => visibleTo(eb, who));
  }
  if (options.namespaceId !== undefined) query = query.where('projects.namespace_id', '=', values.namespaceId);
  if (options.groupId !== undefined) {
    const groupId = values.groupId;
    query = query.where((eb) =>
      eb.or([
        eb('projects.namespace_id', '=', groupId),
        eb('projects.id', 'in', eb.selectFrom('project_group_links').select('project_id').where('group_id', '=', groupId)),
      ]),
    );
  }
  if (options.archived !== undefined) query = query.where('projects.archived', '=', values.archived);
  if (options.visibility) query = query.where('projects.visibility_level', '=', values.level);
  // Searches are not prepared (see `listProjects`): the text is used as it is.
  if (options.search) {
    const search = options.search;
    query = query.where((eb) => {
      const matches = [
        containsText('projects.name', search),
        containsText('projects.path', search),
        containsText('projects.description', search),
      ];
      if (options.searchNamespace) {
        matches.push(
          sql<boolean>`${eb('projects.namespace_id', 'in', eb.selectFrom('namespaces').select('id').where(containsText('name', search)))}`,
        );
      }
      return eb.or(matches);
    });
  }
  return query;
}

function pageQuery(db: Db, shape: ListShape, values: ListValues) {
  const { options } = shape;
  const orderBy = options.orderBy ?? 'created_at';
  const direction = options.sort ?? 'desc';
  return (
    filtered(db, shape, values)
      .selectAll('projects')
      .$if(options.ciEnabledFirst === true, (q) => q.orderBy('projects.builds_enabled', 'desc'))
      // Names and paths sort alphabetically ignoring case, the same on both databases.
      .orderBy(
        orderBy === 'name' || orderBy === 'path' ? sql`lower(${sql.ref(`projects.${orderBy}`)})` : sql.ref(`projects.${orderBy}`),
        direction,
      )
      .orderBy('projects.id', direction)
      .limit(pageLimit(options.limit))
      .offset(values.offset)
  );
}

function countQuery(db: Db, shape: ListShape, values: ListValues) {
  return filtered(db, shape, values).select((eb) => eb.fn.countAll<number>().as('total'));
}

/** Everything `filtered` and `pageQuery` branch on, the page size included: the caller's id, the filters' values and the offset aside. */
function shapeKey({ caller, options }: ListShape): string {
  return [
    options.scope,
    caller === null ? 'anonymous' : readsEverything(caller),
    caller?.external === 1,
    options.owned === true,
    options.membership === true,
    options.starred === true,
    options.forkedFromId !== undefined,
    options.ownerId !== undefined,
    options.namespaceId !== undefined,
    options.groupId !== undefined,
    options.archived !== undefined,
    options.visibility !== undefined,
    options.orderBy ?? 'created_at',
    options.sort ?? 'desc',
    options.ciEnabledFirst === true,
    options.limit,
  ].join('|');
}

// Lists are asked for on every page view: each shape is built and compiled once.
const preparedPage = preparedShapes(shapeKey, pageQuery);
const preparedCount = preparedShapes(shapeKey, countQuery);

/** A page of the projects a list asks for, filtered and ordered, with the total. */
export async function listProjects(
  db: Db,
  caller: Caller | null,
  options: ProjectListOptions,
): Promise<{ projects: Project[]; total: number }> {
  const shape: ListShape = { caller, options };
  const values: ListValues = {
    callerId: caller?.id ?? 0,
    forkedFromId: options.forkedFromId ?? 0,
    ownerId: options.ownerId ?? 0,
    namespaceId: options.namespaceId ?? 0,
    groupId: options.groupId ?? 0,
    archived: options.archived ? 1 : 0,
    level: options.visibility ? { public: PUBLIC, internal: INTERNAL, private: PRIVATE }[options.visibility] : 0,
    offset: options.offset,
  };
  let rows: Awaited<ReturnType<ReturnType<typeof pageQuery>['execute']>>;
  let count: { total: number };
  if (options.search) {
    [rows, count] = await Promise.all([pageQuery(db, shape, values).execute(), countQuery(db, shape, values).executeTakeFirstOrThrow()]);
  } else {
    [rows, [count]] = await Promise.all([preparedPage(db, shape, values), preparedCount(db, shape, values)]);
  }
  return { projects: await attachNamespaces(db, rows), total: Number(count.total) };
}
