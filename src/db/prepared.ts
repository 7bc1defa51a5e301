import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index';

/** Stands in for the n-th argument (or, for an array argument, one of its items) while the query is compiled. */
class Placeholder {
  constructor(
    readonly index: number,
    readonly item: number,
  ) {}
}

interface Prepared {
  compiled: CompiledQuery;
  /** Per parameter of the compiled query: the placeholder it stands for, or null for a constant. */
  slots: (Placeholder | null)[];
}

/** Compiled shapes kept per query: one per combination of its array arguments' lengths (page sizes). */
const SHAPES_KEPT = 64;

/**
 * A query that Kysely builds and compiles once and that then runs with new values only. On the
 * hottest paths (every authenticated request) building and compiling cost more than the database's
 * own work. Each argument must be used as one plain value (`=`, `<`, `like`…), or be an array used
 * as an `in` list: the query is compiled once per length of its arrays, which must not be empty.
 * An argument used as a column name, or in the query's shape (an `if`), would be compiled once, wrongly.
 */
export function preparedQuery<Args extends unknown[], Row>(
  db: Db,
  build: (...args: Args) => Compilable<Row>,
): (...args: Args) => Promise<Row[]> {
  const shapes = new Map<string, Prepared>();
  return async (...args) => {
    const key = shapeOf(args);
    let prepared = shapes.get(key);
    if (!prepared) {
      prepared = prepare(build, args);
      if (shapes.size >= SHAPES_KEPT) shapes.delete(shapes.keys().next().value!);
      shapes.set(key, prepared);
    }
    const { compiled, slots } = prepared;
    const parameters = new Array<unknown>(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      parameters[i] =
        slot === null ? compiled.parameters[i] : slot.item === -1 ? args[slot.index] : (args[slot.index] as unknown[])[slot.item];
    }
    const { rows } = await db.executeQuery<Row>({ ...compiled, parameters } as CompiledQuery<Row>);
    return rows;
  };
}

function shapeOf(args: unknown[]): string {
  let key = '';
  for (const arg of args) key += Array.isArray(arg) ? `${arg.length},` : '-,';
  return key;
}

function prepare<Args extends unknown[], Row>(build: (...args: Args) => Compilable<Row>, args: Args): Prepared {
  const stand = args.map((arg, index) =>
    Array.isArray(arg) ? Array.from({ length: arg.length }, (_, item) => new Placeholder(index, item)) : new Placeholder(index, -1),
  );
  const compiled = build(...(stand as Args)).compile();
  const slots = compiled.parameters.map((value) => (value instanceof Placeholder ? value : null));
  if (new Set(slots.filter((slot) => slot !== null)).size !== stand.flat().length)
    throw new Error(`preparedQuery: an argument is not a value of ${compiled.sql}`);
  return { compiled, slots };
}

/**
 * `preparedQuery` for functions handed their database handle: prepared once per handle. A
 * transaction's handle is a new one each time, so inside transactions it saves nothing (and costs
 * no more than building the query).
 */
export function preparedPerHandle<Args extends unknown[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const byHandle = new WeakMap<Db, (...args: Args) => Promise<Row[]>>();
  return (db, ...args) => {
    let run = byHandle.get(db);
    if (!run) {
      run = preparedQuery(db, (...values: Args) => build(db, ...values));
      byHandle.set(db, run);
    }
    return run(...args);
  };
}

/** Stands in for a named value while a query of one shape is compiled. */
class Named {
  constructor(readonly name: string) {}
}

/**
 * A query whose shape follows a few options (a scope, an order, which filters are given): built
 * and compiled once per shape (`keyOf` names it) and database handle, then run with new `values`.
 * `build` gets stand-ins for the values and must use each it uses as one plain value; everything
 * else it branches on must be told apart by `keyOf`.
 */
export function preparedShapes<Shape, Values extends Record<string, unknown>, Row>(
  keyOf: (shape: Shape) => string,
  build: (db: Db, shape: Shape, values: Values) => Compilable<Row>,
): (db: Db, shape: Shape, values: Values) => Promise<Row[]> {
  const byHandle = new WeakMap<Db, Map<string, { compiled: CompiledQuery; names: (string | null)[] }>>();
  return async (db, shape, values) => {
    let shapes = byHandle.get(db);
    if (!shapes) byHandle.set(db, (shapes = new Map()));
    const key = keyOf(shape);
    let prepared = shapes.get(key);
    if (!prepared) {
      const stand = Object.fromEntries(Object.keys(values).map((name) => [name, new Named(name)]));
      const compiled = build(db, shape, stand as Values).compile();
      prepared = { compiled, names: compiled.parameters.map((value) => (value instanceof Named ? value.name : null)) };
      if (shapes.size >= SHAPES_KEPT) shapes.delete(shapes.keys().next().value!);
      shapes.set(key, prepared);
    }
    const { compiled, names } = prepared;
    const parameters = names.map((name, i) => (name === null ? compiled.parameters[i] : values[name]));
    const { rows } = await db.executeQuery<Row>({ ...compiled, parameters } as CompiledQuery<Row>);
    return rows;
  };
}
