import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { DbHandle, SchemaFreeDb } from '../index';
import type { Row } from './rows';
import type { TableShape } from './tables';

/*
 * PostgreSQL's COPY, for a whole database's rows at once (a backup, a restore): one statement per
 * table instead of a round trip per batch, and no statement to parse or bind. Kysely cannot send
 * COPY, so the work runs on a connection of its own (`withOwnConnection`), which a Kysely bound to
 * that one connection shares for the rest (the transaction, the counters).
 *
 * Values travel in COPY's text format: a row a line, columns apart by tabs, `\N` for NULL, and a
 * backslash before a backslash, newline, carriage return or tab of a value. Forge's columns are
 * integers, reals and text on both databases (flags 0/1, times ISO 8601, JSON as text).
 */

export interface OwnConnection {
  client: pg.PoolClient;
  /** A Kysely that runs every statement on `client`. */
  db: SchemaFreeDb;
}

/** Runs `work` on one connection of `database`'s (PostgreSQL); the connection goes back to the pool after. */
export async function withOwnConnection<T>(database: DbHandle, work: (connection: OwnConnection) => Promise<T>): Promise<T> {
  if (database.ownConnection === undefined) throw new Error('COPY needs a PostgreSQL database opened by openDatabase');
  const client = await database.ownConnection();
  // Kysely's driver remembers a connection by the object the pool gave, so it is one object throughout.
  const lent = { query: client.query.bind(client), release: () => {} };
  const db: SchemaFreeDb = new Kysely({
    dialect: new PostgresDialect({ pool: { connect: async () => lent, end: async () => {} } as never }),
  });
  let failed = false;
  try {
    return await work({ client, db });
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await db.destroy();
    // A connection left inside a failed COPY or transaction is not given to anyone else.
    client.release(failed ? true : undefined);
  }
}

/** Rows written into `table` by one COPY; the number written. */
export async function copyRowsIn(client: pg.PoolClient, table: string, columns: string[], rows: Iterable<Row>): Promise<number> {
  const stream = client.query(copyFrom(`copy ${quote(table)} (${columns.map(quote).join(', ')}) from stdin`));
  let count = 0;
  let chunk = '';
  // Listened to for the stream's whole life: PostgreSQL's error can come at any write or after the
  // end, and an 'error' with no listener would end the process.
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.once('finish', resolve);
  });
  finished.catch(() => {});
  const write = async (text: string) => {
    if (!stream.write(text)) await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), finished]);
  };
  try {
    for (const row of rows) {
      let line = '';
      for (let c = 0; c < row.length; c++) line += (c === 0 ? '' : '\t') + encodeCopyValue(row[c]);
      chunk += `${line}\n`;
      count++;
      if (chunk.length >= CHUNK_CHARACTERS) {
        await write(chunk);
        chunk = '';
      }
    }
    if (chunk.length > 0) await write(chunk);
    stream.end();
    await finished;
  } catch (error) {
    // Ends the COPY with the error (PostgreSQL then fails the statement) rather than leaving it open.
    if (!stream.destroyed) stream.destroy(error as Error);
    await finished.catch(() => {});
    throw error;
  }
  return count;
}

/** Text handed to the stream at a time: big enough that the stream's per-write cost does not count. */
const CHUNK_CHARACTERS = 256 * 1024;

const NEEDS_ESCAPE = /[\\\n\r\t]/;
const ESCAPED = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY's text format. */
export function encodeCopyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string') return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, (c) => ESCAPES[c]) : value;
  // bytea's hex form, its backslash escaped for COPY. Forge has no binary column today.
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `\\\\x${Buffer.from(value).toString('hex')}`;
  if (value instanceof Date) return value.toISOString();
  return encodeCopyValue(JSON.stringify(value));
}

/** Reads each value of a column from its text: a number for PostgreSQL's numeric types, the text for the rest. */
type Decode = (text: string) => unknown;
const asText: Decode = (text) => text;
const asNumber: Decode = (text) => Number(text);
const NUMERIC = new Set(['smallint', 'integer', 'bigint', 'real', 'double precision', 'numeric']);

