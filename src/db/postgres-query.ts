import { createRequire } from 'node:module';
import pg from 'pg';

// How `pg` turns a parameter into the text it sends (dates, arrays, objects as JSON): as `pg.Query` does.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

/** A row's columns, from a statement's description: names and the parsers of their types. */
interface RowShape {
  names: string[];
  parsers: Array<(text: string) => unknown>;
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
}

/** The parts of `pg`'s connection a query drives (`pg.Query` drives the same). */
interface WireConnection {
  submittedNamedStatements: Record<string, string>;
  parse(message: { text: string; name: string }): void;
  bind(message: { portal: string; statement: string; values: unknown[]; binary: boolean; valueMapper: (value: unknown) => unknown }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  close(message: { type: 'S'; name: string }): void;
  sync(): void;
}

/** The parts of `pg.Query` this class builds on. */
interface QueryBase {
  name: string;
  text: string;
  values: unknown[];
  callback?: (error: Error | null, result?: pg.QueryResult) => void;
  _result: pg.QueryResult;
  _canceledDueToError: Error | false;
  hasBeenParsed(connection: WireConnection): boolean;
  handleError(error: Error, connection: WireConnection): void;
}

const Query = pg.Query as unknown as new (text: string, values: unknown[]) => QueryBase;

/** What each connection has learnt of the rows of the statements it prepared, by statement name. */
const shapesByConnection = new WeakMap<WireConnection, Map<string, RowShape>>();

/**
 * One execution of a named prepared statement, as `pg.Query` runs it but for two things. The rows'
 * description is asked for once per connection and statement, not on every execution: the columns
 * of a prepared statement cannot change (PostgreSQL refuses to run it once its tables changed
 * shape, `0A000`). And rows are built from that shape directly. On the requests of the GPT mix,
 * reading the description again and building each result's row template (`Result.addFields`) were
 * a tenth of Forge's CPU. It is a `pg.Query`, so the pipeline mode takes it.
 */
class NamedStatementQuery extends Query {
  private shape: RowShape | undefined;
  private shapes: Map<string, RowShape> | undefined;

  constructor(name: string, text: string, values: unknown[]) {
    // Text first, then the name: a configuration object would be copied property by property.
    super(text, values);
    this.name = name;
  }

  prepare(connection: WireConnection): void {
    this.shapes = shapesByConnection.get(connection);
    if (!this.shapes) shapesByConnection.set(connection, (this.shapes = new Map()));
    this.shape = this.shapes.get(this.name);
    if (!this.hasBeenParsed(connection)) {
      connection.parse({ text: this.text, name: this.name });
      connection.submittedNamedStatements[this.name] = this.text;
    }
    try {
      connection.bind({ portal: '', statement: this.name, values: this.values, binary: false, valueMapper: prepareValue });
    } catch (error) {
      connection.close({ type: 'S', name: this.name });
      connection.sync();
      this.handleError(error as Error, connection);
      return;
    }
    if (!this.shape) connection.describe({ type: 'P', name: '' });
    connection.execute({ portal: '' });
    connection.sync();
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    this.shape = {
      names: message.fields.map((field) => field.name),
      parsers: message.fields.map((field) => pg.types.getTypeParser(field.dataTypeID, 'text') as (text: string) => unknown),
    };
    this.shapes?.set(this.name, this.shape);
  }

  handleDataRow(message: { fields: Array<string | null> }): void {
    if (this._canceledDueToError) return;
    const { names, parsers } = this.shape!;
    const row: Record<string, unknown> = {};
    try {
      for (let i = 0; i < names.length; i++) {
        const text = message.fields[i];
        row[names[i]] = text === null ? null : parsers[i](text);
      }
    } catch (error) {
      this._canceledDueToError = error as Error;
      return;
    }
    this._result.rows.push(row);
  }
}

/** Runs a named prepared statement on `client` (preparing it there first if it is new to it). */
export function runNamed(client: pg.Client, name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new NamedStatementQuery(name, text, values);
    query.callback = (error, result) => (error ? reject(error) : resolve(result!));
    client.query(query as unknown as pg.Submittable);
  });
}
