import { sql } from 'kysely';
import type { DbHandle, DialectName, SchemaFreeDb } from '../index';

/*
 * What a backup needs to know of the schema, read from the database's own catalogue, so that a
 * table added by a later migration is saved without anyone listing it here: each table's columns,
 * its primary key (to read it in a stable order) and the tables its foreign keys name (to load
 * parents before children).
 */

export interface TableShape {
  name: string;
  columns: string[];
  primaryKey: string[];
  /** Tables this one's foreign keys point at (itself excluded). */
  parents: string[];
}

/** Kysely's own bookkeeping: the migrator makes it in the target. */
const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock'];

export async function describeTables(db: SchemaFreeDb, dialect: DialectName): Promise<TableShape[]> {
  const shapes = dialect === 'postgres' ? await postgresShapes(db) : await sqliteShapes(db);
  return inDependencyOrder(shapes.filter((shape) => !MIGRATOR_TABLES.includes(shape.name)));
}

/** Two catalogue reads, whatever the number of tables: the `pragma_*` table functions joined to `sqlite_master`. */
async function sqliteShapes(db: SchemaFreeDb): Promise<TableShape[]> {
  const columns = await sql<{ table_name: string; column_name: string; pk: number }>`
    select m.name as table_name, c.name as column_name, c.pk as pk
    from sqlite_master m join pragma_table_info(m.name) c
    where m.type = 'table' and m.name not like 'sqlite_%' order by m.name, c.cid`.execute(db);
  const parents = await sql<{ table_name: string; parent: string }>`
    select distinct m.name as table_name, f."table" as parent
    from sqlite_master m join pragma_foreign_key_list(m.name) f
    where m.type = 'table' and m.name not like 'sqlite_%'`.execute(db);
  const tables = new Map<string, TableShape & { keyOrder: number[] }>();
  for (const row of columns.rows) {
    let shape = tables.get(row.table_name);
    if (!shape) tables.set(row.table_name, (shape = { name: row.table_name, columns: [], primaryKey: [], parents: [], keyOrder: [] }));
    shape.columns.push(row.column_name);
    if (row.pk > 0) {
      shape.primaryKey.push(row.column_name);
      shape.keyOrder.push(row.pk);
    }
  }
  for (const row of parents.rows) if (row.parent !== row.table_name) tables.get(row.table_name)?.parents.push(row.parent);
  return [...tables.values()].map(({ keyOrder, ...shape }) => ({
    ...shape,
    primaryKey: shape.primaryKey
      .map((column, i) => ({ column, at: keyOrder[i] }))
      .sort((a, b) => a.at - b.at)
      .map(({ column }) => column),
  }));
}

async function postgresShapes(db: SchemaFreeDb): Promise<TableShape[]> {
  const columns = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const keys = await sql<{ table_name: string; column_name: string }>`
    select cls.relname as table_name, att.attname as column_name
    from pg_constraint con
    join pg_class cls on cls.oid = con.conrelid
    join unnest(con.conkey) with ordinality as k(attnum, position) on true
    join pg_attribute att on att.attrelid = con.conrelid and att.attnum = k.attnum
    where con.contype = 'p' and cls.relnamespace = current_schema()::regnamespace
    order by cls.relname, k.position`.execute(db);
  const parents = await sql<{ table_name: string; parent: string }>`
    select distinct cls.relname as table_name, ref.relname as parent
    from pg_constraint con
    join pg_class cls on cls.oid = con.conrelid
    join pg_class ref on ref.oid = con.confrelid
    where con.contype = 'f' and cls.relnamespace = current_schema()::regnamespace`.execute(db);
  const tables = new Map<string, TableShape>();
  for (const row of columns.rows) {
    let shape = tables.get(row.table_name);
    if (!shape) tables.set(row.table_name, (shape = { name: row.table_name, columns: [], primaryKey: [], parents: [] }));
    shape.columns.push(row.column_name);
  }
  for (const row of keys.rows) tables.get(row.table_name)?.primaryKey.push(row.column_name);
  for (const row of parents.rows) if (row.parent !== row.table_name) tables.get(row.table_name)?.parents.push(row.parent);
  return [...tables.values()];
}

/** Parents before children, otherwise by name; a cycle (none today) would be an error, not a silent misorder. */
export function inDependencyOrder(shapes: TableShape[]): TableShape[] {
  const byName = new Map(shapes.map((shape) => [shape.name, shape]));
  const ordered: TableShape[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (shape: TableShape, path: string[]) => {
    if (state.get(shape.name) === 'done') return;
    if (state.get(shape.name) === 'visiting') throw new Error(`foreign keys form a cycle: ${[...path, shape.name].join(' → ')}`);
    state.set(shape.name, 'visiting');
    for (const parent of [...shape.parents].sort()) {
      const parentShape = byName.get(parent);
      if (parentShape) visit(parentShape, [...path, shape.name]);
    }
    state.set(shape.name, 'done');
    ordered.push(shape);
  };
  for (const shape of [...shapes].sort((a, b) => a.name.localeCompare(b.name))) visit(shape, []);
  return ordered;
}

/** The migrations the database has run, by name (`kysely_migration`), read in the caller's snapshot. */
export async function executedMigrations(db: SchemaFreeDb): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((row) => row.name);
}

/** True when the database holds no table at all: the only database `forge restore` loads into. */
export async function isEmptyDatabase(handle: DbHandle): Promise<boolean> {
  const query =
    handle.dialect === 'postgres'
      ? sql<{ n: number }>`select count(*) as n from information_schema.tables where table_schema = current_schema()`
      : sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table'`;
  const { rows } = await query.execute(handle.db);
  return Number(rows[0].n) === 0;
}