/** The columns' types of the current schema, by table (one catalogue read). */
export async function columnTypes(db: SchemaFreeDb): Promise<Map<string, Map<string, string>>> {
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema()`.execute(db);
  const types = new Map<string, Map<string, string>>();
  for (const row of rows) {
    let table = types.get(row.table_name);
    if (!table) types.set(row.table_name, (table = new Map()));
    table.set(row.column_name, row.data_type);
  }
  return types;
}

/**
 * A table's rows in primary-key order, read by one `COPY (select …) TO STDOUT` in the
 * connection's transaction (its snapshot), a batch of rows as each part arrives.
 */
export function copyRowsOut(client: pg.PoolClient, table: TableShape, types: Map<string, string> | undefined): AsyncGenerator<Row[]> {
  return rowsOfParts(table, types, startCopyOut(client, table) as AsyncIterable<Buffer>);
}

/** Bytes of one table's COPY output read ahead into memory at most (`copyTablesOut`). */
const READ_AHEAD_BYTES = 64 * 1024 * 1024;

interface Received {
  parts: Buffer[];
  /** The rest of the COPY, when it was longer than READ_AHEAD_BYTES. */
  rest?: AsyncIterator<Buffer>;
}

/**
 * `copyRowsOut` for each of `tables` in turn, each table's COPY read ahead whole (up to
 * READ_AHEAD_BYTES) and the next one's started before its rows are handed on: PostgreSQL makes the
 * next table's rows while the caller writes this one's (one connection runs one COPY at a time; its
 * output waits in the socket meanwhile). Without it, each table's query waited for the last rows
 * of the one before to be written.
 */
export function copyTablesOut(
  client: pg.PoolClient,
  tables: TableShape[],
  types: Map<string, Map<string, string>>,
): (table: TableShape) => AsyncGenerator<Row[]> {
  const started = new Map<string, Promise<Received>>();
  const start = (table: TableShape | undefined) => {
    if (table === undefined || started.has(table.name)) return;
    const received = receive(startCopyOut(client, table));
    // A failure is said when the table is read; one never read fails the connection's transaction anyway.
    received.catch(() => {});
    started.set(table.name, received);
  };
  return async function* (table) {
    start(table);
    const received = await started.get(table.name)!;
    started.delete(table.name);
    if (received.rest === undefined) start(tables[tables.indexOf(table) + 1]);
    yield* rowsOfParts(table, types.get(table.name), partsOf(received));
  };
}

async function receive(stream: AsyncIterable<Buffer>): Promise<Received> {
  const parts: Buffer[] = [];
  let size = 0;
  const iterator = stream[Symbol.asyncIterator]();
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { parts };
    parts.push(next.value);
    size += next.value.length;
    if (size >= READ_AHEAD_BYTES) return { parts, rest: iterator };
  }
}

async function* partsOf({ parts, rest }: Received): AsyncGenerator<Buffer> {
  yield* parts;
  if (rest === undefined) return;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

function startCopyOut(client: pg.PoolClient, table: TableShape) {
  const order = (table.primaryKey.length > 0 ? table.primaryKey : table.columns).map(quote).join(', ');
  return client.query(copyTo(`copy (select ${table.columns.map(quote).join(', ')} from ${quote(table.name)} order by ${order}) to stdout`));
}

/** COPY's output, in parts that end anywhere, as batches of rows decoded by the columns' types. */
async function* rowsOfParts(
  table: TableShape,
  types: Map<string, string> | undefined,
  stream: AsyncIterable<Buffer>,
): AsyncGenerator<Row[]> {
  const decoders = table.columns.map((column) => (NUMERIC.has(types?.get(column) ?? '') ? asNumber : asText));
  // A part ends anywhere, inside a row or a character: what follows its last newline waits for the next.
  let rest: Buffer | undefined;
  for await (const part of stream) {
    const bytes = rest === undefined ? part : Buffer.concat([rest, part]);
    const end = bytes.lastIndexOf(NEWLINE);
    if (end < 0) {
      rest = bytes;
      continue;
    }
    rest = end + 1 < bytes.length ? bytes.subarray(end + 1) : undefined;
    const lines = bytes.toString('utf8', 0, end).split('\n');
    const rows = new Array<Row>(lines.length);
    for (let i = 0; i < lines.length; i++) rows[i] = decodeLine(lines[i], decoders);
    yield rows;
  }
  if (rest !== undefined && rest.length > 0) throw new Error(`COPY of ${table.name} ended inside a row`);
}

const NEWLINE = 0x0a;

function decodeLine(line: string, decoders: Decode[]): Row {
  const fields = line.split('\t');
  if (fields.length !== decoders.length) throw new Error(`COPY gave ${fields.length} values for ${decoders.length} columns`);
  const row = new Array<unknown>(fields.length);
  for (let c = 0; c < fields.length; c++) {
    const field = fields[c];
    if (field === '\\N') row[c] = null;
    else row[c] = decoders[c](field.includes('\\') ? unescapeCopy(field) : field);
  }
  return row;
}

const UNESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** COPY's backslash sequences (its output uses the single letters and `\\`; octal and hex are read too). */
function unescapeCopy(field: string): string {
  return field.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, sequence: string) => {
    if (sequence[0] === 'x') return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    if (/^[0-7]/.test(sequence)) return String.fromCharCode(Number.parseInt(sequence, 8));
    return UNESCAPES[sequence] ?? sequence;
  });
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
