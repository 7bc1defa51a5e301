import type SQLite from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';

type Row = Record<string, unknown>;
type MakeRow = (values: unknown[]) => Row;

/**
 * A reading statement whose rows better-sqlite3 hands over as arrays, made into objects by a
 * function compiled for its columns. better-sqlite3 builds each row object through V8's API one
 * property at a time: for a project's 34 columns three times slower than an object literal. The
 * objects are the same: keys in column order, a repeated name keeps its first place and its last
 * value (as an object literal does). A statement with a `__proto__` column keeps better-sqlite3's rows.
 */
export function readingStatement(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement as unknown as SqliteStatement;
  let names = statement.columns().map((column) => column.name);
  if (names.includes('__proto__')) return statement as unknown as SqliteStatement;
  statement.raw(true);
  let make = rowMaker(names);
  // SQLite prepares a statement again after a schema change, and `*` may then name other columns.
  const maker = (width: number): MakeRow => {
    if (width !== names.length) {
      names = statement.columns().map((column) => column.name);
      make = rowMaker(names);
    }
    return make;
  };
  return {
    reader: true,
    all(parameters) {
      const rows = statement.all(parameters as unknown[]) as unknown[][];
      if (rows.length === 0) return rows;
      const makeRow = maker(rows[0].length);
      const objects = new Array<Row>(rows.length);
      for (let i = 0; i < rows.length; i++) objects[i] = makeRow(rows[i]);
      return objects;
    },
    run: (parameters) => statement.run(parameters as unknown[]),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters as unknown[]) as IterableIterator<unknown[]>) yield maker(values.length)(values);
    },
  };
}

function rowMaker(names: string[]): MakeRow {
  const properties = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`);
  return new Function('values', `return { ${properties.join(', ')} };`) as MakeRow;
}
