import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index';

/** Stands in for the n-th argument while the query is compiled. */
class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * A query that Kysely builds and compiles once and that then runs with new values only. On the
 * hottest paths (every authenticated request) building and compiling cost more than the database's
 * own work. Each argument must be used as one plain value (`=`, `<`, `like`…): an argument spread
 * into an `in` list or used as a column name would be compiled once, wrongly.
 */
export function preparedQuery<Args extends unknown[], Row>(db: Db, build: (...args: Args) => Compilable<Row>): (...args: Args) => Promise<Row[]> {
  const placeholders = Array.from({ length: build.length }, (_, index) => new Placeholder(index));
  const compiled = build(...(placeholders as unknown as Args)).compile();
  const slots = compiled.parameters.map((value) => (value instanceof Placeholder ? value.index : -1));
  if (new Set(slots.filter((slot) => slot !== -1)).size !== build.length) throw new Error(`preparedQuery: an argument is not a value of ${compiled.sql}`);
  return async (...args) => {
    const parameters = compiled.parameters.map((value, i) => (slots[i] === -1 ? value : args[slots[i]]));
    const { rows } = await db.executeQuery<Row>({ ...compiled, parameters } as CompiledQuery<Row>);
    return rows;
  };
}
